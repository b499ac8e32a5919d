/**
 * The client's state for one account: built from a register response and
 * changed only by `apply(event)` and explicit local actions. Pure: no I/O,
 * no timers. Views subscribe and re-read through selectors.
 */
import type { ChannelFolder, Message, Subscription, Topic, User } from "../api/schemas/common.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import type { ServerEvent } from "../api/schemas/events.js";
import { Messages } from "./messages.js";
import { dmParticipants, messageDmUsers, narrowContains, topicKey, type Narrow, type NarrowContext } from "./narrow.js";
import { Unreads } from "./unreads.js";
import { applyEvent } from "./apply.js";

export const VISIBILITY = { none: 0, muted: 1, unmuted: 2, followed: 3 } as const;

export interface RealmInfo {
  name: string;
  url: string;
  featureLevel: number;
  emptyTopicName: string;
  maxTopicLength: number;
  maxMessageLength: number;
  longpollTimeoutSecs: number;
}

export interface TopicInfo {
  name: string;
  maxId: number;
}

export class Store implements NarrowContext {
  readonly selfId: number;
  readonly realm: RealmInfo;
  queueId: string | null;
  lastEventId: number;
  readonly users = new Map<number, User>();
  readonly channels = new Map<number, Subscription>();
  readonly folders = new Map<number, ChannelFolder>();
  /** `${channelId}:${topicKey}` → visibility policy. */
  readonly userTopics = new Map<string, number>();
  /** Per channel: topicKey → topic; present once fetched or seen. */
  readonly topics = new Map<number, Map<string, TopicInfo>>();
  readonly topicsLoaded = new Set<number>();
  /** DM conversation key (participants but me) → newest message id. */
  readonly recentDms = new Map<string, { userIds: number[]; maxId: number }>();
  readonly messages = new Messages();
  readonly unreads: Unreads;
  /** Increases on every change; views compare it to decide whether to re-render. */
  version = 0;
  private readonly listeners = new Set<() => void>();

  constructor(reg: RegisterResponse, selfIdHint?: number) {
    const selfId = reg.user_id ?? selfIdHint;
    if (selfId === undefined) throw new Error("register response has no user_id");
    this.selfId = selfId;
    this.queueId = reg.queue_id;
    this.lastEventId = reg.last_event_id;
    this.realm = {
      name: reg.realm_name,
      url: reg.realm_url ?? reg.realm_uri ?? "",
      featureLevel: reg.svc_feature_level,
      emptyTopicName: reg.realm_empty_topic_display_name,
      maxTopicLength: reg.max_topic_length,
      maxMessageLength: reg.max_message_length,
      longpollTimeoutSecs: reg.event_queue_longpoll_timeout_seconds ?? 90,
    };
    for (const u of reg.realm_users) this.users.set(u.user_id, u);
    for (const u of reg.realm_non_active_users) this.users.set(u.user_id, { ...u, is_active: false });
    for (const u of reg.cross_realm_bots) this.users.set(u.user_id, u);
    for (const s of reg.subscriptions) this.channels.set(s.stream_id, normalizeSubscription(s));
    for (const f of reg.channel_folders) this.folders.set(f.id, f);
    for (const t of reg.user_topics) this.userTopics.set(`${t.stream_id}:${topicKey(t.topic_name)}`, t.visibility_policy);
    for (const c of reg.recent_private_conversations) {
      const userIds = dmParticipants(c.user_ids, selfId);
      this.recentDms.set(userIds.join(","), { userIds, maxId: c.max_message_id });
    }
    this.unreads = Unreads.fromRegister(reg.unread_msgs, selfId);
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Records a change and tells the views. */
  changed(): void {
    this.version++;
    for (const fn of this.listeners) fn();
  }

  apply(event: ServerEvent): void {
    if (event.id > this.lastEventId) this.lastEventId = event.id;
    if (applyEvent(this, event)) this.changed();
  }

  applyAll(events: ServerEvent[]): void {
    let touched = false;
    for (const e of events) {
      if (e.id > this.lastEventId) this.lastEventId = e.id;
      touched = applyEvent(this, e) || touched;
    }
    if (touched) this.changed();
  }

  // --- questions the narrows and views ask -------------------------------

  isChannelMuted(channelId: number): boolean {
    return this.channels.get(channelId)?.is_muted ?? false;
  }

  topicPolicy(channelId: number, topic: string): number {
    return this.userTopics.get(`${channelId}:${topicKey(topic)}`) ?? VISIBILITY.none;
  }

  /** Muted topic, or any topic of a muted channel unless unmuted/followed. */
  isTopicMuted(channelId: number, topic: string): boolean {
    const policy = this.topicPolicy(channelId, topic);
    if (policy === VISIBILITY.muted) return true;
    if (policy === VISIBILITY.unmuted || policy === VISIBILITY.followed) return false;
    return false;
  }

  /** Whether a message counts toward the combined feed's unread total. */
  countsInFeed(channelId: number, topic: string): boolean {
    const policy = this.topicPolicy(channelId, topic);
    if (policy === VISIBILITY.muted) return false;
    if (this.isChannelMuted(channelId)) return policy === VISIBILITY.unmuted || policy === VISIBILITY.followed;
    return true;
  }

  topicDisplayName(topic: string): string {
    return topic === "" ? this.realm.emptyTopicName : topic;
  }

  userName(id: number): string {
    return this.users.get(id)?.full_name ?? `user ${id}`;
  }

  topicsOf(channelId: number): TopicInfo[] {
    return [...(this.topics.get(channelId)?.values() ?? [])].sort((a, b) => b.maxId - a.maxId);
  }

  // --- local actions ---------------------------------------------------

  setTopics(channelId: number, topics: Topic[]): void {
    const map = new Map<string, TopicInfo>();
    for (const t of topics) map.set(topicKey(t.name), { name: t.name, maxId: t.max_id });
    // Keep topics seen in events that the fetch may have raced with.
    for (const [k, t] of this.topics.get(channelId) ?? []) {
      const have = map.get(k);
      if (!have || have.maxId < t.maxId) map.set(k, t);
    }
    this.topics.set(channelId, map);
    this.topicsLoaded.add(channelId);
    this.changed();
  }

  addFetched(
    narrow: Narrow,
    messages: Message[],
    r: { foundOldest: boolean; foundNewest: boolean; direction: "older" | "newer" | "around" },
  ): void {
    this.messages.addFetched(narrow, messages, r);
    for (const m of messages) this.noteMessage(m);
    this.changed();
  }

  /** Marks a list as being fetched (or failed) so views can say so. */
  setListStatus(narrow: Narrow, status: "idle" | "fetching" | "error", error?: string): void {
    const l = this.messages.ensureList(narrow);
    l.status = status;
    l.error = error;
    this.changed();
  }

  /** Bookkeeping shared by fetched and live messages: topics and recent DMs. */
  noteMessage(m: Message): void {
    if (m.type === "stream" && m.stream_id !== undefined) {
      let topics = this.topics.get(m.stream_id);
      if (!topics) this.topics.set(m.stream_id, (topics = new Map()));
      const k = topicKey(m.subject);
      const t = topics.get(k);
      if (!t || t.maxId < m.id) topics.set(k, { name: m.subject, maxId: m.id });
    } else if (m.type === "private") {
      const userIds = dmParticipants(messageDmUsers(m), this.selfId);
      const key = userIds.join(",");
      const have = this.recentDms.get(key);
      if (!have || have.maxId < m.id) this.recentDms.set(key, { userIds, maxId: m.id });
    }
  }

  /** Puts a new message into every loaded list it belongs to (lists that reached the newest message). */
  insertLive(m: Message): void {
    this.messages.put(m);
    for (const l of this.messages.lists.values()) {
      if (!l.foundNewest) continue;
      if (narrowContains(l.narrow, m, this)) {
        const last = l.ids[l.ids.length - 1];
        if (last === undefined || last < m.id) l.ids.push(m.id);
        else if (!l.ids.includes(m.id)) l.ids = [...l.ids, m.id].sort((a, b) => a - b);
      }
    }
    this.noteMessage(m);
  }
}

/** Fills the muted flag from the legacy in_home_view when only that was sent. */
export function normalizeSubscription(s: Subscription): Subscription {
  if (s.is_muted === undefined) return { ...s, is_muted: s.in_home_view === undefined ? false : !s.in_home_view };
  return s;
}
