// The register's sections drawn from a user's own messages (max_message_id, unread_msgs,
// starred_messages, recent_private_conversations), from one pass over them: on `large` the
// user has 100,000 messages, and a pass for each section took most of the register's time.

import type { ServerContext } from "./context.js";
import type { Flag, Message, User } from "./state.js";
import { clientTopic } from "./wire.js";

type Section = Record<string, unknown>;

/** The public service's cap on unread messages in the register response. */
export const MAX_UNREAD_MESSAGES = 50_000;
/** At most this many recent direct message conversations. */
const MAX_RECENT_CONVERSATIONS = 1000;

/** What one pass over a user's messages finds. */
export interface UserHistory {
  /** The newest message id the user has; -1 for none. */
  maxId: number;
  /** Unread messages (in subscribed channels, and direct messages), in id order. */
  unread: Array<{ m: Message; flags: Set<Flag> }>;
  /** Starred message ids, in id order. */
  starred: number[];
  /** Per direct message conversation (its other participants): its newest message. */
  conversations: Map<string, { max_message_id: number; user_ids: number[] }>;
}

export function userHistory(ctx: ServerContext, user: User): UserHistory {
  const { state } = ctx;
  const subscribed = state.subscriptions.get(user.id);
  let maxId = -1;
  const unread: UserHistory["unread"] = [];
  const starred: number[] = [];
  const conversations: UserHistory["conversations"] = new Map();
  // The organization's messages are in id order, and the user's are too but for the rare one
  // given a flag later: walked side by side, with a lookup by id only for those.
  const all = state.messages;
  let at = 0;
  for (const [id, flags] of state.userMessages.get(user.id) ?? []) {
    let m: Message | undefined;
    if (id > maxId) {
      maxId = id;
      while (at < all.length && all[at]!.id < id) at++;
      if (all[at]?.id === id) m = all[at];
    } else {
      m = state.messagesById.get(id);
    }
    if (flags.has("starred")) starred.push(id);
    if (!m) continue;
    if (m.type === "private") {
      const others = m.dmUserIds.filter((u) => u !== user.id);
      const key = others.join(",");
      const prev = conversations.get(key);
      if (!prev) conversations.set(key, { max_message_id: id, user_ids: others });
      else if (prev.max_message_id < id) prev.max_message_id = id;
    }
    if (flags.has("read")) continue;
    // Unread messages live only in subscribed channels.
    if (m.channelId !== null && !subscribed?.get(m.channelId)?.active) continue;
    unread.push({ m, flags });
  }
  // In the order the user received them, which is id order but for the rare message given a
  // flag later (a historical one starred): sorted only then.
  if (!ascending(unread, (u) => u.m.id)) unread.sort((a, b) => a.m.id - b.m.id);
  if (!ascending(starred, (id) => id)) starred.sort((a, b) => a - b);
  return { maxId, unread, starred, conversations };
}

function ascending<T>(xs: readonly T[], id: (x: T) => number): boolean {
  for (let i = 1; i < xs.length; i++) if (id(xs[i]!) <= id(xs[i - 1]!)) return false;
  return true;
}

/**
 * unread_msgs: like the public service, at most the newest MAX_UNREAD_MESSAGES unread messages
 * (in subscribed channels and DMs), and old_unreads_missing when capped.
 */
export function unreadMsgs(ctx: ServerContext, user: User, history: UserHistory, allowEmptyTopic: boolean): Section {
  const { state } = ctx;
  const subscribed = state.subscriptions.get(user.id);
  const policies = new Map<string, number>();
  for (const t of state.userTopics) {
    if (t.userId === user.id) policies.set(`${t.channelId}\u0000${t.topic.toLowerCase()}`, t.visibilityPolicy);
  }
  // Per channel, per topic (as spelled): the entry, and whether the topic is muted for the user.
  const topics = new Map<number, Map<string, { entry: { stream_id: number; topic: string; unread_message_ids: number[] }; muted: boolean }>>();
  const streams: Section[] = [];
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  let count = 0;
  const newest = history.unread.slice(-MAX_UNREAD_MESSAGES);
  for (const { m, flags } of newest) {
    let muted = false;
    if (m.type === "stream" && m.channelId !== null) {
      let byTopic = topics.get(m.channelId);
      if (!byTopic) topics.set(m.channelId, (byTopic = new Map()));
      let place = byTopic.get(m.topic);
      if (!place) {
        const policy = policies.get(`${m.channelId}\u0000${m.topic.toLowerCase()}`) ?? 0;
        const channelMuted = subscribed?.get(m.channelId)?.isMuted === true;
        place = {
          entry: { stream_id: m.channelId, topic: clientTopic(ctx, m.topic, allowEmptyTopic), unread_message_ids: [] },
          muted: policy === 1 || (channelMuted && policy !== 2 && policy !== 3),
        };
        byTopic.set(m.topic, place);
        streams.push(place.entry);
      }
      place.entry.unread_message_ids.push(m.id);
      muted = place.muted;
    } else if (m.dmUserIds.length <= 2) {
      const other = m.dmUserIds.find((u) => u !== user.id) ?? user.id;
      const list = pms.get(other);
      if (list) list.push(m.id);
      else pms.set(other, [m.id]);
    } else {
      const key = m.dmUserIds.join(",");
      const list = huddles.get(key);
      if (list) list.push(m.id);
      else huddles.set(key, [m.id]);
    }
    if (!muted) count++;
    if (flags.has("mentioned") || (flags.has("wildcard_mentioned") && !muted)) mentions.push(m.id);
  }
  return {
    count,
    pms: [...pms].map(([other, list]) => ({ other_user_id: other, sender_id: other, unread_message_ids: list })),
    streams,
    huddles: [...huddles].map(([key, list]) => ({ user_ids_string: key, unread_message_ids: list })),
    mentions,
    old_unreads_missing: newest.length >= MAX_UNREAD_MESSAGES,
  };
}

/** recent_private_conversations: the newest first, at most MAX_RECENT_CONVERSATIONS. */
export function recentConversations(history: UserHistory): Section[] {
  return [...history.conversations.values()]
    .sort((a, b) => b.max_message_id - a.max_message_id)
    .slice(0, MAX_RECENT_CONVERSATIONS)
    .map((c) => ({ max_message_id: c.max_message_id, user_ids: c.user_ids }));
}
