/**
 * Messages: one authoritative map by id, and one list of ids per loaded
 * narrow with its fetch bookkeeping.
 */
import type { Message } from "../api/schemas/common.js";
import { narrowKey, type Narrow } from "./narrow.js";

export type FetchStatus = "idle" | "fetching" | "error";

export interface MessageList {
  narrow: Narrow;
  /** Sorted ascending, no duplicates. */
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
  status: FetchStatus;
  error?: string;
  /** Bumped whenever the list is reset, so late responses to an older fetch are dropped. */
  generation: number;
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

/** Index of `id` in sorted `ids`, or -1. */
export function indexOfSorted(ids: number[], id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = ids[mid] as number;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export class Messages {
  readonly byId = new Map<number, Message>();
  readonly lists = new Map<string, MessageList>();

  list(narrow: Narrow): MessageList | undefined {
    return this.lists.get(narrowKey(narrow));
  }

  /** The list for a narrow, created empty (nothing fetched yet) if needed. */
  ensureList(narrow: Narrow): MessageList {
    const key = narrowKey(narrow);
    let l = this.lists.get(key);
    if (!l) {
      l = { narrow, ids: [], foundOldest: false, foundNewest: false, status: "idle", generation: 0 };
      this.lists.set(key, l);
    }
    return l;
  }

  put(m: Message): void {
    this.byId.set(m.id, m);
  }

  /** Adds a fetched batch to a narrow's list and the map. */
  addFetched(
    narrow: Narrow,
    messages: Message[],
    r: { foundOldest: boolean; foundNewest: boolean; direction: "older" | "newer" | "around" },
  ): MessageList {
    const l = this.ensureList(narrow);
    for (const m of messages) this.byId.set(m.id, m);
    mergeSortedIds(
      l.ids,
      messages.map((m) => m.id),
    );
    if (r.direction !== "newer") l.foundOldest = l.foundOldest || r.foundOldest;
    if (r.direction !== "older") l.foundNewest = l.foundNewest || r.foundNewest;
    l.status = "idle";
    l.error = undefined;
    return l;
  }

  removeFromLists(ids: Set<number>): void {
    for (const l of this.lists.values()) {
      if (l.ids.some((id) => ids.has(id))) l.ids = l.ids.filter((id) => !ids.has(id));
    }
  }

  /** Forgets every loaded list (after a rebuild the views refetch). */
  resetLists(): void {
    for (const l of this.lists.values()) {
      l.ids = [];
      l.foundOldest = false;
      l.foundNewest = false;
      l.status = "idle";
      l.generation++;
    }
  }
}
