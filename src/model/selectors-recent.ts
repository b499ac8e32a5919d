/**
 * The recent conversations view's rows: every topic of a subscribed channel
 * and every direct-message conversation, newest activity first, with who
 * took part, unread counts and muted/followed markers, filtered by channel,
 * by people, to unread ones, and by typed text. Rows are read from the
 * recent model's order (already sorted), stopping once the page is full.
 */
import { fold } from "../render/fold.js";
import * as loaded from "./loaded-messages.js";
import { dmParticipants, type Narrow } from "./narrow.js";
import type { Conversation } from "./recent.js";
import type { Store } from "./store.js";
import { VISIBILITY } from "./topics.js";

export interface RecentFilter {
  /** Only topics of this channel. */
  channelId?: number;
  /** Only conversations where all these people took part (senders of a topic, members of a direct-message conversation). */
  participants?: readonly number[];
  unreadOnly?: boolean;
  /** Typed text: matches the channel's name, the topic, or a participant's name (case and accents ignored). */
  text?: string;
  /** Muted topics and channels, and conversations with muted people, are left out unless this is set. */
  includeMuted?: boolean;
  /** Only topics or only direct messages. */
  only?: "topics" | "dms";
}

export interface RecentRow {
  key: string;
  kind: "topic" | "dm";
  /** What Enter opens. */
  narrow: Narrow;
  channelId?: number;
  channelName?: string;
  /** The channel's colour (subscriptions have one). */
  color?: string;
  topic?: string;
  /** The topic as shown ("general chat" for the empty topic). */
  topicDisplay?: string;
  /** Who took part, most recent first: a topic's senders among loaded messages; a conversation's members. */
  participants: number[];
  unread: number;
  mentioned: boolean;
  muted: boolean;
  followed: boolean;
  /** Newest message id, and its time (seconds) when loaded. */
  maxId: number;
  timestamp?: number;
}

export interface RecentPage {
  rows: RecentRow[];
  /** More rows match beyond this page. */
  more: boolean;
}

/** The rows from `offset` on, at most `limit` of them. */
export function recentConversations(store: Store, filter: RecentFilter = {}, page: { offset?: number; limit?: number } = {}): RecentPage {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? Number.POSITIVE_INFINITY;
  const needle = filter.text ? fold(filter.text.trim()) : "";
  const mentions = store.unreads.mentions;
  const rows: RecentRow[] = [];
  let seen = 0;
  for (const c of store.recent.newestFirst()) {
    const row = rowOf(store, c, filter, needle, mentions);
    if (!row) continue;
    if (seen++ < offset) continue;
    if (rows.length >= limit) return { rows, more: true };
    rows.push(row);
  }
  return { rows, more: false };
}

function rowOf(store: Store, c: Conversation, f: RecentFilter, needle: string, mentions: Set<number>): RecentRow | undefined {
  if (c.kind === "topic") {
    if (f.only === "dms" || (f.channelId !== undefined && c.channelId !== f.channelId)) return undefined;
    const sub = store.channels.get(c.channelId);
    if (!sub) return undefined; // not subscribed: not in the view
    const muted = store.isTopicMuted(c.channelId, c.topic);
    if (muted && !f.includeMuted) return undefined;
    const unread = store.unreads.countInTopic(c.channelId, c.topic);
    if (f.unreadOnly && unread === 0) return undefined;
    if (f.participants?.some((id) => !loaded.wrote(c.messages, id))) return undefined;
    const participants = loaded.senders(c.messages);
    const topicDisplay = store.topicDisplayName(c.topic);
    if (needle && !fold(sub.name).includes(needle) && !fold(topicDisplay).includes(needle) && !namesMatch(store, participants, needle)) return undefined;
    return {
      key: c.key,
      kind: "topic",
      narrow: { kind: "topic", channelId: c.channelId, topic: c.topic },
      channelId: c.channelId,
      channelName: sub.name,
      color: sub.color,
      topic: c.topic,
      topicDisplay,
      participants,
      unread,
      mentioned: unread > 0 && store.unreads.idsInTopic(c.channelId, c.topic).some((id) => mentions.has(id)),
      muted,
      followed: store.topicPolicy(c.channelId, c.topic) === VISIBILITY.followed,
      maxId: c.maxId,
      ...(c.maxTimestamp !== undefined ? { timestamp: c.maxTimestamp } : {}),
    };
  }
  if (f.only === "topics" || f.channelId !== undefined) return undefined;
  const people = [...c.userIds];
  const muted = people.every((id) => store.mutedUsers.has(id)) && !(people.length === 1 && people[0] === store.selfId);
  if (muted && !f.includeMuted) return undefined;
  const unread = store.unreads.countInDm(people);
  if (f.unreadOnly && unread === 0) return undefined;
  const members = dmParticipants(people, store.selfId);
  if (f.participants?.some((id) => id !== store.selfId && !members.includes(id))) return undefined;
  if (needle && !namesMatch(store, people, needle)) return undefined;
  return {
    key: c.key,
    kind: "dm",
    narrow: { kind: "dm", userIds: people },
    participants: people,
    unread,
    mentioned: false,
    muted,
    followed: false,
    maxId: c.maxId,
    ...(c.maxTimestamp !== undefined ? { timestamp: c.maxTimestamp } : {}),
  };
}

function namesMatch(store: Store, userIds: readonly number[], needle: string): boolean {
  return userIds.some((id) => fold(store.userName(id)).includes(needle));
}

/**
 * Whether the filtered list is already complete without loading messages:
 * every unread conversation is known from the unread data (unless the server
 * left old ones out), and a channel's topics once its topic list is loaded.
 * Then the view needs no batches for it (see recent-loading.ts).
 */
export function recentFilterComplete(store: Store, f: RecentFilter): boolean {
  if (f.unreadOnly && !store.unreads.oldUnreadsMissing) return true;
  return f.channelId !== undefined && store.topicsLoaded.has(f.channelId);
}
