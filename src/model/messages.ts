/**
 * Messages: one authoritative map by id, and one list of ids per loaded
 * narrow with its fetch bookkeeping. A list covers a contiguous range of the
 * narrow's messages: from its first id (or the very oldest, once
 * `foundOldest`) to its last id (or the newest, once `foundNewest`). A
 * message is put into a list only when its id falls inside that range, so
 * lists never get gaps.
 */
import type { Message } from "../api/schemas/common.js";
import { narrowContains, narrowKey, topicKey, type Narrow, type NarrowContext } from "./narrow.js";
import { indexOfSorted, lowerBound } from "./sorted-ids.js";

export { indexOfSorted, lowerBound };

/** idle: nothing running; fetching: a request is out; backoff: waiting to retry; error: the last fetch failed. */
export type FetchStatus = "idle" | "fetching" | "backoff" | "error";
export type FetchDirection = "older" | "newer" | "around";

export interface MessageList {
  key: string;
  narrow: Narrow;
  /** Sorted ascending, no duplicates. */
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
  status: FetchStatus;
  /** The direction of the running fetch, while status is "fetching". */
  fetching?: FetchDirection;
  error?: string;
  /** Bumped whenever the list is reset, so late responses to an older fetch are dropped. */
  generation: number;
  /** Ids whose membership only the server can decide (search narrows): ask `matches_narrow`. */
  pendingCheck: Set<number>;
  /** Something may now belong here that the list cannot know of (e.g. a topic was unmuted): refetch when shown. */
  stale: boolean;
  /** Search narrows: the server's highlighted HTML (`match_content`, `match_subject`) by message id. */
  matches?: Map<number, { content?: string; subject?: string }>;
  /** When the list was last on screen (a counter, see `Messages.show`); lists left long ago go first. */
  shownAt?: number;
}

/** Inserts `add` into the sorted `ids` (both sorted ascending), in place; returns ids. */
export function mergeSortedIds(ids: number[], add: number[]): number[] {
  if (add.length === 0) return ids;
  const last = ids[ids.length - 1];
  if (last === undefined || (add[0] as number) > last) {
    for (const id of add) ids.push(id);
    return ids;
  }
  const merged = [...new Set([...ids, ...add])].sort((a, b) => a - b);
  ids.length = 0;
  for (const id of merged) ids.push(id);
  return ids;
}

/** Whether an id falls inside the range a list has loaded. */
export function covers(l: MessageList, id: number): boolean {
  const first = l.ids[0];
  const last = l.ids[l.ids.length - 1];
  if (first === undefined || last === undefined) return l.foundOldest && l.foundNewest;
  return (l.foundOldest || id >= first) && (l.foundNewest || id <= last);
}

/** Inserts one id in place (sorted, no duplicate); returns whether it was added. */
export function insertSorted(ids: number[], id: number): boolean {
  const last = ids[ids.length - 1];
  if (last === undefined || id > last) {
    ids.push(id);
    return true;
  }
  const i = lowerBound(ids, id);
  if (ids[i] === id) return false;
  ids.splice(i, 0, id);
  return true;
}

/** Removes one id in place; returns whether it was there. */
export function removeSorted(ids: number[], id: number): boolean {
  const i = indexOfSorted(ids, id);
  if (i < 0) return false;
  ids.splice(i, 1);
  return true;
}

export class Messages {
  readonly byId = new Map<number, Message>();
  readonly lists = new Map<string, MessageList>();
  /** Ids of starred messages (from the register's starred_messages and flag events). */
  readonly starred = new Set<number>();
  /** `${channelId}:${topicKey}` → ids of the known messages there. */
  private readonly byTopic = new Map<string, Set<number>>();

  list(narrow: Narrow): MessageList | undefined {
    return this.lists.get(narrowKey(narrow));
  }

  /** The list for a narrow, created empty (nothing fetched yet) if needed. */
  ensureList(narrow: Narrow): MessageList {
    const key = narrowKey(narrow);
    let l = this.lists.get(key);
    if (!l) {
      l = { key, narrow, ids: [], foundOldest: false, foundNewest: false, status: "idle", generation: 0, pendingCheck: new Set(), stale: false };
      this.lists.set(key, l);
    }
    return l;
  }

  /** Forgets a list (its view closed). */
  dropList(narrow: Narrow): void {
    this.lists.delete(narrowKey(narrow));
  }

  /** The key of the list on screen: never evicted. */
  shown: string | undefined;
  private shows = 0;

  /**
   * Where the reader is in the list on screen: the first message wholly on screen. The budget
   * may trim that list's older end, but never within reach of this message.
   */
  reader: { key: string; id: number } | undefined;

  /** Notes that a narrow is on screen now (the list it had before is left). */
  show(narrow: Narrow): void {
    this.shown = narrowKey(narrow);
    this.ensureList(narrow).shownAt = ++this.shows;
  }

  /** Notes the first message wholly on screen in the open narrow. */
  noteReader(narrow: Narrow, id: number): void {
    const key = narrowKey(narrow);
    if (this.reader?.key !== key || this.reader.id !== id) this.reader = { key, id };
  }

  /**
   * Drops the older end of list `l` up to `keepAbove` messages before `id` (which must be in the
   * list); the list then starts later, no longer at the oldest, and is fetched further back when
   * the reader gets there. Returns how many ids went (their messages stay until forgotten).
   */
  cutOlderEnd(l: MessageList, id: number, keepAbove: number): number {
    const at = indexOfSorted(l.ids, id);
    const cut = at - keepAbove;
    if (at < 0 || cut <= 0) return 0;
    for (const gone of l.ids.splice(0, cut)) l.pendingCheck.delete(gone);
    l.foundOldest = false;
    return cut;
  }

  /** Forgets a message that no list holds any more (evicted, not deleted: its flags stay). */
  forget(id: number): void {
    const m = this.byId.get(id);
    if (!m) return;
    this.byId.delete(id);
    this.unindex(m);
  }

  put(m: Message): void {
    const had = this.byId.get(m.id);
    if (had && had !== m) this.unindex(had);
    this.byId.set(m.id, m);
    this.index(m);
  }

  /** Forgets a message (deleted). */
  remove(id: number): Message | undefined {
    const m = this.byId.get(id);
    if (!m) return undefined;
    this.byId.delete(id);
    this.starred.delete(id);
    this.unindex(m);
    return m;
  }

  /** Moves a known message to another channel and/or topic, keeping the topic index right. */
  relocate(m: Message, channelId: number, topic: string): void {
    this.unindex(m);
    m.stream_id = channelId;
    m.subject = topic;
    this.index(m);
  }

  /** The newest known message of a topic, leaving out `except`. */
  newestIn(channelId: number, topic: string, except?: Set<number>): Message | undefined {
    let best: number | undefined;
    for (const id of this.byTopic.get(`${channelId}:${topicKey(topic)}`) ?? []) {
      if ((best === undefined || id > best) && !except?.has(id)) best = id;
    }
    return best === undefined ? undefined : this.byId.get(best);
  }

  private index(m: Message): void {
    if (m.type !== "stream" || m.stream_id === undefined) return;
    const key = `${m.stream_id}:${topicKey(m.subject)}`;
    let ids = this.byTopic.get(key);
    if (!ids) this.byTopic.set(key, (ids = new Set()));
    ids.add(m.id);
  }

  private unindex(m: Message): void {
    if (m.type !== "stream" || m.stream_id === undefined) return;
    const key = `${m.stream_id}:${topicKey(m.subject)}`;
    const ids = this.byTopic.get(key);
    if (!ids?.delete(m.id)) return;
    if (ids.size === 0) this.byTopic.delete(key);
  }

  /**
   * Starts a fetch unless one is running or there is nothing more in that
   * direction; returns the generation to hand back with the result, or
   * undefined for "nothing to do" (so key handlers may call it freely).
   */
  beginFetch(narrow: Narrow, direction: FetchDirection): number | undefined {
    const l = this.ensureList(narrow);
    if (l.status === "fetching") return undefined;
    if (direction === "older" && l.foundOldest) return undefined;
    if (direction === "newer" && l.foundNewest) return undefined;
    if (direction === "around" && l.ids.length > 0) return undefined;
    l.status = "fetching";
    l.fetching = direction;
    l.error = undefined;
    return l.generation;
  }

  /** Adds a fetched batch to a narrow's list and the map; a batch for an older generation is dropped (returns undefined). */
  addFetched(
    narrow: Narrow,
    messages: Message[],
    r: { foundOldest: boolean; foundNewest: boolean; direction: FetchDirection; generation?: number },
  ): MessageList | undefined {
    const l = this.ensureList(narrow);
    if (r.generation !== undefined && r.generation !== l.generation) return undefined;
    for (const m of messages) if (this.byId.get(m.id) !== m) this.put(m);
    const ids = messages.map((m) => m.id);
    if (ids.some((id, i) => i > 0 && id <= (ids[i - 1] as number))) ids.sort((a, b) => a - b);
    mergeSortedIds(l.ids, ids);
    if (r.direction !== "newer") l.foundOldest = l.foundOldest || r.foundOldest;
    if (r.direction !== "older") l.foundNewest = l.foundNewest || r.foundNewest;
    l.status = "idle";
    l.fetching = undefined;
    l.error = undefined;
    if (r.direction === "around") l.stale = false;
    for (const id of ids) l.pendingCheck.delete(id);
    return l;
  }

  /** Removes ids from every list, in place (a binary search per id and list). */
  removeFromLists(ids: Iterable<number>): void {
    for (const l of this.lists.values()) {
      for (const id of ids) {
        l.pendingCheck.delete(id);
        removeSorted(l.ids, id);
      }
    }
  }

  /**
   * Re-decides where one known message belongs after it changed (moved,
   * edited, starred, …): added to lists whose narrow it now matches and whose
   * range covers it, removed from lists it no longer matches, queued for a
   * server check in narrows that cannot be evaluated here.
   */
  reconsider(id: number, ctx: NarrowContext, only?: (l: MessageList) => boolean): void {
    const m = this.byId.get(id);
    if (!m) return;
    for (const l of this.lists.values()) {
      if (only && !only(l)) continue;
      const match = narrowContains(l.narrow, m, ctx);
      if (match === undefined) {
        if (covers(l, id) || indexOfSorted(l.ids, id) >= 0) l.pendingCheck.add(id);
      } else if (match) {
        if (covers(l, id)) insertSorted(l.ids, id);
      } else {
        removeSorted(l.ids, id);
      }
    }
  }

  /** Places a new message (newer than everything so far) into every list that reached the newest message. */
  placeLive(m: Message, ctx: NarrowContext): void {
    for (const l of this.lists.values()) {
      if (!l.foundNewest) continue;
      const match = narrowContains(l.narrow, m, ctx);
      if (match === undefined) l.pendingCheck.add(m.id);
      else if (match) insertSorted(l.ids, m.id);
    }
  }

  /**
   * A message the client does not have may now belong in some lists (moved
   * in, starred, subscribed again): lists that `maybe` accepts and whose range
   * covers it are marked stale, for the view to refetch.
   */
  markStale(id: number | undefined, maybe: (l: MessageList) => boolean): void {
    for (const l of this.lists.values()) if ((id === undefined || covers(l, id)) && maybe(l)) l.stale = true;
  }

  /** Keys of loaded lists waiting for the server to say whether this message belongs. */
  narrowsNeedingServerCheck(id: number): string[] {
    const out: string[] = [];
    for (const l of this.lists.values()) if (l.pendingCheck.has(id)) out.push(l.key);
    return out;
  }

  /** Every pending server check, grouped by list. */
  pendingServerChecks(): Array<{ narrowKey: string; narrow: Narrow; ids: number[] }> {
    const out: Array<{ narrowKey: string; narrow: Narrow; ids: number[] }> = [];
    for (const l of this.lists.values()) if (l.pendingCheck.size) out.push({ narrowKey: l.key, narrow: l.narrow, ids: [...l.pendingCheck].sort((a, b) => a - b) });
    return out;
  }

  /** The server's answer for one pending check; returns whether the list changed. */
  confirmNarrowMatch(key: string, id: number, match: boolean): boolean {
    const l = this.lists.get(key);
    if (!l || !l.pendingCheck.delete(id)) return false;
    if (match) return this.byId.has(id) && covers(l, id) && insertSorted(l.ids, id);
    return removeSorted(l.ids, id);
  }

  /** Removes ids that `keep` rejects from one list, in place; returns how many went. */
  filterList(l: MessageList, keep: (m: Message) => boolean): number {
    let w = 0;
    const n = l.ids.length;
    for (let r = 0; r < n; r++) {
      const id = l.ids[r] as number;
      const m = this.byId.get(id);
      if (!m || keep(m)) l.ids[w++] = id;
    }
    l.ids.length = w;
    return n - w;
  }

  /** Forgets every loaded list (after a rebuild the views refetch). */
  resetLists(): void {
    for (const l of this.lists.values()) {
      l.ids = [];
      l.foundOldest = false;
      l.foundNewest = false;
      l.status = "idle";
      l.fetching = undefined;
      l.pendingCheck.clear();
      l.stale = false;
      l.generation++;
    }
  }
}
