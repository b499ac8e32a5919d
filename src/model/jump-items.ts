/**
 * The entries of the jump finder and how they are made from the store: one
 * per view, channel, topic, person and direct-message conversation, each
 * with its name folded once for matching (fold.ts) and the facts ranking
 * reads on every keystroke (last activity, unread) kept beside it.
 */
import { fold } from "../render/fold.js";
import { sanitize } from "../render/sanitize.js";
import { VISIBILITY } from "./topics.js";
import type { Conversation } from "./recent.js";
import type { Store } from "./store.js";

export type JumpTarget =
  | { kind: "view"; id: string }
  | { kind: "channel"; channelId: number }
  | { kind: "topic"; channelId: number; topic: string }
  | { kind: "user"; userId: number }
  | { kind: "dm"; userIds: readonly number[] };

/** Kinds as small numbers; on equal matches, lower comes first. */
export const KIND = { view: 0, channel: 1, topic: 2, dm: 3, user: 4 } as const;

export interface JumpView {
  id: string;
  label: string;
}

/** The built-in views a person can jump to (ids as in selectors-views.ts, plus the recent conversations view). */
export const DEFAULT_JUMP_VIEWS: readonly JumpView[] = [
  { id: "inbox", label: "Inbox" },
  { id: "recent", label: "Recent conversations" },
  { id: "feed", label: "Combined feed" },
  { id: "dms", label: "Direct messages" },
  { id: "mentions", label: "Mentions" },
  { id: "starred", label: "Starred messages" },
  { id: "followed", label: "Followed topics" },
];

export interface JumpItem {
  key: string;
  kind: number;
  target: JumpTarget;
  /** What the row shows, cleaned of control characters, whitespace collapsed. */
  label: string;
  /** The label folded: what the query is matched against. */
  norm: string;
  /** Topics: the index of their channel's item (for "channel>topic" queries); -1 otherwise. */
  channelItem: number;
  /** Newest message id of the conversation (channels: of any of their topics; people: of the one-to-one conversation); -1 unknown. */
  recency: number;
  /** 1 when there are unread messages that count (not muted). */
  unread: number;
  /** Channels: subscribed; people: active; others: 1. Ranks above the rest on equal terms. */
  primary: number;
  alive: boolean;
}

export function cleanLabel(s: string): string {
  return sanitize(s).replace(/\s+/g, " ").trim();
}

export function channelKey(channelId: number): string {
  return `c:${channelId}`;
}

export function userKey(userId: number): string {
  return `u:${userId}`;
}

export function viewKey(id: string): string {
  return `v:${id}`;
}

function item(key: string, kind: number, target: JumpTarget, label: string, primary = 1): JumpItem {
  const clean = cleanLabel(label);
  return { key, kind, target, label: clean, norm: fold(clean), channelItem: -1, recency: -1, unread: 0, primary, alive: true };
}

export function viewItem(v: JumpView): JumpItem {
  return item(viewKey(v.id), KIND.view, { kind: "view", id: v.id }, v.label);
}

export function channelItem(store: Store, channelId: number): JumpItem | undefined {
  const c = store.channel(channelId);
  if (!c) return undefined;
  return item(channelKey(channelId), KIND.channel, { kind: "channel", channelId }, c.name, store.isSubscribed(channelId) ? 1 : 0);
}

export function userItem(store: Store, userId: number): JumpItem | undefined {
  const u = store.users.get(userId);
  if (!u || !u.is_active) return undefined;
  return item(userKey(userId), KIND.user, { kind: "user", userId }, u.full_name, u.is_bot ? 0 : 1);
}

/** A DM conversation is named by its people ("Ana, Ben"); notes to self by my own name. */
export function dmLabel(store: Store, userIds: readonly number[]): string {
  return userIds.map((id) => store.userName(id)).join(", ");
}

export function conversationItem(store: Store, c: Conversation): JumpItem {
  if (c.kind === "dm") {
    const it = item(c.key, KIND.dm, { kind: "dm", userIds: c.userIds }, dmLabel(store, c.userIds));
    it.recency = c.maxId;
    return it;
  }
  const it = item(c.key, KIND.topic, { kind: "topic", channelId: c.channelId, topic: c.topic }, store.topicDisplayName(c.topic), store.isSubscribed(c.channelId) ? 1 : 0);
  it.recency = c.maxId;
  return it;
}

/**
 * Which entries have unread messages that count, by key: topics that are not
 * muted, channels with such topics (and not muted themselves), conversations,
 * and the people of one-to-one conversations with unread messages.
 */
export function unreadKeys(store: Store, keyOfTopic: (channelId: number, topic: string) => string, keyOfDm: (userIds: readonly number[]) => string): string[] {
  const out: string[] = [];
  const u = store.unreads;
  for (const channelId of u.channelIds()) {
    let any = false;
    for (const b of u.topicBuckets(channelId)) {
      if (store.isTopicMuted(channelId, b.topic)) continue;
      out.push(keyOfTopic(channelId, b.topic));
      any = true;
    }
    if (any && !store.isChannelMuted(channelId)) out.push(channelKey(channelId));
  }
  for (const b of u.dmBuckets()) {
    out.push(keyOfDm(b.userIds));
    if (b.userIds.length === 1) out.push(userKey(b.userIds[0] as number));
  }
  return out;
}

/** Facts a result row shows that ranking does not need: counts and markers, read when the row is made. */
export function rowFacts(store: Store, t: JumpTarget): { unread: number; muted: boolean; followed: boolean } {
  switch (t.kind) {
    case "topic": {
      const policy = store.topicPolicy(t.channelId, t.topic);
      return { unread: store.unreads.countInTopic(t.channelId, t.topic), muted: store.isTopicMuted(t.channelId, t.topic), followed: policy === VISIBILITY.followed };
    }
    case "channel":
      return { unread: store.unreads.countInChannel(t.channelId, (topic) => store.isTopicMuted(t.channelId, topic)), muted: store.isChannelMuted(t.channelId), followed: false };
    case "dm":
      return { unread: store.unreads.countInDm([...t.userIds]), muted: t.userIds.every((id) => store.mutedUsers.has(id)), followed: false };
    case "user":
      return { unread: store.unreads.countInDm([t.userId]), muted: store.mutedUsers.has(t.userId), followed: false };
    case "view":
      return { unread: 0, muted: false, followed: false };
  }
}
