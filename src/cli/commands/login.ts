/** `termchat login`: password login that writes a zuliprc. Prints neither the password nor the key. */
import type { ClientOptions } from "../../api/http.js";
import { FirstContactError, checkFeatureLevel, explainContactFailure, retryRateLimited } from "../../api/first-contact.js";
import { accountFilePath } from "../../config/accounts.js";
import { passwordLogin, type LoginDeps } from "../../config/login.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { LoginArgs } from "../args-commands.js";
import type { CommandIO } from "./io.js";

type FetchApiKey = NonNullable<LoginDeps["fetchApiKey"]>;

/**
 * The key exchange as the command runs it: a 429 is waited out (bounded, said
 * on stderr), and any other failure becomes one line saying what went wrong.
 */
export function explainedFetchApiKey(
  fetch: FetchApiKey,
  stderr: NodeJS.WritableStream,
  o: { settings?: (site: string, opts: ClientOptions) => Promise<object>; sleep?: (ms: number) => Promise<void> } = {},
): FetchApiKey {
  const { settings, sleep } = o;
  return async (site: string, username: string, password: string, opts: ClientOptions = {}) => {
    try {
      // The server first (no password sent yet): reachable, the API itself, and new enough.
      if (settings) checkFeatureLevel(await settings(site, opts));
      return await retryRateLimited(() => fetch(site, username, password, opts), {
        notify: (line) => stderr.write(`termchat: ${line}\n`),
        sleep,
      });
    } catch (err) {
      const ca = typeof opts.ca === "string" ? opts.ca : undefined;
      throw new FirstContactError(await explainContactFailure(err, { site: new URL(site), who: username, login: true, ca }), err);
    }
  };
}

export async function runLogin(args: LoginArgs, io: CommandIO, deps: LoginDeps = {}): Promise<number> {
  // With the real exchange, the server's settings are asked first; an injected one stands alone.
  const real = deps.fetchApiKey ? undefined : await import("../../api/routes/auth.js");
  const settings = real ? (await import("../../api/routes/server-settings.js")).fetchServerSettings : undefined;
  const fetch = deps.fetchApiKey ?? real!.fetchApiKey;
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
    { ...deps, fetchApiKey: explainedFetchApiKey(fetch, io.stderr, { settings }) },
  );
  io.stdout.write(`Logged in as ${sanitizeInline(res.email)} on ${res.site}; wrote ${res.path} (mode 600).\n`);
  return 0;
}
