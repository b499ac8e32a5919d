/** `termchat messages`: recent messages of a narrow, as text lines or JSON. */
import type { ApiClient } from "../../api/http.js";
import { getMessages } from "../../api/routes/messages.js";
import type { Message, NarrowTerm } from "../../api/schemas/common.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { formatTime, type TimeOptions } from "../../render/time.js";
import type { MessagesArgs } from "../args-commands.js";
import { safeJson, type CommandIO } from "./io.js";

export function narrowFor(args: Pick<MessagesArgs, "channel" | "topic" | "dm" | "search">): NarrowTerm[] {
  const narrow: NarrowTerm[] = [];
  if (args.channel !== undefined) narrow.push({ operator: "channel", operand: args.channel });
  if (args.topic !== undefined) narrow.push({ operator: "topic", operand: args.topic });
  if (args.dm) narrow.push({ operator: "dm", operand: args.dm });
  if (args.search !== undefined) narrow.push({ operator: "search", operand: args.search });
  return narrow;
}

/** The first non-empty line of the (raw Markdown) content, with " …" when there is more. */
export function firstLine(content: string): string {
  const lines = content.split(/\r?\n/).filter((l) => l.trim() !== "");
  const first = sanitizeInline(lines[0] ?? "");
  return lines.length > 1 ? `${first} …` : first;
}

/** `time  sender  #channel > topic: first line`, or `time  sender  → names: first line` for DMs. Every server string is sanitized. */
export function formatMessageLine(m: Message, time: TimeOptions = {}): string {
  const when = formatTime(m.timestamp, time);
  const sender = sanitizeInline(m.sender_full_name);
  let where: string;
  if (typeof m.display_recipient === "string") {
    where = `#${sanitizeInline(m.display_recipient)} > ${sanitizeInline(m.subject)}`;
  } else {
    const others = m.display_recipient.filter((r) => r.id !== m.sender_id);
    where = `→ ${(others.length ? others : m.display_recipient).map((r) => sanitizeInline(r.full_name)).join(", ")}`;
  }
  return `${when}  ${sender}  ${where}: ${firstLine(m.content)}`;
}

export async function runMessages(args: MessagesArgs, client: ApiClient, io: CommandIO, time: TimeOptions = {}): Promise<number> {
  const res = await getMessages(client, {
    anchor: "newest",
    num_before: args.limit,
    num_after: 0,
    narrow: narrowFor(args),
    apply_markdown: false,
  });
  const messages = [...res.messages].sort((a, b) => a.id - b.id);
  if (args.json) {
    io.stdout.write(`${safeJson(messages)}\n`);
  } else {
    for (const m of messages) io.stdout.write(`${formatMessageLine(m, time)}\n`);
  }
  return 0;
}
