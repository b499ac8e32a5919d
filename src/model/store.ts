/**
 * The client's state for one account: built from a register response and
 * changed only by `apply(event)` and explicit local actions. Pure: no I/O,
 * no timers (the clock is injected and read only to stamp typing notices).
 * Views subscribe and re-read through selectors.
 *
 * The store is composed of sub-models, one per domain, built in dependency
 * order: users and groups → channels and folders → topics → messages and
 * unreads → presence, typing, personal data.
 */
import type { ChannelFolder, Message, Subscription, Topic, User } from "../api/schemas/common.js";
import type { LazyRecords } from "../api/schemas/lazy-records.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import type { ServerEvent } from "../api/schemas/events.js";
import { applyEvent } from "./apply.js";
import { locationOf } from "./apply-messages.js";
import { Channels } from "./channels.js";
import { MessageBudget } from "./message-budget.js";
import { Messages, type FetchDirection, type FetchStatus, type MessageList } from "./messages.js";
import { dmParticipants, mentionKind, messageDmUsers, narrowContains, type Narrow, type NarrowContext } from "./narrow.js";
import { Personal } from "./personal.js";
import { Presence, type PresenceStatus } from "./presence.js";
import type { RecentConversations } from "./recent.js";
import { recentFromRegister } from "./recent-store.js";
import { Scheduled } from "./scheduled.js";
import { realmFromRegister, type RealmInfo } from "./realm.js";
import { readRegisterExtra } from "./register-extra.js";
import { checkStore, firstUnreadIn } from "./store-queries.js";
import { Topics, VISIBILITY, type TopicInfo } from "./topics.js";
import { Typing, typingKey } from "./typing.js";
import { Unreads } from "./unreads.js";
import { USER_LOADING, Users } from "./users.js";
import { WidgetFolds } from "./widgets.js";

export { VISIBILITY, type TopicInfo } from "./topics.js";
export { normalizeSubscription } from "./channels.js";
export type { RealmInfo } from "./realm.js";

/**
 * Kinds of event that can change what a rendered message shows besides its own fields: people's
 * and channels' names (mentions, channel links), custom emoji, the organization's settings (the
 * empty topic's name) and the user's display settings (24-hour time).
 */
const NAMING_EVENTS: ReadonlySet<string> = new Set(["realm_user", "realm_bot", "stream", "subscription", "realm", "realm_emoji", "user_group", "user_settings", "update_display_settings"]);

/** The self id of a spectator's store (reading without an account): no user has it. */
export const SPECTATOR_SELF_ID = -1;

export interface StoreOptions {
  /** The user id when the register response lacks it. */
  selfIdHint?: number;
  /** Clock in ms, read only to stamp typing notices (tests inject one). */
  now?: () => number;
  /** The register carried no users: they come later (`usersArrived`); the user's own record meanwhile. */
  usersLater?: { self: User };
}

export class Store implements NarrowContext {
  readonly selfId: number;
  readonly realm: RealmInfo;
  queueId: string | null;
  lastEventId: number;
  readonly now: () => number;

  // Sub-models.
  readonly people: Users;
  readonly channelsModel: Channels;
  readonly topicsModel: Topics;
  readonly messages = new Messages();
  /** Keeps loaded messages within a byte budget (lists left long ago are dropped, refetched when shown). */
  readonly messageBudget = new MessageBudget(this.messages);
  /** Polls and to-do lists, folded from their messages' submessages (again only when those changed). */
  readonly widgets = new WidgetFolds();
  readonly unreads: Unreads;
  readonly presence: Presence;
  readonly typing: Typing;
  readonly personal: Personal;
  /** Scheduled messages and reminders. */
  readonly scheduled: Scheduled;

  // The sub-models' maps under their historical names.
  readonly users: Map<number, User>;
  /** Subscribed channels. Any known channel: `channel(id)`. */
  readonly channels: Map<number, Subscription>;
  readonly folders: Map<number, ChannelFolder>;
  /** `${channelId}:${topicKey}` → visibility policy. */
  readonly userTopics: Map<string, number>;
  /** Per channel: topicKey → topic; present once fetched or seen. */
  readonly topics: Map<number, Map<string, TopicInfo>>;
  readonly topicsLoaded: Set<number>;
  /** Every conversation known, by last activity (the recent conversations view, the jump finder). */
  readonly recent: RecentConversations;
  /** DM conversation key (participants but me) → newest message id. */
  readonly recentDms = new Map<string, { userIds: number[]; maxId: number }>();
  readonly mutedUsers = new Set<number>();
  alertWords: string[] = [];

  /** Increases on every change; views compare it to decide whether to re-render. */
  version = 0;
  /**
   * Increases whenever names a message's rendering resolves may have changed (a person or channel
   * renamed, custom emoji, display settings): rendered bodies are cached by it.
   */
  namesVersion = 0;
  private readonly listeners = new Set<() => void>();
  /**
   * Presence changes on its own channel: it moves every minute for someone in a big
   * organization, and only the views that show it (people, user cards) need to redraw.
   */
  presenceVersion = 0;
  private readonly presenceListeners = new Set<() => void>();

  constructor(reg: RegisterResponse, opts: StoreOptions | number = {}) {
    const o: StoreOptions = typeof opts === "number" ? { selfIdHint: opts } : opts;
    const selfId = reg.user_id ?? o.selfIdHint;
    if (selfId === undefined) throw new Error("register response has no user_id");
    this.selfId = selfId;
    this.now = o.now ?? Date.now;
    this.queueId = reg.queue_id;
    this.lastEventId = reg.last_event_id;
    const extra = readRegisterExtra(reg);
    this.realm = realmFromRegister(reg, extra);
    this.people = Users.fromRegister(reg, extra.userStatus);
    this.channelsModel = Channels.fromRegister(reg);
    this.topicsModel = Topics.fromRegister(reg.user_topics);
    this.unreads = Unreads.fromRegister(reg.unread_msgs, selfId);
    this.users = this.people.byId;
    if (o.usersLater) {
      this.people.complete = false;
      this.users.set(selfId, o.usersLater.self);
    }
    this.channels = this.channelsModel.subscribed;
    this.folders = this.channelsModel.folders;
    this.userTopics = this.topicsModel.policies;
    this.topics = this.topicsModel.byChannel;
    this.topicsLoaded = this.topicsModel.loaded;
    for (const id of extra.starredMessages) this.messages.starred.add(id);
    for (const id of extra.mutedUserIds) this.mutedUsers.add(id);
    this.presence = new Presence(this.realm.presenceOfflineThresholdSecs, this.realm.presencePingIntervalSecs);
    this.presence.lastUpdateId = reg.presence_last_update_id ?? -1;
    this.presence.merge(reg.presences, (email) => this.userIdByEmail(email));
    this.typing = new Typing(selfId, this.realm.typingExpiryMs);
    this.personal = Personal.fromRegister(reg);
    this.scheduled = Scheduled.fromRegister(reg);
    for (const c of reg.recent_private_conversations) {
      const userIds = dmParticipants(c.user_ids, selfId);
      this.recentDms.set(userIds.join(","), { userIds, maxId: c.max_message_id });
    }
    this.recent = recentFromRegister(this, reg);

  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  subscribePresence(fn: () => void): () => void {
    this.presenceListeners.add(fn);
    return () => this.presenceListeners.delete(fn);
  }

  /** Records a presence change and tells the views that show presence. */
  presenceChanged(): void {
    this.presenceVersion++;
    for (const fn of this.presenceListeners) fn();
  }

  /** Records a change and tells the views. */
  changed(): void {
    this.version++;
    for (const fn of this.listeners) fn();
  }

  apply(event: ServerEvent): void {
    if (event.id > this.lastEventId) this.lastEventId = event.id;
    const touched = applyEvent(this, event);
    if (touched && NAMING_EVENTS.has(event.type)) this.namesVersion++;
    if (touched) this.changed();
  }

  /** Applies a batch and tells the views once. */
  applyAll(events: ServerEvent[]): void {
    let touched = false;
    for (const e of events) {
      if (e.id > this.lastEventId) this.lastEventId = e.id;
      if (!applyEvent(this, e)) continue;
      touched = true;
      if (NAMING_EVENTS.has(e.type)) this.namesVersion++;
    }
    if (touched) this.changed();
  }

  // --- questions the narrows and views ask -------------------------------

  /** Any known channel (subscribed or not). */
  channel(channelId: number) {
    return this.channelsModel.get(channelId);
  }

  channelName(channelId: number): string | undefined {
    return this.channelsModel.name(channelId);
  }

  isSubscribed(channelId: number): boolean {
    return this.channelsModel.isSubscribed(channelId);
  }

  isChannelMuted(channelId: number): boolean {
    return this.channelsModel.isMuted(channelId);
  }

  topicPolicy(channelId: number, topic: string): number {
    return this.topicsModel.policy(channelId, topic);
  }

  isTopicMutedItself(channelId: number, topic: string): boolean {
    return this.topicPolicy(channelId, topic) === VISIBILITY.muted;
  }

  /** Muted topic, or any topic of a muted channel unless unmuted/followed. */
  isTopicMuted(channelId: number, topic: string): boolean {
    const policy = this.topicPolicy(channelId, topic);
    if (policy === VISIBILITY.muted) return true;
    if (policy === VISIBILITY.unmuted || policy === VISIBILITY.followed) return false;
    return this.isChannelMuted(channelId);
  }

  /** Whether a message in this topic counts toward the combined feed's unread total. */
  countsInFeed(channelId: number, topic: string): boolean {
    return !this.isTopicMuted(channelId, topic);
  }

  isVisibleInFeed(channelId: number, topic: string): boolean {
    return this.isSubscribed(channelId) && this.countsInFeed(channelId, topic);
  }

  topicDisplayName(topic: string): string {
    return topic === "" ? this.realm.emptyTopicName : topic;
  }

  /** A user's name; while the user list is still coming, an unknown user is said to be loading (never a wrong name). */
  userName(id: number): string {
    if (id === SPECTATOR_SELF_ID) return "spectator";
    return this.users.get(id)?.full_name ?? (this.people.complete ? `user ${id}` : USER_LOADING);
  }

  /** The whole user list arrived (after a register that carried none): names may read differently. */
  usersArrived(source: LazyRecords<User>): void {
    this.people.fill(source);
    this.namesVersion++;
    this.changed();
  }

  userIdByEmail(email: string): number | undefined {
    return this.people.idByEmail(email);
  }

  topicsOf(channelId: number): TopicInfo[] {
    return this.topicsModel.of(channelId);
  }

  /** Unread mentions that count (not those in unsubscribed channels, nor wildcard mentions in muted topics). */
  mentionIds(): number[] {
    return this.unreads.mentionIds(
      (c, t) => this.isTopicMuted(c, t),
      (c) => !this.isSubscribed(c),
    );
  }

  /** The oldest unread message of a narrow: from the unread model when it can tell, else from the loaded list. */
  firstUnreadIn(narrow: Narrow): number | undefined {
    return firstUnreadIn(this, narrow);
  }

  presenceStatus(userId: number, nowMs: number): PresenceStatus {
    return this.presence.status(userId, nowMs);
  }

  /** Users typing in a channel topic or a DM conversation. */
  typistsIn(where: { channelId: number; topic: string } | { userIds: number[] }): number[] {
    return this.typing.typists(typingKey(where, this.selfId));
  }

  /** The newest message known locally in a topic, leaving out `except`. */
  newestKnownIn(channelId: number, topic: string, except: Set<number>): Message | undefined {
    return this.messages.newestIn(channelId, topic, except);
  }

  /** Debug check for tests: recomputes counters and indexes from scratch; returns disagreements. */
  recount(): string[] {
    return checkStore(this);
  }

  // --- local actions ---------------------------------------------------

  setTopics(channelId: number, topics: Topic[]): void {
    this.topicsModel.set(channelId, topics);
    this.recent.noteTopics(channelId, topics);
    this.changed();
  }

  /** Starts a fetch of a narrow; undefined when one is running or there is nothing to fetch that way. */
  beginFetch(narrow: Narrow, direction: FetchDirection): number | undefined {
    const generation = this.messages.beginFetch(narrow, direction);
    if (generation !== undefined) this.changed();
    return generation;
  }

  addFetched(
    narrow: Narrow,
    messages: Message[],
    r: { foundOldest: boolean; foundNewest: boolean; direction: FetchDirection; generation?: number },
  ): MessageList | undefined {
    // Messages already known keep their live state (flags and reactions may have changed since the server answered).
    // The feed and channel views leave muted ones out even when the server sends them (see narrowContains).
    const fresh = messages.map((m) => this.messages.byId.get(m.id) ?? m).filter((m) => !hidesMuted(narrow) || narrowContains(narrow, m, this) !== false);
    const l = this.messages.addFetched(narrow, fresh, r);
    if (!l) return undefined;
    // Search highlights belong to this list (a message known before keeps its object, without them).
    for (const m of messages) {
      if (m.match_content !== undefined || m.match_subject !== undefined) (l.matches ??= new Map()).set(m.id, { content: m.match_content, subject: m.match_subject });
    }
    for (const m of messages) {
      if (this.messages.byId.get(m.id) !== m) continue;
      this.noteMessage(m);
      if (m.flags.includes("starred")) this.messages.starred.add(m.id);
      // Without the old unreads, a fetched message is the only news of them.
      if (this.unreads.oldUnreadsMissing && !m.flags.includes("read") && !this.unreads.has(m.id)) {
        this.unreads.add(m.id, locationOf(m), mentionKind(m.flags));
      }
      // The register does not say whether a mention is a wildcard one; the message's flags do.
      if (this.unreads.mentions.has(m.id)) this.unreads.setMention(m.id, mentionKind(m.flags) ?? "direct");
    }
    this.messageBudget.added(fresh, l.key);
    this.changed();
    return l;
  }

  /** The narrow now on screen: its list is kept whatever the budget says (a dropped list is fetched again). */
  showNarrow(narrow: Narrow): void {
    this.messages.show(narrow);
    this.messageBudget.added([]);
  }

  /** Marks a list as being fetched, waiting to retry, or failed, so views can say so. */
  setListStatus(narrow: Narrow, status: FetchStatus, error?: string): void {
    const l = this.messages.ensureList(narrow);
    l.status = status;
    l.error = error;
    if (status !== "fetching") l.fetching = undefined;
    this.changed();
  }

  /** Keys of loaded lists that need the server (`matches_narrow`) to say whether this message belongs. */
  narrowsNeedingServerCheck(messageId: number): string[] {
    return this.messages.narrowsNeedingServerCheck(messageId);
  }

  pendingServerChecks() {
    return this.messages.pendingServerChecks();
  }

  /** The server's answer to a `matches_narrow` check. */
  confirmNarrowMatch(narrowKey: string, messageId: number, match: boolean): void {
    if (this.messages.confirmNarrowMatch(narrowKey, messageId, match)) this.changed();
  }

  /** Presence data from `POST /users/me/presence` (modern or legacy format). */
  setPresences(presences: Record<string, unknown> | undefined, lastUpdateId?: number): void {
    const changed = this.presence.merge(presences, (email) => this.userIdByEmail(email));
    if (lastUpdateId !== undefined && lastUpdateId > this.presence.lastUpdateId) this.presence.lastUpdateId = lastUpdateId;
    if (changed) this.presenceChanged();
  }

  /** Drops typing notices older than the expiry period; the sync layer calls it at `nextTypingExpiry()`. */
  expireTyping(nowMs: number): boolean {
    const changed = this.typing.expire(nowMs);
    if (changed) this.changed();
    return changed;
  }

  nextTypingExpiry(): number | undefined {
    return this.typing.nextExpiry();
  }

  /** Bookkeeping shared by fetched and live messages: topics and recent DMs. */
  noteMessage(m: Message): void {
    this.recent.noteMessage(m);
    if (m.type === "stream" && m.stream_id !== undefined) {
      this.topicsModel.note(m.stream_id, m.subject, m.id);
    } else if (m.type === "private") {
      const userIds = dmParticipants(messageDmUsers(m), this.selfId);
      const key = userIds.join(",");
      const have = this.recentDms.get(key);
      if (!have) this.recentDms.set(key, { userIds, maxId: m.id });
      else if (have.maxId < m.id) have.maxId = m.id;
    }
  }

  /** Puts a new message into the map and every loaded list that reached the newest message. */
  insertLive(m: Message): void {
    this.messages.put(m);
    this.messages.placeLive(m, this);
    this.noteMessage(m);
    this.messageBudget.added([m]);
  }

  /** Feed and channel lists follow a change of what is muted: hidden messages leave; newly visible ones need a refetch. */
  refilterMuted(): void {
    for (const l of this.messages.lists.values()) {
      if (!hidesMuted(l.narrow)) continue;
      this.messages.filterList(l, (m) => narrowContains(l.narrow, m, this) !== false);
      l.stale = true;
    }
  }
}

/** Views whose content depends on what is muted. */
function hidesMuted(n: Narrow): boolean {
  return n.kind === "feed" || n.kind === "channel";
}
