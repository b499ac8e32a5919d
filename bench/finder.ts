/**
 * The jump finder on a data set: the store as the client builds it, every
 * channel's topic list and the recent view's first batch of messages loaded,
 * then the index built once (time, heap) and realistic queries typed a
 * character at a time: each keystroke's time to the ranked top 50, with
 * their matched positions (p50/p95/max over all keystrokes).
 */
import { encodeParams } from "../src/api/http.js";
import { registerRequest } from "../src/api/register-request.js";
import { getMessagesResponseSchema, topicsResponseSchema } from "../src/api/schemas/responses.js";
import { registerResponseSchema } from "../src/api/schemas/register.js";
import { JumpIndex } from "../src/model/jump-index.js";
import { addRecentMessages } from "../src/model/recent-store.js";
import { firstRecentFetch } from "../src/model/recent-loading.js";
import { Store } from "../src/model/store.js";
import { median, printFigure, startBenchServer, wholeRegisterParams } from "./util.js";

const { url, email, apiKey, stop } = await startBenchServer(process.argv[2] ?? "large");
const auth = "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
async function api(method: string, path: string, params: Record<string, unknown> = {}): Promise<unknown> {
  const body = encodeParams(params);
  const res = method === "GET" ? await fetch(`${url}/api/v1/${path}?${body}`, { headers: { authorization: auth } }) : await fetch(`${url}/api/v1/${path}`, { method, headers: { authorization: auth }, body });
  return res.json();
}

const registered = JSON.stringify(await api("POST", "register", registerRequest(wholeRegisterParams()).params));
const probe = new Store(registerResponseSchema.parse(JSON.parse(registered)));
const channelIds = [...new Set([...probe.channels.keys(), ...probe.channelsModel.unsubscribed.keys(), ...probe.channelsModel.neverSubscribed.keys()])];
const topicLists = new Map<number, ReturnType<typeof topicsResponseSchema.parse>["topics"]>();
for (const id of channelIds) {
  const r = topicsResponseSchema.safeParse(await api("GET", `users/me/${id}/topics`));
  if (r.success) topicLists.set(id, r.data.topics); // private channels one cannot see are left out
}
const first = getMessagesResponseSchema.parse(await api("GET", "messages", { ...firstRecentFetch(), apply_markdown: false }));
/** A store as the client has it once the topic lists and the recent view's first batch are in. */
function loadedStore(): Store {
  const s = new Store(registerResponseSchema.parse(JSON.parse(registered)));
  for (const [id, topics] of topicLists) s.setTopics(id, topics);
  addRecentMessages(s, first.messages);
  return s;
}
const topicCount = [...topicLists.values()].reduce((n, t) => n + t.length, 0);

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

// What people type: names, channels, topics, a channel>topic, sigils, a view, typos that only match fuzzily.
const someChannel = store.channels.get([...store.channels.keys()][42] as number)?.name ?? "general";
const otherChannel = store.channel(channelIds[1500] as number)?.name ?? "general";
const queries = ["maya okafor", "priya", "okafor", "general", someChannel, otherChannel, "design review", "incident 4733", "relpln", `gen>deploys`, "@hana", "#cache inv", "recent", "inbox", "zoe ya", "latncy spk"];
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
