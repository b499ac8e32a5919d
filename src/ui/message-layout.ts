/**
 * Lays messages out as terminal lines: recipient headers, day separators,
 * sender lines, the rendered body and reactions. Only the messages around
 * the selection are laid out (windowing). The lines of a message (all but
 * the headers, which depend on its predecessor) are kept in a layout cache
 * (the screen's, given in the options) by account and message, and checked
 * against everything they show — content and edits, width, reactions and
 * widget votes, markers, the look, the names resolved — so a re-render that
 * changed nothing about a message costs a string compare.
 */
import type { Message, Reaction } from "../api/schemas/common.js";
import { stringBytes } from "../render/byte-cache.js";
import { condense, EXPAND_KEY } from "../render/condense.js";
import { emojiByName } from "../render/emoji.js";
import { emojiAsText, glyphs, presentationKey, presentResolved } from "../render/glyphs.js";
import { isMarkdownLoaded, meMessageText, renderMarkdown, type RenderContext } from "../render/markdown.js";
import { sanitizeInline } from "../render/sanitize.js";
import { supportsHyperlinks } from "../render/terminal.js";
import { formatDay, formatTime, isSameDay } from "../render/time.js";
import { displayWidth } from "../render/wrap.js";
import { topicKey } from "../model/narrow.js";
import { USER_LOADING } from "../model/users.js";
import type { Store } from "../model/store.js";
import type { LayoutCache } from "./layout-cache.js";
import type { MessageHighlight } from "./search-highlight.js";
import type { DrawnImage } from "./images/terminal-image.js";
import { widgetLines, widgetSignature } from "./widget-lines.js";

export type LineStyle = "recipient" | "day" | "sender" | "body" | "reactions" | "note" | "widget";

/** One reaction on the reactions line: the emoji with its count; `mine` when the reader reacted with it. */
export interface ReactionSegment {
  text: string;
  mine: boolean;
}

export interface Line {
  text: string;
  style: LineStyle;
  /** Pre-styled (SGR codes from the Markdown renderer): shown as is. */
  ansi?: boolean;
  /** Recipient headers of channels: the subscription's colour. */
  color?: string;
  /** Reactions lines: the reactions, for styling the reader's own. */
  segments?: ReactionSegment[];
  /** Sender line of a message that mentions the reader. */
  mentioned?: boolean;
  /** Widget lines: the question or title, the reader's vote, a task done, a remark. */
  tone?: "title" | "mine" | "done" | "dim";
  /** The first line of the message itself (after its headers): where the unread marker goes. */
  lead?: boolean;
  /** A row reserved for an image the terminal draws over it (images/image-layer.ts): which image, which of its rows. */
  image?: ImageSlot;
}

export interface ImageSlot {
  path: string;
  row: number;
  rows: number;
  cols: number;
  /** The picture made for the terminal's protocol (on the slot's first row), or undefined while it cannot be made yet. */
  draw?: () => DrawnImage | undefined;
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
  /** Messages whose spoilers the reader opened. */
  openSpoilers?: readonly number[];
  /** Long messages the reader asked to see whole (others are drawn condensed, ../render/condense.ts). */
  expanded?: readonly number[];
  /** The key a condensed message's note names (the keymap's; `-` unless rebound). */
  expandKey?: string;
  /** Search results: marks the matched words in the body and topic (see search-highlight.ts). */
  highlight?: (m: Message) => MessageHighlight | undefined;
  /** Image previews after the body: their lines and a signature of what they show (images/preview-lines.ts). */
  images?: (m: Message, width: number) => { sig: string; lines: Line[] } | undefined;
  /** Where laid-out messages are kept (none: each is laid out every time). */
  cache?: LayoutCache;
}

const GROUP_GAP_SECONDS = 10 * 60;

/**
 * What the Markdown renderer needs of the store. `account` names whose store it is: with the
 * store's names version it keys the rendering caches, so make a new context when that changes.
 */
export function renderContext(store: Store, color: boolean, timeZone?: string, hyperlinks = supportsHyperlinks(), account = ""): RenderContext {
  const twentyFour = store.personal.settings["twenty_four_hour_time"];
  return {
    selfUserId: store.selfId,
    // Until the user list is in, a mention of someone not known yet reads as loading: the name typed in it may be out of date.
    userName: (id) => store.users.get(id)?.full_name ?? (store.people.complete ? undefined : USER_LOADING),
    // The user's own name only: a map of every name would have every user's record checked
    // (store.users is checked as it is read), and only the user's own mentions look different.
    isSelfName: (name) => {
      const own = store.users.get(store.selfId)?.full_name;
      return own !== undefined && own.toLowerCase() === name.toLowerCase();
    },
    channelName: (id) => store.channelName(id),
    emptyTopicName: store.realm.emptyTopicName,
    timeZone,
    ...(typeof twentyFour === "boolean" && { twentyFourHour: twentyFour }),
    color,
    hyperlinks: color && hyperlinks,
    customEmoji: {
      has: (name) => store.personal.emojiByName(name) !== undefined,
      get generation() {
        return store.personal.emojiGeneration;
      },
    },
    names: `${account}#${store.namesVersion}`,
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
    return `#${sanitizeInline(name)} ${glyphs().prompt} ${presentResolved(sanitizeInline(store.topicDisplayName(m.subject)))}`;
  }
  const people = Array.isArray(m.display_recipient) ? m.display_recipient.filter((r) => r.id !== store.selfId) : [];
  return people.length ? `You and ${people.map((r) => sanitizeInline(r.full_name)).join(", ")}` : "You (notes to self)";
}

/** A reaction's emoji as shown: the character, or `:name:` for custom emoji, unknown codes and when emoji are shown as text. */
export function reactionLabel(store: Store, r: Pick<Reaction, "emoji_name" | "emoji_code" | "reaction_type">): string {
  if (r.reaction_type === "unicode_emoji" && !emojiAsText()) {
    const char = emojiFromCode(r.emoji_code) ?? emojiByName(r.emoji_name);
    if (char) return char;
  }
  if (r.reaction_type === "realm_emoji") {
    const custom = store.personal.realmEmoji.get(r.emoji_code);
    if (custom) return `:${sanitizeInline(custom.name)}:`;
  }
  return `:${sanitizeInline(r.emoji_name)}:`;
}

export interface ReactionGroup {
  emoji_name: string;
  emoji_code: string;
  reaction_type: Reaction["reaction_type"];
  label: string;
  count: number;
  mine: boolean;
  userIds: number[];
}

/** The reactions of a message, one group per emoji, in the order they were first added. */
export function reactionGroups(store: Store, m: Message): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of m.reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    let g = groups.get(key);
    if (!g) {
      g = { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type, label: reactionLabel(store, r), count: 0, mine: false, userIds: [] };
      groups.set(key, g);
    }
    g.count++;
    g.userIds.push(r.user_id);
    g.mine ||= r.user_id === store.selfId;
  }
  return [...groups.values()];
}

/** A reactions chip as text: the reader's own in brackets ("[👍 2]"), others bare ("🎉 1"). */
export function segmentText(s: ReactionSegment): string {
  return s.mine ? `[${s.text}]` : s.text;
}

/** Between two chips, whoever's they are: two spaces. */
export const CHIP_GAP = "  ";

function chipsText(segments: ReactionSegment[]): string {
  return segments.map(segmentText).join(CHIP_GAP);
}

/** Reactions take at most this many lines; the rest are counted on the last one (the `=` list has them all). */
export const MAX_REACTION_LINES = 3;

/** The reactions line(s) of a message, wrapped to the width. */
export function reactionLines(store: Store, m: Message, width: number): Line[] {
  const rows: ReactionSegment[][] = [];
  let current: ReactionSegment[] = [];
  let used = 0;
  const groups = reactionGroups(store, m);
  for (const g of groups) {
    const seg = { text: `${g.label} ${g.count}`, mine: g.mine };
    const chip = displayWidth(segmentText(seg));
    if (current.length && used + CHIP_GAP.length + chip > width) {
      rows.push(current);
      if (rows.length > MAX_REACTION_LINES) break;
      current = [];
      used = 0;
    }
    used += (current.length ? CHIP_GAP.length : 0) + chip;
    current.push(seg);
  }
  if (current.length && rows.length <= MAX_REACTION_LINES) rows.push(current);
  if (rows.length > MAX_REACTION_LINES) {
    // The last line shown ends with how many more there are, in place of what does not fit beside it.
    rows.length = MAX_REACTION_LINES;
    const last = rows[MAX_REACTION_LINES - 1]!;
    const shown = () => rows.reduce((n, r) => n + r.length, 0);
    const more = (): ReactionSegment => ({ text: `+${groups.length - shown()} more`, mine: false });
    while (last.length > 1 && displayWidth(chipsText([...last, more()])) > width) last.pop();
    last.push(more());
  }
  return rows.map((r) => ({ text: chipsText(r), style: "reactions", segments: r }));
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

/** Whether the message mentions the reader (directly, through a group, or a wildcard). */
export function mentionsMe(m: Message): boolean {
  return m.flags.includes("mentioned") || m.flags.includes("wildcard_mentioned");
}

/** The lines of message `m` after its headers, from the cache when nothing they show has changed. */
function messageLines(store: Store, m: Message, showSender: boolean, o: LayoutOptions, ctx: RenderContext): Line[] {
  const action = meMessageText(m.content);
  const spoilersOpen = o.openSpoilers?.includes(m.id) ?? false;
  const condensed = o.expanded?.includes(m.id) ? undefined : condense(m.content);
  const starred = store.messages.starred.has(m.id) || m.flags.includes("starred");
  const time = formatTime(m.timestamp, { timeZone: o.timeZone, now: o.now, ...(ctx.twentyFourHour !== undefined && { twentyFourHour: ctx.twentyFourHour }) });
  const reactions = m.reactions.map((r) => `${r.user_id}:${r.reaction_type}:${r.emoji_code}`).join(",");
  const widget = store.widgets.of(m);
  const images = action === undefined && !widget ? o.images?.(m, o.width) : undefined;
  const sig = [
    widgetSignature(widget, m.submessages?.length ?? 0),
    ctx.customEmoji?.generation ?? 0,
    images?.sig ?? "",
    o.width,
    o.color ? 1 : 0,
    ctx.colors?.id ?? "",
    presentationKey(),
    spoilersOpen ? 1 : 0,
    condensed ? (o.expandKey ?? EXPAND_KEY) : 0,
    isMarkdownLoaded() ? 1 : 0,
    showSender ? 1 : 0,
    starred ? 1 : 0,
    mentionsMe(m) ? 1 : 0,
    m.last_edit_timestamp ?? "",
    m.last_moved_timestamp ?? "",
    time,
    reactions,
    m.sender_full_name,
    m.content,
  ].join("\u0000");
  const cache = o.cache;
  const hit = cache?.get(ctx, m.id);
  if (hit && hit.ctx === ctx && hit.sig === sig) return hit.lines;

  if (cache) cache.bodyRenders++;
  const lines: Line[] = [];
  const sender = sanitizeInline(m.sender_full_name);
  const marks = [m.last_edit_timestamp ? "edited" : "", m.last_moved_timestamp ? "moved" : ""].filter(Boolean).join(", ");
  const suffix = `${starred ? ` ${glyphs().star}` : ""}${marks ? ` (${marks})` : ""}`;
  const mentioned = mentionsMe(m);
  if (action !== undefined) {
    lines.push({ text: `* ${sender} ${sanitizeInline(action)}  ${time}${suffix}`, style: "sender", mentioned });
  } else {
    if (showSender) lines.push({ text: `${sender}  ${time}${suffix}`, style: "sender", mentioned });
    if (widget) {
      lines.push(...widgetLines(widget, Math.max(10, o.width - 2), store.selfId, (id) => store.userName(id)));
    } else {
      const body = renderMarkdown(condensed?.text ?? m.content, spoilersOpen ? { ...ctx, openSpoilers: true } : ctx, Math.max(10, o.width - 2));
      for (const l of body.split("\n")) lines.push({ text: l, style: "body", ansi: o.color });
      if (condensed) lines.push({ text: `… ${condensed.hidden.toLocaleString("en-US")} more characters · ${o.expandKey ?? EXPAND_KEY} shows all`, style: "note" });
      if (images) lines.push(...images.lines);
    }
    if (!showSender && suffix) lines.push({ text: suffix.trim(), style: "note" });
  }
  if (m.reactions.length) lines.push(...reactionLines(store, m, Math.max(10, o.width - 2)));
  if (lines[0]) lines[0] = { ...lines[0], lead: true };
  cache?.set(ctx, m.id, { ctx, sig, lines }, lines.reduce((n, l) => n + 64 + stringBytes(l.text), 96 + stringBytes(sig)));
  return lines;
}

/** The lines of message `m` given its predecessor (which decides the headers). */
export function layoutMessage(store: Store, m: Message, prev: Message | undefined, o: LayoutOptions, ctx: RenderContext): Block {
  const lines: Line[] = [];
  const mark = o.highlight?.(m);
  const newDay = !prev || !isSameDay(prev.timestamp, m.timestamp, o.timeZone);
  if (newDay) lines.push({ text: formatDay(m.timestamp, { timeZone: o.timeZone, now: o.now }), style: "day" });
  const newConversation = o.showRecipients && (!prev || newDay || !sameConversation(prev, m));
  if (newConversation) {
    const color = m.type === "stream" && m.stream_id !== undefined ? store.channels.get(m.stream_id)?.color : undefined;
    const label = recipientLabel(store, m);
    lines.push({ text: mark?.subject ? mark.subject(label) : label, style: "recipient", ...(color && { color }) });
  }
  const showSender =
    newConversation ||
    newDay ||
    !prev ||
    prev.sender_id !== m.sender_id ||
    m.timestamp - prev.timestamp > GROUP_GAP_SECONDS ||
    !sameConversation(prev, m);
  const own = messageLines(store, m, showSender, o, ctx);
  const body = mark?.body;
  // Highlights go on copies: the cached lines stay unmarked.
  lines.push(...(body ? own.map((l) => (l.style === "body" ? { ...l, text: body(l.text) } : l)) : own));
  return { id: m.id, lines };
}

/**
 * Picks the messages to lay out so that the selected one is visible: from
 * the selection back up to `height` lines above it, and forward to fill.
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
