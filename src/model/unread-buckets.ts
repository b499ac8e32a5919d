/**
 * Unread messages: their buckets, and what reads them (the changes, kept exact
 * under events, are unreads.ts's). Every unread message id lives in
 * exactly one bucket (a channel topic or a DM conversation); `where` maps an
 * id to its bucket. A bucket keeps its ids in a sorted array: the register
 * lists each conversation's ids in order, so a start files them with one copy
 * per bucket, and a bucket's oldest and newest are its ends. The index entry
 * per id waits (see `filed`). Marking read or deleting one id costs a search
 * and a splice in its bucket (one pass per bucket for many at once).
 * Per-channel and DM totals are counters kept up to date on every change;
 * `recount()` recomputes them from scratch (a debug check for tests).
 *
 * Unreads of channels the user is not subscribed to are kept (the server
 * keeps them too, and shows them again on resubscribing); the counting
 * selectors leave them out.
 */
import { dmParticipants, topicKey } from "./narrow.js";
import { indexOfSorted, isIncreasing, mergeSorted, newestOf } from "./sorted-ids.js";

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
export type Bucket = TopicBucket | DmBucket;

export interface UnreadLocation {
  type: "stream" | "private";
  channelId?: number;
  topic?: string;
  /** All participants for DMs (self may or may not be included). */
  userIds?: number[];
}

export type MentionKind = "direct" | "wildcard" | undefined;

export class UnreadBuckets {
  protected readonly channels = new Map<number, Map<string, TopicBucket>>();
  protected readonly channelCounts = new Map<number, number>();
  protected readonly dms = new Map<string, DmBucket>();
  protected dmTotal = 0;
  /** id → bucket: every unread id but those of the `filed` buckets (of which it holds the mentions). */
  private readonly index = new Map<number, Bucket>();
  /**
   * Buckets filed whole from the register's lists (`fileWhole`), whose ids are not in the index
   * yet: filing 50,000 ids one by one, each into a map, took 14–23 ms of a start before its first
   * frame, which asks for a few dozen. Such an id is looked up in them (`bucketOf`); they are put in the
   * index (`settle`) at the first change, the first read of the whole index, or when the
   * session calls `settle` once the start's frame is out.
   */
  private filed: Bucket[] = [];
  /** Unread messages that mention the user (personally, through a group, or by wildcard). */
  readonly mentions = new Set<number>();
  /** The subset of `mentions` that are wildcard-only: they do not count where the topic is muted. */
  readonly wildcardMentions = new Set<number>();
  /**
   * True when the server did not send every old unread message: an id that is
   * not here may still be unread (see `isUnread`).
   */
  oldUnreadsMissing = false;

  constructor(protected readonly selfId: number) {}

  clear(): void {
    this.channels.clear();
    this.channelCounts.clear();
    this.dms.clear();
    this.dmTotal = 0;
    this.index.clear();
    this.filed = [];
    this.mentions.clear();
    this.wildcardMentions.clear();
  }

  /** The index of every unread id, complete: the filed buckets' ids are put in it first. */
  protected get where(): Map<number, Bucket> {
    if (this.filed.length > 0) this.settle();
    return this.index;
  }

  /**
   * Puts the filed buckets' ids in the index (nothing when there are none). An id a register
   * listed in two places is the later one's, as `add` one after another would leave it: the
   * buckets are gone through newest filed first, and an id found in the index already (a
   * later bucket's, or a mention filed with its bucket) leaves the earlier one.
   */
  settle(): void {
    const filed = this.filed;
    if (filed.length === 0) return;
    this.filed = [];
    for (let i = filed.length - 1; i >= 0; i--) {
      const bucket = filed[i]!;
      let twice: Set<number> | undefined;
      for (const id of bucket.ids) {
        const was = this.index.get(id);
        if (was === undefined) this.index.set(id, bucket);
        else if (was !== bucket) (twice ??= new Set()).add(id);
      }
      if (!twice) continue;
      bucket.ids = bucket.ids.filter((id) => !twice.has(id));
      this.bump(bucket, -twice.size);
      if (bucket.ids.length === 0) this.dropBucket(bucket);
    }
  }

  /** Whether nothing is filed or indexed yet: a register's usual lists may then be filed whole. */
  protected get untouched(): boolean {
    return this.index.size === 0 && this.filed.length === 0;
  }

  /**
   * A list filed whole into its bucket, new and empty (`ids` in order, no repeats): its ids are
   * indexed later (`filed`), but for those of `mentioned`, which go in the index now. By index:
   * this runs once per start, before V8 optimizes it, where a for-of goes through an iterator.
   */
  protected fileWhole(bucket: Bucket, ids: readonly number[], mentioned: ReadonlySet<number> | undefined): void {
    bucket.ids = ids.slice();
    this.bump(bucket, ids.length);
    this.filed.push(bucket);
    if (mentioned) for (let j = 0; j < ids.length; j++) if (mentioned.has(ids[j]!)) this.index.set(ids[j]!, bucket);
  }

  /** Whether the index holds `id`, without putting the filed buckets in it first. */
  protected indexed(id: number): boolean {
    return this.index.has(id);
  }

  /** Takes `id` out of `bucket` and the index (its mention marks stay: the caller's to change). */
  protected removeOne(id: number, bucket: Bucket): void {
    this.index.delete(id);
    const at = indexOfSorted(bucket.ids, id);
    if (at >= 0) bucket.ids.splice(at, 1);
    this.bump(bucket, -1);
    if (bucket.ids.length === 0) this.dropBucket(bucket);
  }

  /** The bucket an unread id is in (undefined: read or unknown), without indexing the filed buckets. */
  protected bucketOf(id: number): Bucket | undefined {
    const indexed = this.index.get(id);
    if (indexed !== undefined || this.filed.length === 0) return indexed;
    for (let i = this.filed.length - 1; i >= 0; i--) {
      const ids = this.filed[i]!.ids;
      if (id >= ids[0]! && id <= ids[ids.length - 1]! && indexOfSorted(ids, id) >= 0) return this.filed[i];
    }
    return undefined;
  }

  has(id: number): boolean {
    return this.bucketOf(id) !== undefined;
  }

  /** true/false when known; undefined when the server may have left this old unread message out. */
  isUnread(id: number): boolean | undefined {
    if (this.bucketOf(id)) return true;
    return this.oldUnreadsMissing ? undefined : false;
  }

  get size(): number {
    return this.where.size;
  }

  /** Ids unread nowhere yet, each into its bucket: grouped, so that each bucket's sorted list is merged once. */
  protected fileNew(placed: Iterable<readonly [number, Bucket]>): void {
    const into = new Map<Bucket, number[]>();
    for (const [id, bucket] of placed) {
      let list = into.get(bucket);
      if (!list) into.set(bucket, (list = []));
      list.push(id);
      this.where.set(id, bucket);
    }
    for (const [bucket, list] of into) {
      bucket.ids = mergeSorted(bucket.ids, list.sort((a, b) => a - b));
      this.bump(bucket, list.length);
    }
  }

  /** Whether `bucket` is the one `loc` names. */
  protected holds(bucket: Bucket, loc: UnreadLocation): boolean {
    if (loc.type === "stream") return bucket.kind === "topic" && bucket.channelId === loc.channelId && topicKey(bucket.topic) === topicKey(loc.topic ?? "");
    return bucket.kind === "dm" && bucket.key === dmParticipants(loc.userIds ?? [], this.selfId).join(",");
  }

  mentionOf(id: number): MentionKind {
    if (!this.mentions.has(id)) return undefined;
    return this.wildcardMentions.has(id) ? "wildcard" : "direct";
  }

  /** Where an unread message is, or undefined when it is read (or unknown). */
  locationOf(id: number): Readonly<TopicBucket> | Readonly<DmBucket> | undefined {
    return this.bucketOf(id);
  }

  /**
   * Mention ids that count: leaving out channels `hidden` rejects (not
   * subscribed) and wildcard mentions where `muted` says the topic is muted.
   */
  mentionIds(muted: (channelId: number, topic: string) => boolean, hidden?: (channelId: number) => boolean): number[] {
    const out: number[] = [];
    for (const id of this.mentions) {
      const b = this.bucketOf(id);
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

  /** A topic's newest unread message id, or -1. */
  newestInTopic(channelId: number, topic: string): number {
    const ids = this.channels.get(channelId)?.get(topicKey(topic))?.ids;
    return ids ? newestOf(ids) : -1;
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

  protected bump(b: Bucket, delta: number): void {
    if (b.kind === "dm") this.dmTotal += delta;
    else this.channelCounts.set(b.channelId, (this.channelCounts.get(b.channelId) ?? 0) + delta);
  }

  protected bucketFor(loc: UnreadLocation): Bucket | undefined {
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

  protected dropBucket(b: Bucket): void {
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
