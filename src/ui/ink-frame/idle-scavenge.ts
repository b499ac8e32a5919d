/**
 * The young generation, emptied after a key's frame is out, while the terminal waits for the
 * next key. A key moving through messages makes some 400 KB of short-lived objects (React's
 * work, Ink's frame), and the launcher keeps the young generation small (1 MB, for resident
 * memory): V8 emptied it every two to four keys, in the middle of a key's work, and those keys
 * were the slowest (30 keys of 200 on large's feed had a collection between press and frame).
 * Emptied here once a quarter of it is taken, the next key starts with room for its work and the
 * collection falls between keys (3 keys of 200). It costs some CPU, in the idle time after the
 * frame: there are more collections, each quicker (less to keep), about 0.2 ms a key in all. What
 * lives across two of them (a frame's kept rows, say) moves to the old generation after fewer keys.
 */
import { getHeapSpaceStatistics } from "node:v8";
import { collectGarbage } from "../startup-memory.js";

/** After a frame that answered a key (the Ink patch calls it): once the frame's own work is done. */
export function scavengeAfterKeyFrame(): void {
  // An immediate runs after the effects React queued for this frame, before timers and input
  // that come after: the key's garbage is all there, and the next key does not wait for long.
  setImmediate(() => {
    const young = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
    if (young && young.space_used_size * 4 > young.space_used_size + young.space_available_size) collectGarbage(true);
  });
}
