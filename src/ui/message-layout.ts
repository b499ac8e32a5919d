/**
 * Lays messages out as terminal lines: recipient headers, day separators,
 * sender lines, the rendered body and reactions. Only the messages around
 * the selection are laid out (windowing), each body rendered once per width.
 */
import type { Message } from "../api/schemas/common.js";
import { emojiByName } from "../render/emoji.js";
import { meMessageText, renderMarkdown, type RenderContext } from "../render/markdown.js";
import { sanitizeInline } from "../render/sanitize.js";
import { formatDay, formatTime, isSameDay } from "../render/time.js";
import { topicKey } from "../model/narrow.js";
import type { Store } from "../model/store.js";

export type LineStyle = "recipient" | "day" | "sender" | "body" | "reactions" | "note";

export interface Line {
  text: string;
  style: LineStyle;
  /** Pre-styled (SGR codes from the Markdown renderer): shown as is. */
  ansi?: boolean;
}

export interface Block {
  id: number;
  lines: Line[];
}

export interface LayoutOptions {
  width: number;
  /** Show the channel > topic (or DM) header when the conversation changes. */
  showRecipients: boolean;
  color: boolean;
  timeZone?: string;
  now?: number;
}

const GROUP_GAP_SECONDS = 10 * 60;

export function renderContext(store: Store, color: boolean, timeZone?: string): RenderContext {
  let byName: Map<string, number> | undefined;
  return {
    selfUserId: store.selfId,
    userName: (id) => store.users.get(id)?.full_name,
    userIdByName: (name) => {
      if (!byName) {
        byName = new Map();
        for (const u of store.users.values()) byName.set(u.full_name.toLowerCase(), u.user_id);
      }
      return byName.get(name.toLowerCase());
    },
    channelName: (id) => store.channelName(id),
    emptyTopicName: store.realm.emptyTopicName,
    timeZone,
    color,
  };
}

function sameConversation(a: Message, b: Message): boolean {
  if (a.type !== b.type) return false;
  if (a.type === "stream") return a.stream_id === b.stream_id && topicKey(a.subject) === topicKey(b.subject);
  const ids = (m: Message) => (Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id).sort().join(",") : "");
  return ids(a) === ids(b);
}

export function recipientLabel(store: Store, m: Message): string {
  if (m.type === "stream") {
    const channel = m.stream_id !== undefined ? store.channelName(m.stream_id) : undefined;
    const name = channel ?? (typeof m.display_recipient === "string" ? m.display_recipient : "?");
    return `#${sanitizeInline(name)} › ${sanitizeInline(store.topicDisplayName(m.subject))}`;
  }
  const people = Array.isArray(m.display_recipient) ? m.display_recipient.filter((r) => r.id !== store.selfId) : [];
  return people.length ? `You and ${people.map((r) => sanitizeInline(r.full_name)).join(", ")}` : "You (notes to self)";
}

export function reactionsText(store: Store, m: Message): string {
  const groups = new Map<string, { label: string; count: number; mine: boolean }>();
  for (const r of m.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const g = groups.get(key) ?? {
      label: (r.reaction_type === "unicode_emoji" && emojiFromCode(r.emoji_code)) || emojiByName(r.emoji_name) || `:${sanitizeInline(r.emoji_name)}:`,
      count: 0,
      mine: false,
    };
    g.count++;
    g.mine ||= r.user_id === store.selfId;
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => `${g.mine ? "[" : " "}${g.label} ${g.count}${g.mine ? "]" : " "}`).join(" ");
}

function emojiFromCode(code: string): string | undefined {
  const points = code.split("-").map((h) => Number.parseInt(h, 16));
  if (points.some((p) => !Number.isFinite(p) || p < 0x20 || p > 0x10ffff || (p >= 0x7f && p <= 0x9f))) return undefined;
  try {
    return String.fromCodePoint(...points);
  } catch {
    return undefined;
  }
}

/** The lines of message `i` given its predecessor (which decides the headers). */
export function layoutMessage(store: Store, m: Message, prev: Message | undefined, o: LayoutOptions, ctx: RenderContext): Block {
  const lines: Line[] = [];
  const newDay = !prev || !isSameDay(prev.timestamp, m.timestamp, o.timeZone);
  if (newDay) lines.push({ text: formatDay(m.timestamp, { timeZone: o.timeZone, now: o.now }), style: "day" });
  const newConversation = o.showRecipients && (!prev || newDay || !sameConversation(prev, m));
  if (newConversation) lines.push({ text: recipientLabel(store, m), style: "recipient" });
  const action = meMessageText(m.content);
  const sender = sanitizeInline(m.sender_full_name);
  const showSender =
    action !== undefined ||
    newConversation ||
    newDay ||
    !prev ||
    prev.sender_id !== m.sender_id ||
    m.timestamp - prev.timestamp > GROUP_GAP_SECONDS ||
    !sameConversation(prev, m);
  const marks = [m.last_edit_timestamp ? "edited" : "", m.last_moved_timestamp ? "moved" : ""].filter(Boolean).join(", ");
  const time = formatTime(m.timestamp, { timeZone: o.timeZone, now: o.now });
  if (action !== undefined) {
    lines.push({ text: `* ${sender} ${sanitizeInline(action)}  ${time}${marks ? ` (${marks})` : ""}`, style: "sender" });
  } else {
    if (showSender) lines.push({ text: `${sender}  ${time}${marks ? ` (${marks})` : ""}`, style: "sender" });
    const body = renderMarkdown(m.content, ctx, Math.max(10, o.width - 2));
    for (const l of body.split("\n")) lines.push({ text: l, style: "body", ansi: o.color });
    if (!showSender && marks) lines.push({ text: `(${marks})`, style: "note" });
  }
  if (m.reactions.length) lines.push({ text: reactionsText(store, m), style: "reactions" });
  return { id: m.id, lines };
}

/**
 * Picks the messages to lay out so that the selected one is visible: from
 * the selection back up to `height` lines above it, and forward to fill.
 * With `bottom` the window ends at the last message (following the newest).
 */
export function layoutWindow(
  store: Store,
  messages: Message[],
  selected: number,
  height: number,
  o: LayoutOptions,
  ctx: RenderContext,
): { blocks: Block[]; firstIndex: number } {
  if (messages.length === 0) return { blocks: [], firstIndex: 0 };
  const sel = Math.max(0, Math.min(messages.length - 1, selected));
  const block = (i: number) => layoutMessage(store, messages[i] as Message, messages[i - 1], o, ctx);
  const blocks: Block[] = [block(sel)];
  let used = blocks[0]!.lines.length;
  let first = sel;
  let last = sel;
  // Messages after the selection get at most a third of the pane; then fill upwards.
  const below = Math.floor(height / 3);
  let usedBelow = 0;
  while (last + 1 < messages.length && usedBelow < below && used < height) {
    const b = block(++last);
    blocks.push(b);
    usedBelow += b.lines.length;
    used += b.lines.length;
  }
  while (first > 0 && used < height) {
    const b = block(--first);
    blocks.unshift(b);
    used += b.lines.length;
  }
  while (last + 1 < messages.length && used < height) {
    const b = block(++last);
    blocks.push(b);
    used += b.lines.length;
  }
  return { blocks, firstIndex: first };
}
