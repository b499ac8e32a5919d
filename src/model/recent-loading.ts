/**
 * How the recent conversations view loads what it shows, as the service's web
 * app does for its own recent view: the newest messages of everything (an
 * empty narrow, muted conversations included), 1,000 first, then batches of
 * 2,000 older ones while the view needs more rows than the loaded range
 * holds, never the whole history. Direct-message conversations also come
 * from the register (`recent_private_conversations`) and unread ones from
 * the unread data, so they need no loading.
 *
 * Pure state and decisions; the sync layer makes the requests: it asks
 * `nextRecentFetch` what to send (undefined: nothing, the view has enough),
 * calls `beginRecentFetch`, sends, and hands the answer to
 * `recentFetchDone` (the messages go to the store with addRecentMessages).
 */
import type { NarrowTerm } from "../api/schemas/common.js";

export const RECENT_BATCHES = {
  /** The first request: the newest messages. */
  first: 1000,
  /** Each later request, older than what is loaded. */
  more: 2000,
  /** Loaded without being asked again: past this, the view offers "load more" (each use allows as many again). */
  budget: 25_000,
} as const;

export interface RecentLoadState {
  /** The oldest message loaded: everything newer is known (undefined before the first answer). */
  oldestId: number | undefined;
  foundOldest: boolean;
  /** Messages loaded so far. */
  loaded: number;
  /** How many may be loaded before the view must ask (load more). */
  budget: number;
  /** A request is out; its generation must come back with the answer. */
  inFlight: boolean;
  generation: number;
  /** The last request failed: the message to show (the next one is made only when asked). */
  error?: string;
}

export interface RecentFetch {
  anchor: "newest" | number;
  include_anchor: boolean;
  num_before: number;
  num_after: 0;
  narrow: NarrowTerm[];
}

export function recentLoadState(): RecentLoadState {
  return { oldestId: undefined, foundOldest: false, loaded: 0, budget: RECENT_BATCHES.budget, inFlight: false, generation: 0 };
}

export function firstRecentFetch(): RecentFetch {
  return { anchor: "newest", include_anchor: true, num_before: RECENT_BATCHES.first, num_after: 0, narrow: [] };
}

/**
 * What the view needs: `wanted` rows (the screen's height and a page more,
 * growing as the user scrolls), of which `complete` lie within the loaded
 * range (use `rowsWithinLoaded`). Undefined: nothing to fetch (enough rows,
 * the oldest message reached, a request out, or the budget spent).
 */
export function nextRecentFetch(s: RecentLoadState, need: { wanted: number; complete: number }): RecentFetch | undefined {
  if (s.inFlight) return undefined;
  if (s.oldestId === undefined) return s.error === undefined ? firstRecentFetch() : undefined;
  if (s.foundOldest || s.error !== undefined) return undefined;
  if (need.complete >= need.wanted || s.loaded >= s.budget) return undefined;
  return { anchor: s.oldestId, include_anchor: false, num_before: RECENT_BATCHES.more, num_after: 0, narrow: [] };
}

/** The request is going out; returns the generation to pass back with its answer. */
export function beginRecentFetch(s: RecentLoadState): number {
  s.inFlight = true;
  s.error = undefined;
  return s.generation;
}

/** An answer: extends the loaded range. A stale answer (another generation) is ignored; returns whether it counted. */
export function recentFetchDone(s: RecentLoadState, generation: number, r: { messages: ReadonlyArray<{ id: number }>; found_oldest: boolean }): boolean {
  if (generation !== s.generation) return false;
  s.inFlight = false;
  let oldest = s.oldestId;
  for (const m of r.messages) if (oldest === undefined || m.id < oldest) oldest = m.id;
  // An empty first answer: nothing at all; the range is complete.
  s.oldestId = oldest ?? Number.MAX_SAFE_INTEGER;
  s.foundOldest = s.foundOldest || r.found_oldest || r.messages.length === 0;
  s.loaded += r.messages.length;
  return true;
}

export function recentFetchFailed(s: RecentLoadState, generation: number, error: string): void {
  if (generation !== s.generation) return;
  s.inFlight = false;
  s.error = error;
}

/** The user asked for more (or to retry after an error): allows another budget's worth. */
export function loadMoreRecent(s: RecentLoadState): void {
  s.error = undefined;
  if (s.loaded >= s.budget) s.budget = s.loaded + RECENT_BATCHES.budget;
}

/** Starts over (the store was rebuilt): answers to earlier requests are dropped. */
export function resetRecentLoad(s: RecentLoadState): void {
  Object.assign(s, recentLoadState(), { generation: s.generation + 1 });
}

/** How many of these rows lie within the loaded range (their newest message is not older than the oldest loaded). */
export function rowsWithinLoaded(s: RecentLoadState, rows: ReadonlyArray<{ maxId: number }>): number {
  if (s.foundOldest) return rows.length;
  if (s.oldestId === undefined) return 0;
  let n = 0;
  for (const r of rows) if (r.maxId >= s.oldestId) n++;
  return n;
}
