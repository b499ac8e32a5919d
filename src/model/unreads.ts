/**
 * Unread messages, kept exact under events: the changes (the register's lists, new and
 * read messages, moves, mentions). The buckets, and what reads them, are unread-buckets.ts.
 */
import type { UnreadMsgs } from "../api/schemas/register.js";
import { UnreadBuckets, type Bucket, type MentionKind, type UnreadLocation } from "./unread-buckets.js";
import { topicKey } from "./narrow.js";
import { indexOfSorted, insertSorted, isIncreasing } from "./sorted-ids.js";

export type { DmBucket, MentionKind, TopicBucket, UnreadLocation } from "./unread-buckets.js";
export { newestOf } from "./sorted-ids.js";

export class Unreads extends UnreadBuckets {
  static fromRegister(data: UnreadMsgs | undefined, selfId: number): Unreads {
    const u = new Unreads(selfId);
    if (!data) return u;
    u.oldUnreadsMissing = data.old_unreads_missing;
    const lists: Array<{ bucket: Bucket | undefined; ids: readonly number[] }> = [];
    // By index, as the filing below (once per start, unoptimized: a for-of goes through an iterator).
    for (let i = 0; i < data.streams.length; i++) {
      const s = data.streams[i]!;
      lists.push({ bucket: u.bucketFor({ type: "stream", channelId: s.stream_id, topic: s.topic }), ids: s.unread_message_ids });
    }
    for (let i = 0; i < data.pms.length; i++) {
      const p = data.pms[i]!;
      const other = p.other_user_id ?? p.sender_id;
      if (other !== undefined) lists.push({ bucket: u.bucketFor({ type: "private", userIds: [other] }), ids: p.unread_message_ids });
    }
    for (let i = 0; i < data.huddles.length; i++) {
      const h = data.huddles[i]!;
      lists.push({ bucket: u.bucketFor({ type: "private", userIds: h.user_ids_string.split(",").map(Number).filter(Number.isFinite) }), ids: h.unread_message_ids });
    }
    // The register does not say which mentions are wildcard ones; it leaves out those in muted places.
    for (const id of u.fileLists(lists, data.mentions)) u.mentions.add(id);
    return u;
  }

  /**
   * The register's lists, each into its bucket (none: a list with no place, left out), and the
   * ids of `mentions` that are unread. The usual lists (each in order, each conversation once)
   * are filed whole and indexed later (unread-buckets.ts, `filed`), but for the mentions; any
   * other goes one id at a time, as `add` would. The loops go by index: this code runs once per
   * start, before V8 optimizes it, where each for-of or destructuring goes through an iterator
   * (twice as slow over 50,000 ids).
   */
  private fileLists(lists: ReadonlyArray<{ readonly bucket: Bucket | undefined; readonly ids: readonly number[] }>, mentions: readonly number[]): number[] {
    const seen = new Set<Bucket>();
    let usual = this.untouched;
    for (let i = 0; usual && i < lists.length; i++) {
      const { bucket, ids } = lists[i]!;
      if (!bucket) continue;
      usual = bucket.ids.length === 0 && !seen.has(bucket) && isIncreasing(ids);
      seen.add(bucket);
    }
    if (!usual) {
      // Emptied buckets go at the end: a later list may name one again.
      const touched = new Set<Bucket>();
      for (const { bucket, ids } of lists) if (bucket) this.fileEach(bucket, ids, touched);
      for (const bucket of touched) if (bucket.ids.length === 0) this.dropBucket(bucket);
      return mentions.filter((id) => this.indexed(id));
    }
    const wanted = mentions.length > 0 ? new Set(mentions) : undefined;
    for (let i = 0; i < lists.length; i++) {
      const { bucket, ids } = lists[i]!;
      if (!bucket) continue;
      if (ids.length === 0) this.dropBucket(bucket);
      else this.fileWhole(bucket, ids, wanted);
    }
    return mentions.filter((id) => this.indexed(id));
  }

  /**
   * One list's ids into `bucket` one at a time: an id unread elsewhere leaves there (the later
   * place wins). Both buckets join `touched`; none is dropped here, even emptied.
   */
  private fileEach(bucket: Bucket, ids: readonly number[], touched: Set<Bucket>): void {
    touched.add(bucket);
    let added = 0;
    for (const id of ids) {
      const was = this.where.get(id);
      if (was === bucket) continue;
      if (was) {
        const at = indexOfSorted(was.ids, id);
        if (at >= 0) was.ids.splice(at, 1);
        this.bump(was, -1);
        touched.add(was);
      }
      insertSorted(bucket.ids, id);
      this.where.set(id, bucket);
      added++;
    }
    this.bump(bucket, added);
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
    const placed: Array<[number, Bucket]> = [];
    for (const [id, { loc }] of last) {
      if (this.where.has(id)) continue; // unread there already
      const bucket = this.bucketFor(loc);
      if (bucket) placed.push([id, bucket]);
    }
    this.fileNew(placed);
    for (const [id, { mentioned }] of last) if (mentioned !== undefined || this.mentions.has(id)) this.setMention(id, mentioned);
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
      bucket.ids = set.size === bucket.ids.length ? [] : bucket.ids.filter((id) => !set.has(id));
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
    this.removeOne(id, bucket);
    return true;
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
    const placed: Array<[number, Bucket]> = [];
    const byTopic = new Map<string, Bucket | undefined>();
    for (const [id, movedTo] of moving) {
      let bucket = byTopic.get(movedTo);
      if (!byTopic.has(movedTo)) byTopic.set(movedTo, (bucket = this.bucketFor({ type: "stream", channelId, topic: movedTo })));
      if (bucket) placed.push([id, bucket]);
    }
    this.fileNew(placed);
    for (const [id, kind] of mentioned) this.setMention(id, kind);
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
}
