// In-memory state of one organization: its records (records.ts, re-exported here) and the
// indexes and queries the routes need. Everything is plain data so that seeds (demo, large)
// can build it directly and route modules can read and change it.

import { removeMessage as removeMessageFrom } from "./message-index.js";
import type { NavigationView, PushDevice, SavedSnippet } from "./personal-records.js";
import { ScheduledMessages } from "./scheduled.js";
import { ROLE, type User, type Channel, type Subscription, type ChannelFolder, type UserGroup, type Message, type Flag, type UserTopic, type RealmInfo, type RealmEmoji, type Draft, type UserStatus, type Presence } from "./records.js";

export type { NavigationView, PushDevice, SavedSnippet } from "./personal-records.js";
export { ROLE, CHANNEL_GROUP_SETTINGS } from "./records.js";
export type { RoleNumber, GroupSetting, User, TopicsPolicy, Channel, ChannelGroupSettingName, Subscription, ChannelFolder, UserGroup, Reaction, EditHistoryEntry, Message, Flag, UserTopic, RealmInfo, RealmEmoji, Draft, UserStatus, Presence } from "./records.js";

export class State {
  realm: RealmInfo;
  readonly users = new Map<number, User>();
  private readonly usersByEmail = new Map<string, User>();
  readonly channels = new Map<number, Channel>();
  /** userId → channelId → subscription (including inactive = unsubscribed). */
  readonly subscriptions = new Map<number, Map<number, Subscription>>();
  readonly folders = new Map<number, ChannelFolder>();
  readonly groups = new Map<number, UserGroup>();
  readonly realmEmoji = new Map<string, RealmEmoji>();
  /** All messages, sorted by id. */
  readonly messages: Message[] = [];
  readonly messagesById = new Map<number, Message>();
  /** userId → messageId → flags: the user's personal message history. */
  readonly userMessages = new Map<number, Map<number, Set<Flag>>>();
  readonly userTopics: UserTopic[] = [];
  /** userId → settings object (wire names). */
  readonly userSettings = new Map<number, Record<string, unknown>>();
  readonly presence = new Map<number, Presence>();
  presenceLastUpdateId = 0;
  readonly drafts = new Map<number, Draft[]>();
  readonly userStatus = new Map<number, UserStatus>();
  /** userId → alert words (in the order added); userId → key → value of the user's storage. */
  readonly alertWords = new Map<number, string[]>();
  readonly botStorage = new Map<number, Map<string, string>>();
  /** Linkifiers in wire form ({id, pattern, url_template}). */
  readonly linkifiers: { id: number; pattern: string; url_template: string }[] = [];
  /** Channel ids new users are subscribed to. */
  readonly defaultChannelIds: number[] = [];
  private readonly dmRecipients = new Map<string, number>();
  private nextId = { message: 1, recipient: 1, channel: 1, user: 1, group: 1, folder: 1, draft: 1 };

  constructor(realm: RealmInfo) {
    this.realm = realm;
  }

  // ---- id allocation -------------------------------------------------------
  allocate(kind: keyof State["nextId"]): number {
    return this.nextId[kind]++;
  }

  /** Makes the next id of `kind` at least `min` (seeds that want round ids). */
  reserveIds(kind: keyof State["nextId"], min: number): void {
    this.nextId[kind] = Math.max(this.nextId[kind], min);
  }

  // ---- users ---------------------------------------------------------------
  addUser(user: User): User {
    this.users.set(user.id, user);
    this.usersByEmail.set(user.email.toLowerCase(), user);
    this.userMessages.set(user.id, new Map());
    this.subscriptions.set(user.id, new Map());
    return user;
  }

  userByEmail(email: string): User | undefined {
    return this.usersByEmail.get(email.trim().toLowerCase());
  }

  /** Active users only (for name lookups such as mentions). */
  userByFullName(name: string): User | undefined {
    const key = name.toLowerCase();
    for (const u of this.users.values()) if (u.isActive && u.fullName.toLowerCase() === key) return u;
    return undefined;
  }

  // ---- channels and subscriptions -----------------------------------------
  addChannel(channel: Channel): Channel {
    this.channels.set(channel.id, channel);
    return channel;
  }

  channelByName(name: string): Channel | undefined {
    const key = name.trim().toLowerCase();
    for (const c of this.channels.values()) if (c.name.toLowerCase() === key) return c;
    return undefined;
  }

  subscription(userId: number, channelId: number): Subscription | undefined {
    const sub = this.subscriptions.get(userId)?.get(channelId);
    return sub?.active ? sub : undefined;
  }

  /** The only writer of `subscriptions` and its index by channel: both hold the same object for a user and channel. */
  setSubscription(sub: Subscription): void {
    const mine = this.subscriptions.get(sub.userId);
    if (!mine) return;
    mine.set(sub.channelId, sub);
    let byUser = this.subscriptionsByChannel.get(sub.channelId);
    if (!byUser) this.subscriptionsByChannel.set(sub.channelId, (byUser = new Map()));
    byUser.set(sub.userId, sub);
  }

  /** Active subscribers (deactivated users excluded), sorted by id. */
  subscriberIds(channelId: number): number[] {
    const ids: number[] = [];
    for (const [userId, sub] of this.subscriptionsByChannel.get(channelId) ?? []) if (this.subscribes(userId, sub)) ids.push(userId);
    return ids.sort((a, b) => a - b);
  }

  /** How many subscriberIds there are, without listing them (every channel's count goes into each register). */
  subscriberCount(channelId: number): number {
    let n = 0;
    for (const [userId, sub] of this.subscriptionsByChannel.get(channelId) ?? []) if (this.subscribes(userId, sub)) n++;
    return n;
  }

  /** A subscription of the index counts while it is active (it may change in place) and its user is. */
  private subscribes(userId: number, sub: Subscription): boolean {
    return sub.active && this.users.get(userId)?.isActive === true;
  }

  /** Whether the user may see the channel's metadata and (public) history. */
  canAccessChannel(user: User, channel: Channel): boolean {
    if (this.subscription(user.id, channel.id)) return true;
    if (channel.inviteOnly) return false;
    return user.role !== ROLE.guest || channel.isWebPublic;
  }

  // ---- messages --------------------------------------------------------------
  dmRecipientId(userIds: number[]): number {
    const key = [...new Set(userIds)].sort((a, b) => a - b).join(",");
    let id = this.dmRecipients.get(key);
    if (id === undefined) {
      id = this.allocate("recipient");
      this.dmRecipients.set(key, id);
    }
    return id;
  }

  /** Appends a message (ids must increase) and gives each recipient its flags. */
  insertMessage(message: Message, recipients: Map<number, Set<Flag>>): void {
    const last = this.messages[this.messages.length - 1];
    if (last && last.id >= message.id) throw new Error(`message ids must increase (${message.id})`);
    this.messages.push(message);
    this.messagesById.set(message.id, message);
    for (const [userId, flags] of recipients) this.userMessages.get(userId)?.set(message.id, flags);
  }

  flags(userId: number, messageId: number): Set<Flag> | undefined {
    return this.userMessages.get(userId)?.get(messageId);
  }

  /**
   * Whether `user` may read `message`: it is in their history, or it sits in a
   * channel whose history they can read without having received it.
   */
  canReadMessage(user: User, message: Message): boolean {
    if (this.flags(user.id, message.id)) return true;
    if (message.type !== "stream" || message.channelId === null) return false;
    const channel = this.channels.get(message.channelId);
    if (!channel) return false;
    if (channel.inviteOnly) {
      return channel.historyPublicToSubscribers && this.subscription(user.id, channel.id) !== undefined;
    }
    return user.role !== ROLE.guest || channel.isWebPublic || this.subscription(user.id, channel.id) !== undefined;
  }

  /** Flags as the user sees them, including `historical` messages they never received. */
  viewFlags(userId: number, messageId: number): string[] {
    const flags = this.flags(userId, messageId);
    if (!flags) return ["read", "historical"];
    return [...flags].sort();
  }

  userTopicPolicy(userId: number, channelId: number, topic: string): number {
    const key = topic.toLowerCase();
    const entry = this.userTopics.find(
      (t) => t.userId === userId && t.channelId === channelId && t.topic.toLowerCase() === key,
    );
    return entry?.visibilityPolicy ?? 0;
  }

  // ---- per-user extras: saved snippets, navigation views, scheduled messages, push devices, presence ----
  readonly savedSnippets = new Map<number, SavedSnippet[]>();
  /** userId → the user's navigation views, oldest first. */
  readonly navigationViews = new Map<number, NavigationView[]>();
  /** Scheduled messages and reminders of every user. */
  readonly scheduled = new ScheduledMessages();
  readonly pushDevices = new Map<number, PushDevice[]>();
  /** userId → the presence_last_update_id of that user's latest presence change. */
  readonly presenceUpdateIds = new Map<number, number>();
  /** userId → name of the client that last reported the user's presence. */
  readonly presenceClients = new Map<number, string>();
  /** Deactivated users whose profile was deleted (`is_deleted`). */
  readonly deletedUserIds = new Set<number>();
  private readonly extraIds = new Map<string, number>();

  /** Ids for kinds without a counter above (saved snippets…). */
  allocateExtra(kind: string): number {
    const id = this.extraIds.get(kind) ?? 1;
    this.extraIds.set(kind, id + 1);
    return id;
  }

  // ---- subscription index (see message-index.ts for message bookkeeping) -----
  /** channelId → userId → subscription: the index behind subscriberIds (kept by setSubscription). */
  private readonly subscriptionsByChannel = new Map<number, Map<number, Subscription>>();

  /** Removes a message from the organization and from every user's history. */
  removeMessage(id: number): void {
    removeMessageFrom(this, id);
  }
}
