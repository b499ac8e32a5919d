/**
 * Unread messages, kept exact under events. Every unread message id lives in
 * exactly one bucket (a channel topic or a DM conversation); `where` maps an
 * id to its bucket. A bucket keeps its ids in a sorted array: the register
 * lists each conversation's ids in order, so a start files them with one copy
 * per bucket and one index entry per id, and a bucket's oldest and newest are
 * its ends. Marking read or deleting one id costs a search and a splice in
 * its bucket (one pass per bucket for many at once).
 * Per-channel and DM totals are counters kept up to date on every change;
 * `recount()` recomputes them from scratch (a debug check for tests).
 *
 * Unreads of channels the user is not subscribed to are kept (the server
 * keeps them too, and shows them again on resubscribing); the counting
 * selectors leave them out.
 */
import type { UnreadMsgs } from "../api/schemas/register.js";
import { dmParticipants, topicKey } from "./narrow.js";

export interface TopicBucket {
  kind: "topic";
  channelId: number;
  /** The topic as last seen (topics compare case-insensitively). */
  topic: string;
  /** Sorted ascending, no repeats. */
  ids: number[];
}
export interface DmBucket {
  kind: "dm";
  key: string;
  /** Participants but self, sorted; [self] for notes to self. */
  userIds: number[];
  /** Sorted ascending, no repeats. */
  ids: number[];
}
type Bucket = TopicBucket | DmBucket;

export interface UnreadLocation {
  type: "stream" | "private";
  channelId?: number;
  topic?: string;
  /** All participants for DMs (self may or may not be included). */
  userIds?: number[];
}

export type MentionKind = "direct" | "wildcard" | undefined;

export class Unreads {
  private readonly channels = new Map<number, Map<string, TopicBucket>>();
  private readonly channelCounts = new Map<number, number>();
  private readonly dms = new Map<string, DmBucket>();
  private dmTotal = 0;
  private readonly where = new Map<number, Bucket>();
  /** Unread messages that mention the user (personally, through a group, or by wildcard). */
  readonly mentions = new Set<number>();
  /** The subset of `mentions` that are wildcard-only: they do not count where the topic is muted. */
  readonly wildcardMentions = new Set<number>();
  /**
   * True when the server did not send every old unread message: an id that is
   * not here may still be unread (see `isUnread`).
   */
  oldUnreadsMissing = false;

  constructor(private readonly selfId: number) {}

  static fromRegister(data: UnreadMsgs | undefined, selfId: number): Unreads {
    const u = new Unreads(selfId);
    if (!data) return u;
    u.oldUnreadsMissing = data.old_unreads_missing;
    for (const s of data.streams) u.addAll(s.unread_message_ids, { type: "stream", channelId: s.stream_id, topic: s.topic });
    for (const p of data.pms) {
      const other = p.other_user_id ?? p.sender_id;
      if (other !== undefined) u.addAll(p.unread_message_ids, { type: "private", userIds: [other] });
    }
    for (const h of data.huddles) {
      u.addAll(h.unread_message_ids, { type: "private", userIds: h.user_ids_string.split(",").map(Number).filter(Number.isFinite) });
    }
    // The register does not say which mentions are wildcard ones; it leaves out those in muted places.
    for (const id of data.mentions) if (u.where.has(id)) u.mentions.add(id);
    return u;
  }

  has(id: number): boolean {
    return this.where.has(id);
  }

  /** true/false when known; undefined when the server may have left this old unread message out. */
  isUnread(id: number): boolean | undefined {
    if (this.where.has(id)) return true;
    return this.oldUnreadsMissing ? undefined : false;
  }

  get size(): number {
    return this.where.size;
  }

  add(id: number, loc: UnreadLocation, mentioned: boolean | MentionKind = false): void {
    if (this.where.has(id)) this.remove(id);
    const bucket = this.bucketFor(loc);
    if (!bucket) return;
    insertSorted(bucket.ids, id);
    this.where.set(id, bucket);
    this.bump(bucket, 1);
    this.setMention(id, mentioned === true ? "direct" : mentioned === false ? undefined : mentioned);
  }

  /**
   * Many messages unread at once (marked unread together), as `add` one after another would
   * leave them (an id given twice: its later place), each bucket rewritten once: one at a time,
   * each id put among a conversation's others would move those after it.
   */
  addMany(entries: Iterable<{ id: number; loc: UnreadLocation; mentioned: MentionKind }>): void {
    const last = new Map<number, { loc: UnreadLocation; mentioned: MentionKind }>();
    for (const e of entries) {
      if (last.has(e.id)) last.delete(e.id); // its later place, in its later order
      last.set(e.id, e);
    }
    // First out of the buckets they leave, those already unread elsewhere (so that no bucket
    // goes, emptied, after ids were put in it).
    const leaving: number[] = [];
    for (const [id, { loc }] of last) {
      const was = this.where.get(id);
      if (was && !this.holds(was, loc)) leaving.push(id);
    }
    if (leaving.length > 0) this.removeMany(leaving);
    const into = new Map<Bucket, number[]>();
    // Marked together, they are mostly of one conversation: its bucket is looked up once.
    let prev: { loc: UnreadLocation; bucket: Bucket | undefined } | undefined;
    for (const [id, { loc }] of last) {
      if (this.where.has(id)) continue; // unread there already
      if (!prev || !sameLocation(prev.loc, loc)) prev = { loc, bucket: this.bucketFor(loc) };
      const bucket = prev.bucket;
      if (!bucket) continue;
      let list = into.get(bucket);
      if (!list) into.set(bucket, (list = []));
      list.push(id);
      this.where.set(id, bucket);
    }
    for (const [bucket, list] of into) {
      bucket.ids = mergeSorted(bucket.ids, list.sort((a, b) => a - b));
      this.bump(bucket, list.length);
    }
    for (const [id, { mentioned }] of last) if (mentioned !== undefined || this.mentions.has(id)) this.setMention(id, mentioned);
  }

  /** Whether `bucket` is the one `loc` names. */
  private holds(bucket: Bucket, loc: UnreadLocation): boolean {
    if (loc.type === "stream") return bucket.kind === "topic" && bucket.channelId === loc.channelId && topicKey(bucket.topic) === topicKey(loc.topic ?? "");
    return bucket.kind === "dm" && bucket.key === dmParticipants(loc.userIds ?? [], this.selfId).join(",");
  }

  /** Unread messages of one conversation, without mentions (the register's lists: one lookup per conversation). */
  private addAll(ids: readonly number[], loc: UnreadLocation): void {
    const bucket = this.bucketFor(loc);
    if (!bucket) return;
    // The register's usual list: in order, for a conversation not listed before. Copied whole.
    const inOrder = bucket.ids.length === 0 && isIncreasing(ids);
    let added = 0;
    for (const id of ids) {
      const was = this.where.get(id);
      if (was === bucket) continue;
      if (was) this.remove(id); // listed twice: the later place wins, as with add
      if (!inOrder) insertSorted(bucket.ids, id);
      this.where.set(id, bucket);
      added++;
    }
    if (inOrder) bucket.ids = ids.slice();
    this.bump(bucket, added);
    if (bucket.ids.length === 0) this.dropBucket(bucket);
  }

  /** Marks messages read (or deleted); returns how many were unread. Each bucket touched is rewritten once. */
  removeMany(ids: Iterable<number>): number {
    const gone = new Map<Bucket, Set<number>>();
    for (const id of ids) {
      this.mentions.delete(id);
      this.wildcardMentions.delete(id);
      const bucket = this.where.get(id);
      if (!bucket) continue;
      this.where.delete(id);
      let set = gone.get(bucket);
      if (!set) gone.set(bucket, (set = new Set()));
      set.add(id);
    }
    let n = 0;
    for (const [bucket, set] of gone) {
      bucket.ids = set.size === bucket.ids.length ? [] : set.size === 1 ? withoutOne(bucket.ids, set) : bucket.ids.filter((id) => !set.has(id));
      this.bump(bucket, -set.size);
      n += set.size;
      if (bucket.ids.length === 0) this.dropBucket(bucket);
    }
    return n;
  }

  remove(id: number): boolean {
    const bucket = this.where.get(id);
    this.mentions.delete(id);
    this.wildcardMentions.delete(id);
    if (!bucket) return false;
    this.where.delete(id);
    const at = indexOfSorted(bucket.ids, id);
    if (at >= 0) bucket.ids.splice(at, 1);
    this.bump(bucket, -1);
    if (bucket.ids.length === 0) this.dropBucket(bucket);
    return true;
  }

  clear(): void {
    this.channels.clear();
    this.channelCounts.clear();
    this.dms.clear();
    this.dmTotal = 0;
    this.where.clear();
    this.mentions.clear();
    this.wildcardMentions.clear();
  }

  /** Drops every unread of a channel (the channel was deleted). */
  clearChannel(channelId: number): void {
    this.removeMany(this.idsInChannel(channelId));
  }

  /**
   * Messages moved to another channel and/or topic keep their unread state.
   * `topic` undefined: each keeps its own topic (a move between channels only).
   */
  move(ids: Iterable<number>, channelId: number, topic: string | undefined): void {
    /** Each id that moves, to its topic; and how those that mention the user do. */
    const moving = new Map<number, string>();
    const mentioned = new Map<number, MentionKind>();
    /** Per bucket the ids leave: whether that is a change of case only (the ids stay). */
    const stays = new Map<Bucket, boolean>();
    for (const id of ids) {
      const bucket = this.where.get(id);
      if (!bucket || bucket.kind !== "topic" || moving.has(id)) continue;
      const newTopic = topic ?? bucket.topic;
      let same = stays.get(bucket);
      if (same === undefined) stays.set(bucket, (same = bucket.channelId === channelId && topicKey(bucket.topic) === topicKey(newTopic)));
      if (same) {
        bucket.topic = newTopic; // a change of case only
        continue;
      }
      moving.set(id, newTopic);
      if (this.mentions.has(id)) mentioned.set(id, this.mentionOf(id));
    }
    if (moving.size === 0) return;
    // Out of their buckets, then into their new ones, each bucket rewritten once: a whole topic of
    // tens of thousands of unread messages moves in one pass, not a search and a splice per id.
    this.removeMany(moving.keys());
    const into = new Map<Bucket, number[]>();
    const byTopic = new Map<string, Bucket | undefined>();
    for (const [id, movedTo] of moving) {
      let bucket = byTopic.get(movedTo);
      if (!byTopic.has(movedTo)) byTopic.set(movedTo, (bucket = this.bucketFor({ type: "stream", channelId, topic: movedTo })));
      if (!bucket) continue;
      let list = into.get(bucket);
      if (!list) into.set(bucket, (list = []));
      list.push(id);
      this.where.set(id, bucket);
    }
    for (const [bucket, list] of into) {
      bucket.ids = mergeSorted(bucket.ids, list.sort((a, b) => a - b));
      this.bump(bucket, list.length);
    }
    for (const [id, kind] of mentioned) this.setMention(id, kind);
  }

  mentionOf(id: number): MentionKind {
    if (!this.mentions.has(id)) return undefined;
    return this.wildcardMentions.has(id) ? "wildcard" : "direct";
  }

  /** Sets how an unread message mentions the user (no effect on read messages). */
  setMention(id: number, kind: MentionKind): void {
    if (kind === undefined || !this.where.has(id)) {
      this.mentions.delete(id);
      this.wildcardMentions.delete(id);
      return;
    }
    this.mentions.add(id);
    if (kind === "wildcard") this.wildcardMentions.add(id);
    else this.wildcardMentions.delete(id);
  }

  /** Compatibility: a mention flag was added or removed. */
  setMentioned(id: number, on: boolean): void {
    this.setMention(id, on ? "direct" : undefined);
  }

  /** Where an unread message is, or undefined when it is read (or unknown). */
  locationOf(id: number): Readonly<TopicBucket> | Readonly<DmBucket> | undefined {
    return this.where.get(id);
  }

  /**
   * Mention ids that count: leaving out channels `hidden` rejects (not
   * subscribed) and wildcard mentions where `muted` says the topic is muted.
   */
  mentionIds(muted: (channelId: number, topic: string) => boolean, hidden?: (channelId: number) => boolean): number[] {
    const out: number[] = [];
    for (const id of this.mentions) {
      const b = this.where.get(id);
      if (b?.kind === "topic") {
        if (hidden?.(b.channelId)) continue;
        if (this.wildcardMentions.has(id) && muted(b.channelId, b.topic)) continue;
      }
      out.push(id);
    }
    return out;
  }

  countInChannel(channelId: number, skipTopic?: (topic: string) => boolean): number {
    if (!skipTopic) return this.channelCounts.get(channelId) ?? 0;
    const topics = this.channels.get(channelId);
    if (!topics) return 0;
    let n = 0;
    for (const b of topics.values()) if (!skipTopic(b.topic)) n += b.ids.length;
    return n;
  }

  countInTopic(channelId: number, topic: string): number {
    return this.channels.get(channelId)?.get(topicKey(topic))?.ids.length ?? 0;
  }

  countInDm(userIds: number[]): number {
    return this.dms.get(dmParticipants(userIds, this.selfId).join(","))?.ids.length ?? 0;
  }

  dmCount(): number {
    return this.dmTotal;
  }

  /** Unread topics of a channel: [topic as last seen, count, newest unread id]. */
  topicsIn(channelId: number): Array<{ topic: string; count: number; maxId: number }> {
    const topics = this.channels.get(channelId);
    if (!topics) return [];
    return [...topics.values()].map((b) => ({ topic: b.topic, count: b.ids.length, maxId: newestOf(b.ids) }));
  }

  /** The buckets of a channel, for selectors that iterate without copying. */
  topicBuckets(channelId: number): Iterable<Readonly<TopicBucket>> {
    return this.channels.get(channelId)?.values() ?? [];
  }

  dmBuckets(): Iterable<Readonly<DmBucket>> {
    return this.dms.values();
  }

  channelIds(): number[] {
    return [...this.channels.keys()];
  }

  dmConversations(): Array<{ userIds: number[]; count: number; maxId: number }> {
    return [...this.dms.values()].map((b) => ({ userIds: b.userIds, count: b.ids.length, maxId: newestOf(b.ids) }));
  }

  idsInTopic(channelId: number, topic: string): number[] {
    return this.channels.get(channelId)?.get(topicKey(topic))?.ids.slice() ?? [];
  }

  idsInChannel(channelId: number): number[] {
    const out: number[] = [];
    for (const b of this.channels.get(channelId)?.values() ?? []) for (const id of b.ids) out.push(id);
    return out;
  }

  idsInDm(userIds: number[]): number[] {
    return this.dms.get(dmParticipants(userIds, this.selfId).join(","))?.ids.slice() ?? [];
  }

  allIds(): number[] {
    return [...this.where.keys()];
  }

  /**
   * Recomputes every counter and index from the buckets and compares: returns
   * the disagreements (empty when consistent). A debug check for tests.
   */
  recount(): string[] {
    const problems: string[] = [];
    let seen = 0;
    let dmTotal = 0;
    for (const [channelId, topics] of this.channels) {
      let n = 0;
      if (topics.size === 0) problems.push(`channel ${channelId} has no topics but is kept`);
      for (const [k, b] of topics) {
        if (b.ids.length === 0) problems.push(`empty topic bucket ${channelId}/${k}`);
        if (!isIncreasing(b.ids)) problems.push(`topic bucket ${channelId}/${k} out of order`);
        if (topicKey(b.topic) !== k || b.channelId !== channelId) problems.push(`misfiled topic bucket ${channelId}/${k}`);
        for (const id of b.ids) if (this.where.get(id) !== b) problems.push(`id ${id} not indexed in ${channelId}/${k}`);
        n += b.ids.length;
      }
      seen += n;
      const counted = this.channelCounts.get(channelId) ?? 0;
      if (counted !== n) problems.push(`channel ${channelId}: counter ${counted}, recount ${n}`);
    }
    for (const [channelId, n] of this.channelCounts) {
      if (n < 0) problems.push(`channel ${channelId}: negative count ${n}`);
      if (!this.channels.has(channelId) && n !== 0) problems.push(`channel ${channelId}: counter ${n} without buckets`);
    }
    for (const [key, b] of this.dms) {
      if (b.ids.length === 0) problems.push(`empty DM bucket ${key}`);
      if (!isIncreasing(b.ids)) problems.push(`DM bucket ${key} out of order`);
      if (b.userIds.join(",") !== key) problems.push(`misfiled DM bucket ${key}`);
      for (const id of b.ids) if (this.where.get(id) !== b) problems.push(`id ${id} not indexed in DM ${key}`);
      dmTotal += b.ids.length;
    }
    seen += dmTotal;
    if (dmTotal !== this.dmTotal) problems.push(`DM counter ${this.dmTotal}, recount ${dmTotal}`);
    if (this.dmTotal < 0) problems.push(`negative DM count ${this.dmTotal}`);
    if (seen !== this.where.size) problems.push(`index holds ${this.where.size} ids, buckets ${seen}`);
    for (const id of this.mentions) if (!this.where.has(id)) problems.push(`mention ${id} is not unread`);
    for (const id of this.wildcardMentions) if (!this.mentions.has(id)) problems.push(`wildcard mention ${id} not a mention`);
    return problems;
  }

  private bump(b: Bucket, delta: number): void {
    if (b.kind === "dm") this.dmTotal += delta;
    else this.channelCounts.set(b.channelId, (this.channelCounts.get(b.channelId) ?? 0) + delta);
  }

  private bucketFor(loc: UnreadLocation): Bucket | undefined {
    if (loc.type === "stream") {
      if (loc.channelId === undefined) return undefined;
      const topic = loc.topic ?? "";
      let topics = this.channels.get(loc.channelId);
      if (!topics) this.channels.set(loc.channelId, (topics = new Map()));
      const k = topicKey(topic);
      let b = topics.get(k);
      if (!b) topics.set(k, (b = { kind: "topic", channelId: loc.channelId, topic, ids: [] }));
      return b;
    }
    const userIds = dmParticipants(loc.userIds ?? [], this.selfId);
    const key = userIds.join(",");
    let b = this.dms.get(key);
    if (!b) this.dms.set(key, (b = { kind: "dm", key, userIds, ids: [] }));
    return b;
  }

  private dropBucket(b: Bucket): void {
    if (b.kind === "dm") {
      this.dms.delete(b.key);
      return;
    }
    const topics = this.channels.get(b.channelId);
    topics?.delete(topicKey(b.topic));
    if (topics && topics.size === 0) {
      this.channels.delete(b.channelId);
      this.channelCounts.delete(b.channelId);
    }
  }
}

/** A bucket's newest id (its last), or -1 when it has none. */
export function newestOf(ids: readonly number[]): number {
  return ids.length > 0 ? (ids[ids.length - 1] as number) : -1;
}

function isIncreasing(ids: readonly number[]): boolean {
  for (let i = 1; i < ids.length; i++) if ((ids[i] as number) <= (ids[i - 1] as number)) return false;
  return true;
}

/** Where `id` is in sorted `ids`, or -1. */
function indexOfSorted(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid] as number;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Puts `id` in its place in sorted `ids` (a new message's, the newest, goes on the end). */
function insertSorted(ids: number[], id: number): void {
  const n = ids.length;
  if (n === 0 || (ids[n - 1] as number) < id) {
    ids.push(id);
    return;
  }
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((ids[mid] as number) < id) lo = mid + 1;
    else hi = mid;
  }
  if (ids[lo] !== id) ids.splice(lo, 0, id);
}

function sameLocation(a: UnreadLocation, b: UnreadLocation): boolean {
  if (a === b) return true;
  if (a.type !== b.type) return false;
  if (a.type === "stream") return a.channelId === b.channelId && a.topic === b.topic;
  const x = a.userIds ?? [];
  const y = b.userIds ?? [];
  return x.length === y.length && x.every((u, i) => u === y[i]);
}

/** Two sorted lists with no id in common, as one. */
function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  if (a.length === 0) return b.slice();
  if ((a[a.length - 1] as number) < (b[0] as number)) return a.concat(b);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push((a[i] as number) < (b[j] as number) ? (a[i++] as number) : (b[j++] as number));
  while (i < a.length) out.push(a[i++] as number);
  while (j < b.length) out.push(b[j++] as number);
  return out;
}

function withoutOne(ids: number[], gone: Set<number>): number[] {
  const [id] = gone;
  const at = indexOfSorted(ids, id as number);
  if (at >= 0) ids.splice(at, 1);
  return ids;
}
