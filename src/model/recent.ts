/**
 * Recent conversations: every channel topic and direct-message conversation
 * the client knows of, ordered by last activity (the newest message id; ids
 * grow with time), with who took part.
 *
 * What it knows comes from everywhere the client learns of messages: the
 * register (recent direct-message conversations, unread messages), topic
 * lists fetched per channel, every fetched or live message, and the batches
 * the recent view loads for itself (see recent-loading.ts). Each message is
 * kept as a small entry (id, sender, time), not the message: the view needs
 * who spoke last and when, not what was said.
 *
 * Everything is incremental: a message, a move or a delete touches its
 * conversations and repositions them in the order (recency-order.ts: a push
 * for the usual "now the newest"), never a pass over all messages. A journal
 * lists the conversations that changed, for the jump finder's index.
 */
import type { Message, Topic } from "../api/schemas/common.js";
import { ChangeJournal } from "./change-journal.js";
import { dmParticipants, messageDmUsers, topicKey } from "./narrow.js";
import * as loaded from "./loaded-messages.js";
import { RecencyOrder } from "./recency-order.js";

export interface Conversation {
  /** `t:${channelId}:${topicKey}` or `d:${userIds}`. */
  readonly key: string;
  readonly kind: "topic" | "dm";
  /** Topics: the channel. */
  channelId: number;
  /** Topics: the name as its newest known message has it. */
  topic: string;
  /** Direct messages: the participants but me, sorted; [me] for notes to self. */
  readonly userIds: readonly number[];
  /** The newest message id known here (it may come from a topic list or the unread data, without the message). */
  maxId: number;
  /** When the newest message was sent (seconds), if it is loaded. */
  maxTimestamp: number | undefined;
  /** Loaded messages of this conversation (loaded-messages.ts): who wrote when, the newest ones. */
  readonly messages: loaded.LoadedMessages;
  /** Gone (deleted, moved away, channel deleted): readers of the journal drop it. */
  removed: boolean;
}

export function topicConversationKey(channelId: number, topic: string): string {
  return `t:${channelId}:${topicKey(topic)}`;
}

export function dmConversationKey(userIds: readonly number[]): string {
  return `d:${userIds.join(",")}`;
}

export class RecentConversations {
  private readonly byKey = new Map<string, Conversation>();
  /** By newest message id. */
  private readonly order = new RecencyOrder<Conversation>();
  /** Conversations added, moved in the order, renamed or removed. */
  readonly changes = new ChangeJournal<Conversation>();

  /**
   * `unreadMax` gives the newest unread message id of a conversation (or -1):
   * when its loaded messages go, the unread ones still say it is there.
   */
  constructor(
    private readonly selfId: number,
    private readonly unreadMax: (c: Conversation) => number = () => -1,
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): Conversation | undefined {
    return this.byKey.get(key);
  }

  topic(channelId: number, topic: string): Conversation | undefined {
    return this.byKey.get(topicConversationKey(channelId, topic));
  }

  dm(userIds: readonly number[]): Conversation | undefined {
    return this.byKey.get(dmConversationKey(dmParticipants(userIds, this.selfId)));
  }

  /** Newest first. */
  newestFirst(): IterableIterator<Conversation> {
    return this.order.descending();
  }

  /** Many changes at once (building from the register): the order is sorted once at the end. */
  batch(fill: () => void): void {
    this.order.batch(fill);
  }

  /** Every conversation, in no particular order (for readers that rebuild). */
  all(): IterableIterator<Conversation> {
    return this.byKey.values();
  }

  /** A fetched, live or recent-view message. */
  noteMessage(m: Message): void {
    const c = this.conversationOf(m);
    if (!c || loaded.has(c.messages, m.id)) return;
    this.addEntry(c, m.id, m.sender_id, m.timestamp);
    if (m.type === "stream" && m.id >= c.maxId && c.topic !== m.subject) {
      c.topic = m.subject; // named as its newest message has it (a change of case included)
      this.changes.note(c);
    }
  }

  /** A channel's topic list from the server: each topic's newest message id. */
  noteTopics(channelId: number, topics: readonly Topic[]): void {
    this.batch(() => {
      for (const t of topics) this.noteTopicMax(channelId, t.name, t.max_id);
    });
  }

  noteTopicMax(channelId: number, topic: string, maxId: number): void {
    const key = topicConversationKey(channelId, topic);
    const c = this.byKey.get(key);
    // A new one is made at its place (a start makes thousands: one move each, not two).
    if (!c) this.create(key, "topic", channelId, topic, [], maxId);
    else if (maxId > c.maxId) this.reposition(c, maxId, undefined);
  }

  /** A direct-message conversation and its newest message id (participants may include me). */
  noteDm(userIds: readonly number[], maxId: number): void {
    const people = dmParticipants(userIds, this.selfId);
    const key = dmConversationKey(people);
    const c = this.byKey.get(key);
    if (!c) this.create(key, "dm", -1, "", people, maxId);
    else if (maxId > c.maxId) this.reposition(c, maxId, undefined);
  }

  /**
   * Messages moved out of one topic, all into one place (`toTopic` undefined:
   * a move between channels keeping the topic). `emptied`: the whole topic
   * went (propagate mode change_all).
   */
  move(ids: ReadonlySet<number>, from: { channelId: number; topic: string }, to: { channelId: number; topic: string }, emptied: boolean): void {
    const source = this.topic(from.channelId, from.topic);
    const sameKey = topicConversationKey(from.channelId, from.topic) === topicConversationKey(to.channelId, to.topic);
    if (sameKey) {
      // A change of case only: the conversation stays, renamed.
      if (source && source.topic !== to.topic) {
        source.topic = to.topic;
        this.changes.note(source);
      }
      return;
    }
    const target = this.ensureTopic(to.channelId, to.topic);
    let maxMoved = -1;
    for (const id of ids) {
      if (id > maxMoved) maxMoved = id;
      const e = source ? loaded.remove(source.messages, id) : undefined;
      if (e) this.addEntry(target, id, e.sender, e.timestamp);
    }
    if (maxMoved > target.maxId) this.reposition(target, maxMoved, loaded.get(target.messages, maxMoved)?.timestamp);
    if (target.topic !== to.topic && maxMoved >= target.maxId) {
      target.topic = to.topic;
      this.changes.note(target);
    }
    if (!source) return;
    const left = loaded.count(source.messages);
    if (emptied && left === 0) this.drop(source);
    else if (ids.has(source.maxId) || left === 0) this.recompute(source);
  }

  /**
   * Messages deleted: from the topic `where` names (the event says it for
   * channel messages), else from direct-message conversations (looked through:
   * there are few of them and deletes are rare).
   */
  remove(ids: Iterable<number>, where?: { channelId: number; topic: string }): void {
    const gone = new Set(ids);
    const named = where ? this.topic(where.channelId, where.topic) : undefined;
    const places = named ? [named] : where ? [] : [...this.byKey.values()].filter((c) => c.kind === "dm");
    for (const c of places) {
      for (const id of gone) loaded.remove(c.messages, id);
      if (gone.has(c.maxId)) this.recompute(c);
    }
  }

  /** A message marked unread again: its conversation exists at least up to it. */
  noteUnread(id: number, loc: { channelId: number; topic: string } | { userIds: readonly number[] }): void {
    if ("userIds" in loc) this.noteDm(loc.userIds, id);
    else this.noteTopicMax(loc.channelId, loc.topic, id);
  }

  dropChannel(channelId: number): void {
    for (const c of [...this.byKey.values()]) if (c.kind === "topic" && c.channelId === channelId) this.drop(c);
  }

  /** Consistency check for tests: the order, the index and each conversation's newest id. */
  recount(): string[] {
    const problems = this.order.check((c) => c.maxId).map((p) => `recent ${p}`);
    for (const c of this.order.descending()) {
      if (this.byKey.get(c.key) !== c || c.removed) problems.push(`recent: ${c.key} listed but not indexed`);
      if (!loaded.isSorted(c.messages)) problems.push(`recent: ${c.key} holds messages out of order`);
      if (loaded.newest(c.messages) > c.maxId) problems.push(`recent: ${c.key} holds ${loaded.newest(c.messages)} above its newest ${c.maxId}`);
    }
    if (this.order.size !== this.byKey.size) problems.push(`recent: ${this.order.size} ordered, ${this.byKey.size} indexed`);
    return problems;
  }

  private conversationOf(m: Message): Conversation | undefined {
    if (m.type === "stream") {
      const channelId = m.stream_id;
      if (channelId === undefined) return undefined;
      return this.ensureTopic(channelId, m.subject);
    }
    const people = dmParticipants(messageDmUsers(m), this.selfId);
    return this.ensureDm(people);
  }

  private ensureTopic(channelId: number, topic: string): Conversation {
    const key = topicConversationKey(channelId, topic);
    return this.byKey.get(key) ?? this.create(key, "topic", channelId, topic, []);
  }

  private ensureDm(people: readonly number[]): Conversation {
    const key = dmConversationKey(people);
    return this.byKey.get(key) ?? this.create(key, "dm", -1, "", people);
  }

  /** A new conversation, at `maxId` when one is known (-1: none yet). */
  private create(key: string, kind: Conversation["kind"], channelId: number, topic: string, userIds: readonly number[], maxId = -1): Conversation {
    const c: Conversation = { key, kind, channelId, topic, userIds, maxId: maxId > -1 ? maxId : -1, maxTimestamp: undefined, messages: [], removed: false };
    this.byKey.set(key, c);
    this.order.set(c, c.maxId);
    this.changes.note(c);
    return c;
  }

  private addEntry(c: Conversation, id: number, sender: number, timestamp: number): void {
    loaded.add(c.messages, id, sender, timestamp);
    if (id > c.maxId) this.reposition(c, id, timestamp);
    else if (id === c.maxId) c.maxTimestamp = timestamp;
  }

  /** The newest message went: the newest loaded one (or unread one) takes its place; with none, the conversation goes. */
  private recompute(c: Conversation): void {
    const maxId = Math.max(loaded.newest(c.messages), this.unreadMax(c));
    if (maxId < 0) {
      this.drop(c);
      return;
    }
    c.maxId = maxId;
    c.maxTimestamp = loaded.get(c.messages, maxId)?.timestamp;
    this.order.set(c, maxId);
    this.changes.note(c);
  }

  private reposition(c: Conversation, maxId: number, timestamp: number | undefined): void {
    c.maxId = maxId;
    c.maxTimestamp = timestamp;
    this.order.set(c, maxId);
    this.changes.note(c);
  }

  private drop(c: Conversation): void {
    this.order.delete(c);
    this.byKey.delete(c.key);
    c.removed = true;
    this.changes.note(c);
  }
}
