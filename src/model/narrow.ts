/**
 * Narrows: which messages a view shows. A tagged union with one canonical
 * string key, a local membership test, and one encoder for the wire.
 */
import type { Message, NarrowTerm } from "../api/schemas/common.js";

export type Narrow =
  | { kind: "feed" }
  | { kind: "channel"; channelId: number }
  | { kind: "topic"; channelId: number; topic: string }
  | { kind: "dm"; userIds: number[] } // the other participants, sorted; [self] for notes to self
  | { kind: "all-dms" }
  | { kind: "mentioned" }
  | { kind: "starred" }
  // `terms`: the parsed query (operators and full-text words); without it the whole query is full-text search.
  | { kind: "search"; query: string; terms?: NarrowTerm[] };

export const FEED: Narrow = { kind: "feed" };

/** Topics compare case-insensitively, as on the server. */
export function topicKey(topic: string): string {
  return topic.toLowerCase();
}

/** The canonical participant list of a DM conversation: everyone but me, sorted; just me for self-DMs. */
export function dmParticipants(userIds: Iterable<number>, selfId: number): number[] {
  // Without a Set, a spread or a callback but the sort's: a start files a thousand conversations
  // in code V8 has not optimized yet, where each of those costs more than the sorting.
  const others: number[] = [];
  if (Array.isArray(userIds)) {
    for (let i = 0; i < userIds.length; i++) if (userIds[i] !== selfId) others.push(userIds[i] as number);
  } else {
    for (const id of userIds) if (id !== selfId) others.push(id);
  }
  if (others.length === 0) return [selfId];
  if (others.length > 1) others.sort(byNumber);
  let kept = 1;
  for (let i = 1; i < others.length; i++) if (others[i] !== others[kept - 1]) others[kept++] = others[i] as number;
  others.length = kept;
  return others;
}

const byNumber = (a: number, b: number): number => a - b;

/** Where a message written to a channel's topic or to people shows: that topic, or that conversation. */
export function targetNarrow(t: { type: "stream"; channelId: number; topic: string } | { type: "direct"; userIds: number[] }): Narrow {
  return t.type === "stream" ? { kind: "topic", channelId: t.channelId, topic: t.topic } : { kind: "dm", userIds: t.userIds };
}

export function narrowKey(n: Narrow): string {
  switch (n.kind) {
    case "channel":
      return `channel:${n.channelId}`;
    case "topic":
      return `topic:${n.channelId}:${topicKey(n.topic)}`;
    case "dm":
      return `dm:${n.userIds.join(",")}`;
    case "search":
      return `search:${n.query}`;
    default:
      return n.kind;
  }
}

/** Participants of a DM message (self included), from display_recipient. */
export function messageDmUsers(m: Message): number[] {
  return Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : [];
}

export interface NarrowContext {
  selfId: number;
  /** Subscribed, and neither the channel (unless the topic is unmuted/followed) nor the topic muted. */
  isVisibleInFeed(channelId: number, topic: string): boolean;
  /** The topic itself is muted (its own visibility policy; the channel's muting aside). */
  isTopicMutedItself(channelId: number, topic: string): boolean;
}

/** Flags that put a message among the user's mentions. */
export const MENTION_FLAGS = ["mentioned", "wildcard_mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"] as const;
const WILDCARD_FLAGS: ReadonlySet<string> = new Set<string>(["wildcard_mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned"]);

/** "direct" for a personal or group mention, "wildcard" for @all-style mentions only, undefined for none. */
export function mentionKind(flags: readonly string[]): "direct" | "wildcard" | undefined {
  let wildcard = false;
  for (const f of flags) {
    if (f === "mentioned") return "direct";
    if (WILDCARD_FLAGS.has(f)) wildcard = true;
  }
  return wildcard ? "wildcard" : undefined;
}

/** The message a narrow is centred on: a search's `near:` or `id:` message (the view opens there). */
export function narrowAnchorId(n: Narrow): number | undefined {
  if (n.kind !== "search") return undefined;
  const t = n.terms?.find((x) => (x.operator === "near" || x.operator === "id") && !x.negated && typeof x.operand === "number");
  return t ? (t.operand as number) : undefined;
}

/**
 * Whether a message belongs in a narrow: true/false when that can be decided
 * locally, undefined when only the server can tell (search).
 *
 * Muting, as the service's apps apply it: the combined feed leaves out muted
 * topics, and muted channels but for their unmuted or followed topics (and
 * channels one is not subscribed to); a channel's view leaves out its muted
 * topics but for messages that mention the reader. A topic, a conversation
 * and the personal filters show everything.
 */
export function narrowContains(n: Narrow, m: Message, ctx: NarrowContext): boolean | undefined {
  switch (n.kind) {
    case "feed":
      if (m.type === "private") return true;
      if (m.stream_id === undefined) return false;
      return ctx.isVisibleInFeed(m.stream_id, m.subject);
    case "channel":
      if (m.type !== "stream" || m.stream_id !== n.channelId) return false;
      return !ctx.isTopicMutedItself(n.channelId, m.subject) || mentionKind(m.flags) !== undefined;
    case "topic":
      return m.type === "stream" && m.stream_id === n.channelId && topicKey(m.subject) === topicKey(n.topic);
    case "dm": {
      if (m.type !== "private") return false;
      const people = dmParticipants(messageDmUsers(m), ctx.selfId);
      return people.join(",") === n.userIds.join(",");
    }
    case "all-dms":
      return m.type === "private";
    case "mentioned":
      return mentionKind(m.flags) !== undefined;
    case "starred":
      return m.flags.includes("starred");
    case "search":
      return undefined;
  }
}

/**
 * The narrow as the server's operator/operand terms (modern names; legacy names for old servers).
 * The combined feed is `in:home`: the server leaves out muted channels and topics, as the feed does
 * (an empty narrow would bring them too, and place the first unread among them).
 */
export function narrowToApi(n: Narrow, featureLevel = 1000): NarrowTerm[] {
  const channel = featureLevel >= 250 ? "channel" : "stream";
  switch (n.kind) {
    case "feed":
      return [{ operator: "in", operand: "home" }];
    case "channel":
      return [{ operator: channel, operand: n.channelId }];
    case "topic":
      return [
        { operator: channel, operand: n.channelId },
        { operator: "topic", operand: n.topic },
      ];
    case "dm":
      return [{ operator: featureLevel >= 177 ? "dm" : "pm-with", operand: n.userIds }];
    case "all-dms":
      return [{ operator: "is", operand: featureLevel >= 177 ? "dm" : "private" }];
    case "mentioned":
      return [{ operator: "is", operand: "mentioned" }];
    case "starred":
      return [{ operator: "is", operand: "starred" }];
    case "search":
      return n.terms ? n.terms.map((t) => legacyTerm(t, featureLevel)) : [{ operator: "search", operand: n.query }];
  }
}

/** Operator names old servers know: `stream`(s) before feature level 250, `pm-with`/`group-pm-with` before 177. */
function legacyTerm(t: NarrowTerm, featureLevel: number): NarrowTerm {
  const renames: Record<string, string> =
    featureLevel >= 250 ? {} : featureLevel >= 177 ? { channel: "stream", channels: "streams" } : { channel: "stream", channels: "streams", dm: "pm-with", "dm-including": "group-pm-with" };
  const operator = renames[t.operator];
  return operator ? { ...t, operator } : t;
}
