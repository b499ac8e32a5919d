/** What the views ask of the store, as plain rows. */
import type { Message } from "../api/schemas/common.js";
import { narrowKey, topicKey, type Narrow } from "./narrow.js";
import { RESOLVED_PREFIX } from "./apply-messages.js";
import type { Store } from "./store.js";
import { compareNames } from "./name-order.js";

export interface ChannelRow {
  channelId: number;
  name: string;
  color: string;
  pinned: boolean;
  muted: boolean;
  unread: number;
  private: boolean;
  webPublic: boolean;
  archived: boolean;
  folderId: number | null;
}

/** Subscribed channels: pinned first, then by name. */
export function channelRows(store: Store): ChannelRow[] {
  const rows: ChannelRow[] = [];
  for (const s of store.channels.values()) {
    rows.push({
      channelId: s.stream_id,
      name: s.name,
      color: s.color,
      pinned: s.pin_to_top,
      muted: s.is_muted ?? false,
      // A channel with no topic policy has no muted topic: its whole count, without asking topic by topic.
      unread: store.topicsModel.hasPolicyIn(s.stream_id) ? store.unreads.countInChannel(s.stream_id, (t) => store.topicPolicy(s.stream_id, t) === 1) : store.unreads.countInChannel(s.stream_id),
      private: s.invite_only,
      webPublic: s.is_web_public,
      archived: s.is_archived,
      folderId: s.folder_id ?? null,
    });
  }
  return rows.sort((a, b) => Number(b.pinned) - Number(a.pinned) || compareNames(a.name, b.name));
}

export interface TopicRow {
  channelId: number;
  topic: string;
  displayName: string;
  unread: number;
  maxId: number;
  resolved: boolean;
  muted: boolean;
  followed: boolean;
}

const RESOLVED = RESOLVED_PREFIX;

/** Topics of a channel, most recent first, including unread topics not fetched yet. */
export function topicRows(store: Store, channelId: number): TopicRow[] {
  const seen = new Map<string, { name: string; maxId: number }>();
  for (const t of store.topicsOf(channelId)) seen.set(topicKey(t.name), t);
  for (const u of store.unreads.topicsIn(channelId)) {
    const k = topicKey(u.topic);
    const have = seen.get(k);
    if (!have) seen.set(k, { name: u.topic, maxId: u.maxId });
    else if (have.maxId < u.maxId) have.maxId = u.maxId;
  }
  return [...seen.values()]
    .sort((a, b) => b.maxId - a.maxId)
    .map((t) => ({
      channelId,
      topic: t.name,
      displayName: store.topicDisplayName(t.name),
      unread: store.unreads.countInTopic(channelId, t.name),
      maxId: t.maxId,
      resolved: t.name.startsWith(RESOLVED),
      muted: store.topicPolicy(channelId, t.name) === 1,
      followed: store.topicPolicy(channelId, t.name) === 3,
    }));
}

/** Unread messages counted in the combined feed (muted channels and topics left out), plus DMs. */
export function feedUnreadCount(store: Store): number {
  let n = store.unreads.dmCount();
  for (const channelId of store.unreads.channelIds()) {
    if (!store.isSubscribed(channelId)) continue;
    // With no topic policy in the channel, its topics count as the channel does (muted or not).
    if (!store.topicsModel.hasPolicyIn(channelId)) n += store.isChannelMuted(channelId) ? 0 : store.unreads.countInChannel(channelId);
    else n += store.unreads.countInChannel(channelId, (t) => !store.countsInFeed(channelId, t));
  }
  return n;
}

export interface DmRow {
  userIds: number[];
  names: string;
  unread: number;
  maxId: number;
}

export function dmRows(store: Store, limit = 20): DmRow[] {
  const rows = new Map<string, DmRow>();
  for (const c of store.recentDms.values()) rows.set(c.userIds.join(","), { userIds: c.userIds, names: "", unread: 0, maxId: c.maxId });
  for (const u of store.unreads.dmConversations()) {
    const key = u.userIds.join(",");
    const row = rows.get(key) ?? { userIds: u.userIds, names: "", unread: 0, maxId: u.maxId };
    row.unread = u.count;
    row.maxId = Math.max(row.maxId, u.maxId);
    rows.set(key, row);
  }
  // Names only for the rows shown: each may be a user's record checked on first use.
  const shown = [...rows.values()].sort((a, b) => b.maxId - a.maxId).slice(0, limit);
  for (const row of shown) row.names = row.userIds.map((id) => store.userName(id)).join(", ");
  return shown;
}

/** The loaded messages of a narrow, oldest first. */
export function narrowMessages(store: Store, narrow: Narrow): Message[] {
  const l = store.messages.lists.get(narrowKey(narrow));
  if (!l) return [];
  const out: Message[] = [];
  for (const id of l.ids) {
    const m = store.messages.byId.get(id);
    if (m) out.push(m);
  }
  return out;
}

/** A short title of a narrow for headers and the status line. */
export function narrowTitle(store: Store, n: Narrow): string {
  switch (n.kind) {
    case "feed":
      return "Combined feed";
    case "channel":
      return `#${store.channels.get(n.channelId)?.name ?? n.channelId}`;
    case "topic":
      return `#${store.channels.get(n.channelId)?.name ?? n.channelId} > ${store.topicDisplayName(n.topic)}`;
    case "dm":
      return n.userIds.map((id) => store.userName(id)).join(", ");
    case "all-dms":
      return "Direct messages";
    case "mentioned":
      return "Mentions";
    case "starred":
      return "Starred";
    case "search":
      return `Search: ${n.query}`;
  }
}
