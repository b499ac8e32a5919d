/**
 * Start-up leaves a large heap of garbage behind: the register body, its parsed JSON and
 * the validation copies (tens of MB on a big organization). V8 would collect it seconds
 * later, on its own schedule — keeping the memory meanwhile and spending the time while
 * the user is idle. One full collection shortly after the first frame (while the user
 * reads it) gives the memory back at once.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export function releaseStartupGarbage(delayMs = 1000): void {
  const timer = setTimeout(() => {
    try {
      setFlagsFromString("--expose-gc");
      (runInNewContext("gc") as (o?: object) => void)({ type: "major", execution: "sync", flavor: "last-resort" });
    } catch {
      // Not available in this runtime: V8 collects it later by itself.
    }
  }, delayMs);
  timer.unref();
}
