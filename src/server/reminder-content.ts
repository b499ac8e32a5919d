// The text of a reminder, as the service writes it when one is set (and again
// when it is delivered, the message it points to may have changed): the
// request (with the note, if any), who wrote the message and where, with links
// to it, and the message itself quoted, cut to fit the length limit. A poll or
// a to-do list is named rather than quoted.

import { LIMITS, type ServerContext } from "./context.js";
import type { Message, User } from "./state.js";

/** How long a reminder's note may be (`max_reminder_note_length` in register). */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

const TRUNCATED = "\n[message truncated]";

/** The note as kept: trailing space and leading blank lines dropped; too long is an error (`null`). */
export function normalizeNote(note: string): string | null {
  const body = note.trimEnd().replace(/^\n+/, "");
  return [...body].length > MAX_REMINDER_NOTE_LENGTH ? null : body;
}

/** The service's hash encoding of a narrow's part: percent-encoding with "." for "%". */
function hashEncode(text: string): string {
  return encodeURIComponent(text).replace(/[.()!'*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%/g, ".");
}

function silentMention(user: User): string {
  return `@_**${user.fullName}|${user.id}**`;
}

/** "A", "A and B", "A, B and C". */
function listOf(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** A fence of backticks longer than any run of backticks opening a line of `text`. */
function unusedFence(text: string): string {
  let longest = 0;
  for (const m of text.matchAll(/^\s*(`{3,})/gm)) longest = Math.max(longest, m[1]!.length);
  return "`".repeat(Math.max(3, longest + 1));
}

function messageUrl(ctx: ServerContext, m: Message): string {
  if (m.type === "stream") {
    const channel = ctx.state.channels.get(m.channelId!);
    const slug = hashEncode((channel?.name ?? "").replace(/ /g, "-"));
    return `${ctx.realmUrl}/#narrow/channel/${m.channelId}-${slug}/topic/${hashEncode(m.topic)}/near/${m.id}`;
  }
  return `${ctx.realmUrl}/#narrow/dm/${m.dmUserIds.join(",")}/near/${m.id}`;
}

export function reminderContent(ctx: ServerContext, target: Message, note?: string): string {
  const { state } = ctx;
  const author = state.users.get(target.senderId);
  const who = author ? silentMention(author) : "Someone";
  const url = messageUrl(ctx, target);
  const channel = target.type === "stream" ? state.channels.get(target.channelId!) : undefined;
  let content = channel
    ? "You requested a reminder for the following message."
    : "You requested a reminder for the following direct message.";
  if (note) content += ` Note:\n > ${note}`;
  content += "\n\n";

  let where: string;
  if (channel) {
    where = `in #**${channel.name}>${target.topic}@${target.id}**`;
  } else {
    const others = target.dmUserIds.filter((id) => id !== target.senderId).map((id) => state.users.get(id)).filter((u): u is User => !!u);
    where = `to ${listOf((others.length > 0 ? others : author ? [author] : []).map(silentMention))}`;
  }
  const widget = target.content.startsWith("/poll") ? "poll" : target.content.startsWith("/todo") ? "todo list" : undefined;
  if (widget) return `${content}${who} [sent](${url}) a ${widget} ${where}.`;

  content += `${who} [said](${url}) ${where}:\n`;
  const fence = unusedFence(target.content);
  const wrapperLength = [...content].length + `${fence}quote\n\n${fence}`.length;
  const room = LIMITS.maxMessageLength - wrapperLength;
  const chars = [...target.content];
  const quoted = chars.length <= room ? target.content : chars.slice(0, Math.max(0, room - TRUNCATED.length)).join("") + TRUNCATED;
  return `${content}${fence}quote\n${quoted}\n${fence}`;
}
