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
 * conversations and repositions them in a sorted array (a binary search and
 * a splice), never a pass over all messages. A journal lists the
 * conversations that changed, for the jump finder's index.
 */
import type { Message, Topic } from "../api/schemas/common.js";
import { ChangeJournal } from "./change-journal.js";
import { dmParticipants, messageDmUsers, topicKey } from "./narrow.js";

interface Entry {
  id: number;
  sender: number;
  /** Seconds. */
  timestamp: number;
  conversation: Conversation;
}

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
  /** Loaded messages of this conversation by id. */
  readonly messages: Map<number, Entry>;
  /** Sender → their newest loaded message id here. */
  readonly senders: Map<number, number>;
  /** Gone (deleted, moved away, channel deleted): readers of the journal drop it. */
  removed: boolean;
}

export function topicConversationKey(channelId: number, topic: string): string {
  return `t:${channelId}:${topicKey(topic)}`;
}

export function dmConversationKey(userIds: readonly number[]): string {
  return `d:${userIds.join(",")}`;
}

/** Orders conversations by newest message, then key (so a position can be found again by binary search). */
function before(a: Conversation, maxId: number, key: string): boolean {
  return a.maxId < maxId || (a.maxId === maxId && a.key < key);
}

export class RecentConversations {
  private readonly byKey = new Map<string, Conversation>();
  /** Oldest activity first: the newest conversation is at the end, where most changes happen. */
  private readonly order: Conversation[] = [];
  /** Loaded message id → its entry. */
  private readonly entries = new Map<number, Entry>();
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
    return this.order.length;
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
  *newestFirst(): IterableIterator<Conversation> {
    for (let i = this.order.length - 1; i >= 0; i--) yield this.order[i] as Conversation;
  }

  /** Every conversation, in no particular order (for readers that rebuild). */
  all(): IterableIterator<Conversation> {
    return this.byKey.values();
  }

  /** A fetched, live or recent-view message. */
  noteMessage(m: Message): void {
    if (this.entries.has(m.id)) return;
    const c = this.conversationOf(m);
    if (!c) return;
    this.addEntry(c, m.id, m.sender_id, m.timestamp);
    if (m.type === "stream" && m.id >= c.maxId && c.topic !== m.subject) {
      c.topic = m.subject; // named as its newest message has it (a change of case included)
      this.changes.note(c);
    }
  }

  /** A channel's topic list from the server: each topic's newest message id. */
  noteTopics(channelId: number, topics: readonly Topic[]): void {
    for (const t of topics) this.noteTopicMax(channelId, t.name, t.max_id);
  }

  noteTopicMax(channelId: number, topic: string, maxId: number): void {
    const c = this.ensure(topicConversationKey(channelId, topic), () => ({ kind: "topic", channelId, topic, userIds: [] }));
    if (maxId > c.maxId) this.reposition(c, maxId, undefined);
  }

  /** A direct-message conversation and its newest message id (participants may include me). */
  noteDm(userIds: readonly number[], maxId: number): void {
    const people = dmParticipants(userIds, this.selfId);
    const c = this.ensure(dmConversationKey(people), () => ({ kind: "dm", channelId: -1, topic: "", userIds: people }));
    if (maxId > c.maxId) this.reposition(c, maxId, undefined);
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
    const target = this.ensure(topicConversationKey(to.channelId, to.topic), () => ({ kind: "topic", channelId: to.channelId, topic: to.topic, userIds: [] }));
    const touched = new Set<Conversation>();
    let maxMoved = -1;
    for (const id of ids) {
      if (id > maxMoved) maxMoved = id;
      const e = this.entries.get(id);
      if (!e) continue;
      touched.add(e.conversation);
      this.dropEntry(e);
      this.addEntry(target, id, e.sender, e.timestamp);
    }
    if (source) touched.add(source);
    if (maxMoved > target.maxId) this.reposition(target, maxMoved, this.entries.get(maxMoved)?.timestamp);
    if (target.topic !== to.topic && maxMoved >= target.maxId) {
      target.topic = to.topic;
      this.changes.note(target);
    }
    for (const c of touched) {
      if (c === target) continue;
      if (c === source && emptied && c.messages.size === 0) this.drop(c);
      else if (ids.has(c.maxId) || c.messages.size === 0) this.recompute(c);
    }
  }

  /** Messages deleted; `where` names the topic of unloaded ones when the event says it. */
  remove(ids: Iterable<number>, where?: { channelId: number; topic: string }): void {
    const touched = new Set<Conversation>();
    const gone = new Set(ids);
    const named = where ? this.topic(where.channelId, where.topic) : undefined;
    if (named) touched.add(named);
    for (const id of gone) {
      const e = this.entries.get(id);
      if (e) {
        touched.add(e.conversation);
        this.dropEntry(e);
      }
    }
    for (const c of touched) if (gone.has(c.maxId)) this.recompute(c);
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
    const problems: string[] = [];
    for (let i = 0; i < this.order.length; i++) {
      const c = this.order[i] as Conversation;
      const prev = this.order[i - 1];
      if (prev && !before(prev, c.maxId, c.key)) problems.push(`recent: ${c.key} out of order at ${i}`);
      if (this.byKey.get(c.key) !== c || c.removed) problems.push(`recent: ${c.key} listed but not indexed`);
      for (const [id, e] of c.messages) {
        if (id > c.maxId) problems.push(`recent: ${c.key} holds ${id} above its newest ${c.maxId}`);
        if (this.entries.get(id) !== e || e.conversation !== c) problems.push(`recent: entry ${id} misfiled`);
        if ((c.senders.get(e.sender) ?? -1) < id) problems.push(`recent: sender ${e.sender} of ${c.key} behind ${id}`);
      }
    }
    if (this.order.length !== this.byKey.size) problems.push(`recent: ${this.order.length} ordered, ${this.byKey.size} indexed`);
    return problems;
  }

  private conversationOf(m: Message): Conversation | undefined {
    if (m.type === "stream") {
      const channelId = m.stream_id;
      if (channelId === undefined) return undefined;
      return this.ensure(topicConversationKey(channelId, m.subject), () => ({ kind: "topic", channelId, topic: m.subject, userIds: [] }));
    }
    const people = dmParticipants(messageDmUsers(m), this.selfId);
    return this.ensure(dmConversationKey(people), () => ({ kind: "dm", channelId: -1, topic: "", userIds: people }));
  }

  private ensure(key: string, make: () => Pick<Conversation, "kind" | "channelId" | "topic" | "userIds">): Conversation {
    let c = this.byKey.get(key);
    if (c) return c;
    c = { key, ...make(), maxId: -1, maxTimestamp: undefined, messages: new Map(), senders: new Map(), removed: false };
    this.byKey.set(key, c);
    this.order.splice(this.lowerBound(c.maxId, key), 0, c);
    this.changes.note(c);
    return c;
  }

  private addEntry(c: Conversation, id: number, sender: number, timestamp: number): void {
    const e: Entry = { id, sender, timestamp, conversation: c };
    this.entries.set(id, e);
    c.messages.set(id, e);
    if ((c.senders.get(sender) ?? -1) < id) c.senders.set(sender, id);
    if (id > c.maxId) this.reposition(c, id, timestamp);
    else if (id === c.maxId) c.maxTimestamp = timestamp;
  }

  private dropEntry(e: Entry): void {
    const c = e.conversation;
    this.entries.delete(e.id);
    c.messages.delete(e.id);
    if (c.senders.get(e.sender) !== e.id) return;
    // The sender's newest message here went: find their next newest (rare: deletes and moves).
    let best = -1;
    for (const other of c.messages.values()) if (other.sender === e.sender && other.id > best) best = other.id;
    if (best < 0) c.senders.delete(e.sender);
    else c.senders.set(e.sender, best);
  }

  /** The newest message went: the newest loaded one (or unread one) takes its place; with none, the conversation goes. */
  private recompute(c: Conversation): void {
    let best: Entry | undefined;
    for (const e of c.messages.values()) if (!best || e.id > best.id) best = e;
    const unread = this.unreadMax(c);
    const maxId = Math.max(best?.id ?? -1, unread);
    if (maxId < 0) {
      this.drop(c);
      return;
    }
    this.unlist(c);
    c.maxId = maxId;
    c.maxTimestamp = best && best.id === maxId ? best.timestamp : undefined;
    this.order.splice(this.lowerBound(c.maxId, c.key), 0, c);
    this.changes.note(c);
  }

  private reposition(c: Conversation, maxId: number, timestamp: number | undefined): void {
    this.unlist(c);
    c.maxId = maxId;
    c.maxTimestamp = timestamp;
    const last = this.order[this.order.length - 1];
    if (!last || before(last, maxId, c.key)) this.order.push(c);
    else this.order.splice(this.lowerBound(maxId, c.key), 0, c);
    this.changes.note(c);
  }

  private drop(c: Conversation): void {
    this.unlist(c);
    this.byKey.delete(c.key);
    for (const id of c.messages.keys()) this.entries.delete(id);
    c.removed = true;
    this.changes.note(c);
  }

  private unlist(c: Conversation): void {
    const i = this.lowerBound(c.maxId, c.key);
    if (this.order[i] === c) this.order.splice(i, 1);
  }

  /** First position not before (maxId, key). */
  private lowerBound(maxId: number, key: string): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(this.order[mid] as Conversation, maxId, key)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
