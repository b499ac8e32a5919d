/**
 * Start-up leaves a large heap of garbage behind: the register body, its parsed JSON and
 * the validation copies (tens of MB on a big organization). V8 would collect it seconds
 * later, on its own schedule — keeping the memory meanwhile and spending the time while
 * the user is idle. One full collection shortly after the first frame (while the user
 * reads it) gives the memory back at once.
 *
 * The collection is V8's plain `gc()`: on Node 20 the options form
 * (`{ type: "major", flavor: "last-resort" }`) returns without collecting anything.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: ((options?: { type: "minor" }) => void) | null | undefined;

/** A full collection now (or of the young generation only); false when the runtime does not offer one. */
export function collectGarbage(young = false): boolean {
  if (collect === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as (options?: { type: "minor" }) => void;
    } catch {
      collect = null;
    }
  }
  if (collect === null) return false;
  if (young) collect({ type: "minor" });
  else collect();
  return true;
}

/**
 * Once started, the heap may grow by 15% between full collections, not by V8's own factor (up
 * to four times). The client's live heap is small (tens of MB) and it makes garbage at the rate
 * events arrive and frames are drawn: while another member posted 50 messages a second, V8 let
 * the heap grow to three times what was alive before collecting, and resident memory rose by 60
 * to 100 MiB for a minute; by 32 to 37 with a quarter, by 24 to 26 with 15% (the collector's CPU
 * time no higher: each collection has less to go through). Set after start-up, whose large
 * parse is better served by V8's growth, and only once the launcher has kept the compiled code:
 * V8 stamps its code cache with the flags in force, and refuses, at the next start, a cache
 * stamped under flags other than its own.
 */
export const STEADY_HEAP_GROWTH = "--heap-growing-percent=15";

export function steadyHeapGrowth(): void {
  setFlagsFromString(STEADY_HEAP_GROWTH);
}

/** One full collection `delayMs` after the first frame, while the user reads it. */
export function releaseStartupGarbage(delayMs = 1000): void {
  const timer = setTimeout(() => collectGarbage(), delayMs);
  timer.unref();
}
