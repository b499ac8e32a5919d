/**
 * Selectors for the views around the message pane: the built-in views with
 * their counts, channel folders with their channels, the inbox (unread
 * conversations grouped by channel and DM), followed topics, and the user
 * list with presence and status. Pure functions over the store.
 */
import type { ChannelFolder } from "../api/schemas/common.js";
import { BUILT_IN_NAVIGATION_VIEWS } from "./navigation-views.js";
import type { PresenceStatus } from "./presence.js";
import { channelRows, feedUnreadCount, type ChannelRow } from "./selectors.js";
import { SPECTATOR_SELF_ID, type Store } from "./store.js";
import { VISIBILITY } from "./topics.js";
import { compareNames } from "./name-order.js";

/** The built-in views' ids (the UI's screen table, src/ui/screens.tsx, lists them with their labels and order). */
export type ViewId = "feed" | "inbox" | "dms" | "mentions" | "starred" | "followed" | "recent";

export interface ViewCount {
  unread: number;
  /** Starred: how many messages are starred (not an unread count). */
  total?: number;
}

/** The inbox and the combined feed count the same messages: one function, so that the sidebar counts them once. */
const feedCount = (store: Store): ViewCount => ({ unread: feedUnreadCount(store) });

/** Each built-in view's count, as the sidebar shows it. */
export const VIEW_COUNTS: Readonly<Record<ViewId, (store: Store) => ViewCount>> = {
  inbox: feedCount,
  feed: feedCount,
  dms: (store) => ({ unread: store.unreads.dmCount() }),
  mentions: (store) => ({ unread: store.mentionIds().length }),
  starred: (store) => ({ unread: starredUnread(store), total: store.messages.starred.size }),
  followed: (store) => ({ unread: followedTopics(store).reduce((n, t) => n + t.unread, 0) }),
  // Recent conversations say how many there are in their own header, not in the sidebar.
  recent: () => ({ unread: 0 }),
};

/**
 * The built-in views left out of the sidebar: all but the combined feed for a spectator (nothing
 * unread, no DMs, mentions, stars or follows), and those the user unpinned among the service's
 * navigation views (their keys still open them).
 */
export function hiddenViews(store: Store): ReadonlySet<string> {
  if (store.selfId === SPECTATOR_SELF_ID) return new Set<ViewId>(["inbox", "dms", "mentions", "starred", "followed", "recent"]);
  const unpinned = new Set<string>();
  for (const v of BUILT_IN_NAVIGATION_VIEWS) {
    const here = v.opens && "view" in v.opens ? v.opens.view : undefined;
    if (here && store.personal.navigationViews.get(v.fragment)?.is_pinned === false) unpinned.add(here);
  }
  return unpinned;
}

function starredUnread(store: Store): number {
  let n = 0;
  for (const id of store.messages.starred) if (store.unreads.has(id)) n++;
  return n;
}

export interface FolderSection {
  kind: "pinned" | "folder" | "other";
  folder?: ChannelFolder;
  label: string;
  channels: ChannelRow[];
  /** Unread messages in the section's unmuted channels (muted topics left out). */
  unread: number;
}

/**
 * Subscribed channels grouped for the sidebar: pinned channels first, then
 * each channel folder in its `order`, then the channels in no folder.
 * Archived folders show only while they still hold channels.
 */
export function folderSections(store: Store): FolderSection[] {
  const rows = channelRows(store);
  const byFolder = new Map<number, ChannelRow[]>();
  const pinned: ChannelRow[] = [];
  const other: ChannelRow[] = [];
  for (const r of rows) {
    if (r.pinned) pinned.push(r);
    else if (r.folderId !== null && store.folders.has(r.folderId)) {
      const list = byFolder.get(r.folderId) ?? [];
      list.push(r);
      byFolder.set(r.folderId, list);
    } else other.push(r);
  }
  const count = (channels: ChannelRow[]) => channels.reduce((n, c) => n + (c.muted ? 0 : c.unread), 0);
  const out: FolderSection[] = [];
  if (pinned.length) out.push({ kind: "pinned", label: "Pinned", channels: pinned, unread: count(pinned) });
  for (const f of store.channelsModel.foldersInOrder()) {
    const channels = byFolder.get(f.id) ?? [];
    if (f.is_archived && channels.length === 0) continue;
    out.push({ kind: "folder", folder: f, label: f.name, channels, unread: count(channels) });
  }
  if (other.length) out.push({ kind: "other", label: out.length ? "Other channels" : "Channels", channels: other, unread: count(other) });
  return out;
}

export interface InboxTopic {
  topic: string;
  displayName: string;
  unread: number;
  maxId: number;
  mentioned: boolean;
  followed: boolean;
}
export interface InboxChannel {
  channelId: number;
  name: string;
  color: string;
  pinned: boolean;
  unread: number;
  mentioned: boolean;
  topics: InboxTopic[];
}
export interface InboxDm {
  userIds: number[];
  names: string;
  unread: number;
  maxId: number;
  mentioned: boolean;
}
export interface Inbox {
  dms: InboxDm[];
  channels: InboxChannel[];
  total: number;
}

/**
 * Unread conversations: DMs newest first; subscribed channels (pinned first,
 * then by newest unread) with their topics newest first. Muted topics, topics
 * of muted channels (unless unmuted or followed) and unsubscribed channels
 * are left out, as in the combined feed.
 */
export function inbox(store: Store): Inbox {
  const mentioned = new Set(store.mentionIds());
  /** The newest id of a bucket and whether any of its messages mentions me, in one pass. */
  const scan = (ids: Iterable<number>) => {
    let maxId = -1;
    let mention = false;
    for (const id of ids) {
      if (id > maxId) maxId = id;
      if (!mention && mentioned.has(id)) mention = true;
    }
    return { maxId, mentioned: mention };
  };
  const dms: InboxDm[] = [];
  for (const b of store.unreads.dmBuckets()) {
    dms.push({
      userIds: b.userIds,
      names: b.userIds.map((id) => store.userName(id)).join(", "),
      unread: b.ids.length,
      ...scan(b.ids),
    });
  }
  dms.sort((a, b) => b.maxId - a.maxId);
  const channels: InboxChannel[] = [];
  for (const channelId of store.unreads.channelIds()) {
    const sub = store.channels.get(channelId);
    if (!sub) continue;
    const topics: InboxTopic[] = [];
    for (const b of store.unreads.topicBuckets(channelId)) {
      if (!store.countsInFeed(channelId, b.topic)) continue;
      topics.push({
        topic: b.topic,
        displayName: store.topicDisplayName(b.topic),
        unread: b.ids.length,
        ...scan(b.ids),
        followed: store.topicPolicy(channelId, b.topic) === VISIBILITY.followed,
      });
    }
    if (!topics.length) continue;
    topics.sort((a, b) => b.maxId - a.maxId);
    channels.push({
      channelId,
      name: sub.name,
      color: sub.color,
      pinned: sub.pin_to_top,
      unread: topics.reduce((n, t) => n + t.unread, 0),
      mentioned: topics.some((t) => t.mentioned),
      topics,
    });
  }
  const newest = (c: InboxChannel) => c.topics[0]?.maxId ?? 0;
  channels.sort((a, b) => Number(b.pinned) - Number(a.pinned) || newest(b) - newest(a));
  const total = dms.reduce((n, d) => n + d.unread, 0) + channels.reduce((n, c) => n + c.unread, 0);
  return { dms, channels, total };
}

export interface FollowedTopicRow {
  channelId: number;
  channelName: string;
  topic: string;
  displayName: string;
  unread: number;
  maxId: number;
}

/** Followed topics of subscribed channels, those with unreads first, then the most recent. */
export function followedTopics(store: Store): FollowedTopicRow[] {
  const rows: FollowedTopicRow[] = [];
  for (const { channelId, topic } of store.topicsModel.withPolicy(VISIBILITY.followed)) {
    const sub = store.channels.get(channelId);
    if (!sub) continue;
    const known = store.topicsModel.get(channelId, topic);
    rows.push({
      channelId,
      channelName: sub.name,
      topic: known?.name ?? topic,
      displayName: store.topicDisplayName(topic),
      unread: store.unreads.countInTopic(channelId, topic),
      // Its newest unread, not a spread of them all (a followed topic can hold more than a call takes arguments).
      maxId: Math.max(known?.maxId ?? -1, store.unreads.newestInTopic(channelId, topic)),
    });
  }
  return rows.sort((a, b) => Number(b.unread > 0) - Number(a.unread > 0) || b.maxId - a.maxId);
}

export interface UserRow {
  userId: number;
  name: string;
  presence: PresenceStatus;
  statusText: string;
  statusEmoji: string;
  away: boolean;
  isBot: boolean;
  isActive: boolean;
  isSelf: boolean;
}

const PRESENCE_ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };

/**
 * The user list: active users (bots only when asked, deactivated ones only
 * when asked), active first, then idle, then offline, each by name.
 */
export function userRows(store: Store, nowMs: number, o: { bots?: boolean; inactive?: boolean; filter?: string } = {}): UserRow[] {
  const needle = o.filter?.toLowerCase();
  const rows: UserRow[] = [];
  for (const u of store.users.values()) {
    if (u.is_bot && !o.bots) continue;
    if (!u.is_active && !o.inactive) continue;
    if (needle && !u.full_name.toLowerCase().includes(needle) && !u.email.toLowerCase().includes(needle)) continue;
    const s = store.people.statuses.get(u.user_id);
    rows.push({
      userId: u.user_id,
      name: u.full_name,
      presence: u.is_active ? store.presenceStatus(u.user_id, nowMs) : "offline",
      statusText: s?.text ?? "",
      statusEmoji: s?.emojiName ?? "",
      away: s?.away ?? false,
      isBot: u.is_bot,
      isActive: u.is_active,
      isSelf: u.user_id === store.selfId,
    });
  }
  return rows.sort((a, b) => PRESENCE_ORDER[a.presence] - PRESENCE_ORDER[b.presence] || compareNames(a.name, b.name));
}
