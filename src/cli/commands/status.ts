/** `termchat status`: set one's status text/emoji/away, or show it. */
import type { ApiClient } from "../../api/http.js";
import { getUserStatus, updateStatus, type UpdateStatusParams } from "../../api/routes/status.js";
import { getOwnUser } from "../../api/routes/users.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { StatusArgs } from "../args-commands.js";
import type { CommandIO } from "./io.js";

export function statusParams(args: StatusArgs): UpdateStatusParams | undefined {
  const p: UpdateStatusParams = {};
  if (args.clear) {
    p.status_text = "";
    p.emoji_name = "";
  }
  if (args.text !== undefined) p.status_text = args.text;
  if (args.emoji !== undefined) p.emoji_name = args.emoji;
  if (args.away !== undefined) p.away = args.away;
  return Object.keys(p).length ? p : undefined;
}

export async function runStatus(args: StatusArgs, client: ApiClient, io: CommandIO): Promise<number> {
  const p = statusParams(args);
  if (p) {
    await updateStatus(client, p);
    return 0;
  }
  const me = await getOwnUser(client);
  const { status } = await getUserStatus(client, me.user_id);
  const parts: string[] = [];
  if (status.emoji_name) parts.push(`:${sanitizeInline(status.emoji_name)}:`);
  if (status.status_text) parts.push(sanitizeInline(status.status_text));
  if (status.away) parts.push("(away)");
  io.stdout.write(`${parts.length ? parts.join(" ") : "(no status)"}\n`);
  return 0;
}
