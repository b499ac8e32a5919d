/** Runs a scriptable subcommand: resolves the account, makes a client, closes it afterwards. */
import type { SubcommandArgs } from "../args-commands.js";
import { clientForAccount, resolveAccount } from "../account.js";
import { processIO, type CommandIO } from "./io.js";

export async function runSubcommand(args: SubcommandArgs, io: CommandIO = processIO()): Promise<number> {
  if (args.command === "login") {
    const { runLogin } = await import("./login.js");
    return runLogin(args, io);
  }
  const client = await clientForAccount(await resolveAccount(args.account));
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
  } finally {
    await client.close();
  }
}
