/** `termchat login`: password login that writes a zuliprc. Prints neither the password nor the key. */
import { accountFilePath, passwordLogin, type LoginDeps } from "../../config/accounts.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { LoginArgs } from "../args-commands.js";
import type { CommandIO } from "./io.js";

export async function runLogin(args: LoginArgs, io: CommandIO, deps: LoginDeps = {}): Promise<number> {
  const res = await passwordLogin(
    {
      site: args.site,
      username: args.username,
      configPath: args.config ?? (args.account !== undefined ? accountFilePath(args.account) : undefined),
      allowInsecureHttp: args.allowInsecureHttp,
      caFile: args.caFile,
      force: args.force,
    },
    // Prompts go to stderr: stdout is for the result.
    { input: io.stdin, output: io.stderr },
    deps,
  );
  io.stdout.write(`Logged in as ${sanitizeInline(res.email)} on ${res.site}; wrote ${res.path} (mode 600).\n`);
  return 0;
}
