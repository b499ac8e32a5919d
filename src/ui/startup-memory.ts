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

let collect: (() => void) | null | undefined;

/** A full collection now; false when the runtime does not offer one. */
export function collectGarbage(): boolean {
  if (collect === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as () => void;
    } catch {
      collect = null;
    }
  }
  if (collect === null) return false;
  collect();
  return true;
}

export function releaseStartupGarbage(delayMs = 1000): void {
  const timer = setTimeout(() => collectGarbage(), delayMs);
  timer.unref();
}
