/**
 * Unread messages, kept exact under events. Every unread message id lives in
 * exactly one bucket (a channel topic or a DM conversation); `where` maps an
 * id to its bucket so marking read, deleting and moving are O(1) per id.
 */
import type { UnreadMsgs } from "../api/schemas/register.js";
import { dmParticipants, topicKey } from "./narrow.js";

interface TopicBucket {
  kind: "topic";
  channelId: number;
  topic: string;
  ids: Set<number>;
}
interface DmBucket {
  kind: "dm";
  key: string;
  userIds: number[];
  ids: Set<number>;
}
type Bucket = TopicBucket | DmBucket;

export interface UnreadLocation {
  type: "stream" | "private";
  channelId?: number;
  topic?: string;
  /** All participants for DMs (self may or may not be included). */
  userIds?: number[];
}

export class Unreads {
  private readonly channels = new Map<number, Map<string, TopicBucket>>();
  private readonly dms = new Map<string, DmBucket>();
  private readonly where = new Map<number, Bucket>();
  readonly mentions = new Set<number>();
  /** True when the server did not send every old unread message. */
  oldUnreadsMissing = false;

  constructor(private readonly selfId: number) {}

  static fromRegister(data: UnreadMsgs | undefined, selfId: number): Unreads {
    const u = new Unreads(selfId);
    if (!data) return u;
    u.oldUnreadsMissing = data.old_unreads_missing;
    for (const s of data.streams) for (const id of s.unread_message_ids) u.add(id, { type: "stream", channelId: s.stream_id, topic: s.topic });
    for (const p of data.pms) {
      const other = p.other_user_id ?? p.sender_id;
      if (other === undefined) continue;
      for (const id of p.unread_message_ids) u.add(id, { type: "private", userIds: [other] });
    }
    for (const h of data.huddles) {
      const userIds = h.user_ids_string.split(",").map(Number).filter(Number.isFinite);
      for (const id of h.unread_message_ids) u.add(id, { type: "private", userIds });
    }
    for (const id of data.mentions) if (u.where.has(id)) u.mentions.add(id);
    return u;
  }

  has(id: number): boolean {
    return this.where.has(id);
  }

  get size(): number {
    return this.where.size;
  }

  add(id: number, loc: UnreadLocation, mentioned = false): void {
    if (this.where.has(id)) this.remove(id);
    const bucket = this.bucketFor(loc);
    if (!bucket) return;
    bucket.ids.add(id);
    this.where.set(id, bucket);
    if (mentioned) this.mentions.add(id);
  }

  /** Marks messages read (or deleted); returns how many were unread. */
  removeMany(ids: Iterable<number>): number {
    let n = 0;
    for (const id of ids) if (this.remove(id)) n++;
    return n;
  }

  remove(id: number): boolean {
    const bucket = this.where.get(id);
    this.mentions.delete(id);
    if (!bucket) return false;
    this.where.delete(id);
    bucket.ids.delete(id);
    if (bucket.ids.size === 0) this.dropBucket(bucket);
    return true;
  }

  clear(): void {
    this.channels.clear();
    this.dms.clear();
    this.where.clear();
    this.mentions.clear();
  }

  /** Messages moved to another channel/topic keep their unread state. */
  move(ids: Iterable<number>, channelId: number, topic: string): void {
    for (const id of ids) {
      const bucket = this.where.get(id);
      if (!bucket || bucket.kind !== "topic") continue;
      const mentioned = this.mentions.has(id);
      this.remove(id);
      this.add(id, { type: "stream", channelId, topic }, mentioned);
    }
  }

  setMentioned(id: number, on: boolean): void {
    if (on && this.where.has(id)) this.mentions.add(id);
    else if (!on) this.mentions.delete(id);
  }

  countInChannel(channelId: number, skipTopic?: (topic: string) => boolean): number {
    const topics = this.channels.get(channelId);
    if (!topics) return 0;
    let n = 0;
    for (const b of topics.values()) if (!skipTopic?.(b.topic)) n += b.ids.size;
    return n;
  }

  countInTopic(channelId: number, topic: string): number {
    return this.channels.get(channelId)?.get(topicKey(topic))?.ids.size ?? 0;
  }

  countInDm(userIds: number[]): number {
    return this.dms.get(userIds.join(","))?.ids.size ?? 0;
  }

  dmCount(): number {
    let n = 0;
    for (const b of this.dms.values()) n += b.ids.size;
    return n;
  }

  /** Unread topics of a channel: [topic as last seen, count]. */
  topicsIn(channelId: number): Array<{ topic: string; count: number; maxId: number }> {
    const topics = this.channels.get(channelId);
    if (!topics) return [];
    return [...topics.values()].map((b) => ({ topic: b.topic, count: b.ids.size, maxId: Math.max(...b.ids) }));
  }

  channelIds(): number[] {
    return [...this.channels.keys()];
  }

  dmConversations(): Array<{ userIds: number[]; count: number; maxId: number }> {
    return [...this.dms.values()].map((b) => ({ userIds: b.userIds, count: b.ids.size, maxId: Math.max(...b.ids) }));
  }

  idsInTopic(channelId: number, topic: string): number[] {
    return [...(this.channels.get(channelId)?.get(topicKey(topic))?.ids ?? [])];
  }

  idsInChannel(channelId: number): number[] {
    const out: number[] = [];
    for (const b of this.channels.get(channelId)?.values() ?? []) out.push(...b.ids);
    return out;
  }

  idsInDm(userIds: number[]): number[] {
    return [...(this.dms.get(userIds.join(","))?.ids ?? [])];
  }

  allIds(): number[] {
    return [...this.where.keys()];
  }

  private bucketFor(loc: UnreadLocation): Bucket | undefined {
    if (loc.type === "stream") {
      if (loc.channelId === undefined) return undefined;
      const topic = loc.topic ?? "";
      let topics = this.channels.get(loc.channelId);
      if (!topics) this.channels.set(loc.channelId, (topics = new Map()));
      const k = topicKey(topic);
      let b = topics.get(k);
      if (!b) topics.set(k, (b = { kind: "topic", channelId: loc.channelId, topic, ids: new Set() }));
      return b;
    }
    const userIds = dmParticipants(loc.userIds ?? [], this.selfId);
    const key = userIds.join(",");
    let b = this.dms.get(key);
    if (!b) this.dms.set(key, (b = { kind: "dm", key, userIds, ids: new Set() }));
    return b;
  }

  private dropBucket(b: Bucket): void {
    if (b.kind === "dm") {
      this.dms.delete(b.key);
      return;
    }
    const topics = this.channels.get(b.channelId);
    topics?.delete(topicKey(b.topic));
    if (topics && topics.size === 0) this.channels.delete(b.channelId);
  }
}
