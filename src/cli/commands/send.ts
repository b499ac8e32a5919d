/** `termchat send`: one message to a channel topic or to people, text from --message or stdin, files uploaded first. */
import type { ApiClient } from "../../api/http.js";
import { sendMessage } from "../../api/routes/messages.js";
import { uploadFile } from "../../api/routes/uploads.js";
import { checkUpload, uploadLink, type LocalFile } from "../../sync/actions/files.js";
import { UsageError } from "../args-base.js";
import type { SendArgs } from "../args-commands.js";
import { readAll, type CommandIO } from "./io.js";

export async function messageText(args: SendArgs, io: CommandIO): Promise<string> {
  if (args.message !== undefined) return args.message;
  const files = (args.attach?.length ?? 0) > 0;
  if (io.stdin.isTTY) {
    if (files) return "";
    throw new UsageError("give the text with --message, or pipe it on stdin");
  }
  const text = (await readAll(io.stdin)).replace(/\r?\n$/, "");
  if (!text.trim() && !files) throw new UsageError("the message on stdin is empty");
  return text;
}

/** Every file checked before anything is uploaded (the server applies the organization's size limit). */
async function localFiles(paths: string[]): Promise<LocalFile[]> {
  const out: LocalFile[] = [];
  for (const p of paths) {
    const r = await checkUpload(p, Number.POSITIVE_INFINITY);
    if (!r.ok) throw new UsageError(`--attach: ${r.error.message}`);
    out.push(r.value);
  }
  return out;
}

/** Sends once (never retried); prints the new message's ID. */
export async function runSend(args: SendArgs, client: ApiClient, io: CommandIO): Promise<number> {
  const files = await localFiles(args.attach ?? []);
  let content = await messageText(args, io);
  const links: string[] = [];
  for (const f of files) {
    const up = await uploadFile(client, f.path, { name: f.name });
    links.push(uploadLink(up.filename ?? f.name, up.url));
  }
  if (links.length) content = [content, ...links].filter((l) => l.trim() !== "").join("\n");
  const res =
    args.channel !== undefined
      ? await sendMessage(client, { type: "stream", to: args.channel, topic: args.topic ?? "", content })
      : await sendMessage(client, { type: "direct", to: args.to ?? [], content });
  io.stdout.write(`${res.id}\n`);
  return 0;
}
