/**
 * The jump finder on a data set: the store as the client builds it, every
 * channel's topic list and the recent view's first batch of messages loaded,
 * then the index built once (time, heap) and realistic queries typed a
 * character at a time: each keystroke's time to the ranked top 50, with
 * their matched positions (p50/p95/max over all keystrokes).
 */
import { JumpIndex } from "../src/model/jump-index.js";
import { finderData } from "./finder-data.js";
import { median, printFigure } from "./util.js";

const { loadedStore, channelIds, topicCount, queries: queriesFor, stop } = await finderData(process.argv[2] ?? "large");
// The first build on a store whose users the client has not checked yet (it checks them in
// batches after the first frame): building reads every name, so it checks them all then.
{
  const fresh = loadedStore();
  const t0 = performance.now();
  new JumpIndex(fresh);
  printFigure("index build on a fresh store (includes checking 20,000 users)", (performance.now() - t0).toFixed(1), "ms");
}
const store = loadedStore();
printFigure("people, channels, topics loaded", `${store.users.size}/${channelIds.length}/${topicCount}`, "");
printFigure("conversations known (recent model)", store.recent.size, "");

globalThis.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const buildTimes: number[] = [];
let index: JumpIndex | undefined;
for (let i = 0; i < 5; i++) {
  index = undefined;
  globalThis.gc?.();
  const t0 = performance.now();
  index = new JumpIndex(store);
  buildTimes.push(performance.now() - t0);
}
globalThis.gc?.();
const finder = index as JumpIndex;
printFigure("index entries", finder.size, "");
printFigure("index build (median of 5)", median(buildTimes).toFixed(1), "ms");
printFigure("heap held by the index", ((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1), "MB");

const queries = queriesFor(store);
const times: number[] = [];
let results = 0;
for (let round = 0; round < 3; round++) {
  for (const q of queries) {
    for (let n = 1; n <= q.length; n++) {
      const t0 = performance.now();
      results += finder.query(q.slice(0, n), 50).length;
      times.push(performance.now() - t0);
    }
    finder.query("", 50); // the box emptied before the next query
  }
}
const sorted = [...times].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
printFigure(`keystrokes typed (${queries.length} queries × 3 rounds)`, times.length, "");
printFigure("keystroke to ranked top 50, p50", pct(50).toFixed(2), "ms");
printFigure("keystroke to ranked top 50, p95", pct(95).toFixed(2), "ms (target ≤ 16)");
printFigure("keystroke to ranked top 50, max", sorted[sorted.length - 1]!.toFixed(2), "ms");
printFigure("results returned (sanity)", results, "");

// A keystroke right after the store changed (a message arrived): the index catches up first.
const changed: number[] = [];
const someTopic = store.recent.newestFirst().next().value;
for (let i = 0; i < 50; i++) {
  if (someTopic) store.recent.noteTopicMax(someTopic.channelId, someTopic.topic, someTopic.maxId + 1);
  store.changed();
  const t0 = performance.now();
  finder.query("design rev", 50);
  changed.push(performance.now() - t0);
}
printFigure("keystroke after a store change, median of 50", median(changed).toFixed(2), "ms");
await stop();
