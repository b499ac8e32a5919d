/** Runs a scriptable subcommand: resolves the account, makes a client, closes it afterwards. */
import { ApiError } from "../../api/errors.js";
import { FirstContactError, diagnoseFailure } from "../../api/first-contact.js";
import { UsageError } from "../args-base.js";
import type { SubcommandArgs } from "../args-commands.js";
import { clientForAccount, resolveAccount } from "../account.js";
import { processIO, type CommandIO } from "./io.js";

export async function runSubcommand(args: SubcommandArgs, io: CommandIO = processIO()): Promise<number> {
  if (args.command === "login") {
    const { runLogin } = await import("./login.js");
    return runLogin(args, io);
  }
  const account = await resolveAccount(args.account);
  const client = await clientForAccount(account);
  try {
    switch (args.command) {
      case "send":
        return await (await import("./send.js")).runSend(args, client, io);
      case "status":
        return await (await import("./status.js")).runStatus(args, client, io);
      case "messages":
        return await (await import("./messages.js")).runMessages(args, client, io);
      case "api":
        return await (await import("./api.js")).runApi(args, client, io);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    // A refusal of what was asked keeps the server's own words, unless the server is too old
    // for termchat; the rest is said plainly.
    const { failure, line } = await diagnoseFailure(err, { site: client.site, who: account.email, spectator: client.spectator, dispatcher: await client.connection() });
    if (failure instanceof ApiError && !failure.isAuthFailure && !failure.isRateLimit) throw err;
    throw new FirstContactError(line, err);
  } finally {
    await client.close();
  }
}
