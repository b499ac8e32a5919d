/** `termchat send`: one message to a channel topic or to people, text from --message or stdin. */
import type { ApiClient } from "../../api/http.js";
import { sendMessage } from "../../api/routes/messages.js";
import { UsageError } from "../args-base.js";
import type { SendArgs } from "../args-commands.js";
import { readAll, type CommandIO } from "./io.js";

export async function messageText(args: SendArgs, io: CommandIO): Promise<string> {
  if (args.message !== undefined) return args.message;
  if (io.stdin.isTTY) throw new UsageError("give the text with --message, or pipe it on stdin");
  const text = (await readAll(io.stdin)).replace(/\r?\n$/, "");
  if (!text.trim()) throw new UsageError("the message on stdin is empty");
  return text;
}

/** Sends once (never retried); prints the new message's ID. */
export async function runSend(args: SendArgs, client: ApiClient, io: CommandIO): Promise<number> {
  const content = await messageText(args, io);
  const res =
    args.channel !== undefined
      ? await sendMessage(client, { type: "stream", to: args.channel, topic: args.topic ?? "", content })
      : await sendMessage(client, { type: "direct", to: args.to ?? [], content });
  io.stdout.write(`${res.id}\n`);
  return 0;
}
