/**
 * Keystroke-to-frame latency of the real App: the App is mounted with Ink on
 * a fake TTY (120×40 unless told otherwise), with a real sync session against
 * the reference server (its own process). Two places are measured:
 * - a topic of 10,000 messages (demo data): synthetic messages are added to one
 *   topic as if fetched, and the topic is opened through the sidebar;
 * - the combined feed of a data set (`feed`, `large` unless told otherwise),
 *   opened with `a` as a user would, its messages fetched from the server.
 * Then j/k are pressed 200 times. For each key: the time from writing it to
 * stdin to the next frame written to stdout. Keys are spaced so that Ink's
 * 30 fps render throttle never holds one back (that would measure the
 * throttle, not the work). The collector's pauses during the keys are
 * counted too (the launcher keeps the young generation small for memory).
 * With BENCH_CPU_PROFILE=file, the keys alone are profiled into that file; with
 * BENCH_ALLOC_PROFILE=file, what they allocate (V8's sampling heap profile, the garbage included);
 * with BENCH_KEY_TIMES=1, each key's time in the order pressed (page turns stand out); with
 * BENCH_KEYS=K,J, those two keys instead of k and j (a page up and down at each key); with
 * BENCH_ALTERNATE=1, the two keys in turn; BENCH_GAP_MS, the pause after each frame (default 40).
 */
import "./launcher-flags.js"; // first: V8 set as bin/termchat.cjs sets it
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { PerformanceObserver, constants as perfConstants } from "node:perf_hooks";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeStdin } from "./fake-stdin.js";
import { FakeTty, pressForFrame } from "./fake-tty.js";
import { render } from "ink";
import { ApiClient } from "../src/api/http.js";
import type { Message } from "../src/api/schemas/common.js";
import { FEED as FEED_NARROW, type Narrow } from "../src/model/narrow.js";
import type { Store } from "../src/model/store.js";
import { AccountRuntime } from "../src/sync/account-runtime.js";
import { accountHandle } from "../src/sync/account-handle.js";
import { App } from "../src/ui/App.js";
import { KeypressProvider } from "../src/ui/hooks/use-keypress.js";
import { RenderProbe } from "../src/ui/render-probe.js";
import { buildSidebarRows, type SidebarRow } from "../src/ui/sidebar-rows.js";
import { percentile, printFigure, startBenchServer } from "./util.js";

// Arguments: [messages | "feed"] [columns] [rows] [data set of the feed], default 10,000 messages on 120×40.
const FEED = process.argv[2] === "feed";
const COUNT = FEED ? 0 : Number(process.argv[2] ?? 10_000);
const DATA = FEED ? (process.argv[5] ?? "large") : "demo";
const COLS = Number(process.argv[3] ?? 120);
const ROWS = Number(process.argv[4] ?? 40);
const PRESSES = 200;
/** The keys pressed: the first half of the presses the first one, then the second. */
const [UP, DOWN] = (process.env.BENCH_KEYS ?? "k,j").split(",") as [string, string];
const TOPIC = "latency bench";
const FRAME_TIMEOUT_MS = 2_000;
/** Gap after each frame before the next key: more than Ink's render throttle (1000/30 ms). */
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 40);
/** BENCH_ALTERNATE=1: the two keys in turn (the selection goes back and forth, as in the tmux side-by-side bench), not half and half. */
const ALTERNATE = Boolean(process.env.BENCH_ALTERNATE);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** 10,000 messages in one topic, newer than everything on the server, already read; bodies of varied Markdown. */
function syntheticMessages(store: Store, channelId: number, channelName: string): Message[] {
  const users = [...store.users.values()].filter((u) => !u.is_bot).slice(0, 8);
  const bodies = [
    "Short one.",
    "A **bold** claim with `code` and a [link](https://example.com/docs) in it, long enough to wrap once the pane is narrow enough for it.",
    "- one\n- two\n- three",
    "> quoted\n\nand an answer to it :thumbs_up:",
    "```js\nconst x = 1;\nconsole.log(x);\n```",
    "@**Maya Okafor** can you look at this? It has been waiting since Monday.",
  ];
  let id = 1_000_000_000;
  const end = Math.floor(Date.now() / 1000) - 3600;
  return Array.from({ length: COUNT }, (_, i) => {
    const u = users[i % users.length]!;
    return {
      id: id++,
      sender_id: u.user_id,
      sender_full_name: u.full_name,
      sender_email: u.email,
      type: "stream",
      display_recipient: channelName,
      stream_id: channelId,
      subject: TOPIC,
      timestamp: end - (COUNT - i) * 45,
      content: `${bodies[i % bodies.length]} (#${i})`,
      flags: ["read"],
      reactions: i % 7 === 0 ? [{ emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji", user_id: u.user_id }] : [],
      is_me_message: false,
    } as unknown as Message;
  });
}

const rowLabel = (r: SidebarRow) => (r.kind === "channel" ? r.name : r.kind === "topic" ? r.topic : r.kind === "header" ? "" : r.label);

const server = await startBenchServer(DATA);
// The server runs in its own process: stop it whatever happens here.
process.once("uncaughtException", (err) => {
  console.error(err);
  void server.stop().then(() => process.exit(1));
});
process.once("unhandledRejection", (err) => {
  console.error(err);
  void server.stop().then(() => process.exit(1));
});
const stateDir = await mkdtemp(join(tmpdir(), "termchat-latency-"));
const client = new ApiClient({ site: server.url, email: server.email, apiKey: server.apiKey });
const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: server.email }, stateDir });
await session.machine.start();
const store = session.machine.store!;
const general = [...store.channels.values()].find((s) => s.name === "general") ?? [...store.channels.values()][0]!;
const narrow: Narrow = { kind: "topic", channelId: general.stream_id, topic: TOPIC };
const seedStart = performance.now();
if (!FEED) store.addFetched(narrow, syntheticMessages(store, general.stream_id, general.name), { foundOldest: true, foundNewest: true, direction: "around" });
const seedMs = performance.now() - seedStart;

const stdout = new FakeTty(COLS, ROWS);
const stdin = fakeStdin();
// Which components render, by name (those that report to the render probe), counted during the keys.
const renders = new Map<string, number>();
let counting = false;
const probe = (name: string) => {
  if (counting) renders.set(name, (renders.get(name) ?? 0) + 1);
};
const instance = render(
  <RenderProbe.Provider value={probe}>
    <KeypressProvider onAnyKey={() => session.keyPressed()}>
      <App account={accountHandle(session)} />
    </KeypressProvider>
  </RenderProbe.Provider>,
  { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
);

const press = (key: string) => pressForFrame(stdout, stdin, key, GAP_MS, FRAME_TIMEOUT_MS);

/** Opens the topic of synthetic messages through the sidebar; the Enter's latency, and whether it shows. */
async function openTopic(): Promise<{ ms: number | undefined; opened: boolean }> {
  const rows = buildSidebarRows(store, {});
  const channelIndex = rows.findIndex((r) => r.kind === "channel" && r.channelId === general.stream_id);
  const headersBefore = (list: SidebarRow[], i: number) => list.slice(0, i).filter((r) => r.kind === "header").length;
  await press("\x1b"); // whatever the start view, focus the sidebar
  await press("g");
  for (let i = 0; i < channelIndex - headersBefore(rows, channelIndex); i++) await press("j");
  await press("l");
  await sleep(500); // the channel's topics arrive
  const expanded = buildSidebarRows(store, { expanded: general.stream_id });
  const topicIndex = expanded.findIndex((r) => r.kind === "topic" && r.channelId === general.stream_id && rowLabel(r) === TOPIC);
  for (let i = channelIndex; i < topicIndex; i++) await press("j");
  const ms = await press("\r");
  await sleep(500);
  return { ms, opened: stdout.last.includes(TOPIC) };
}

/** Opens the combined feed with `a` and waits (bounded) for its messages to be fetched. */
async function openFeed(): Promise<{ ms: number | undefined; opened: boolean }> {
  stdout.record();
  const ms = await press("a");
  for (let i = 0; i < 100 && (store.messages.list(FEED_NARROW)?.status ?? "fetching") === "fetching"; i++) await sleep(100);
  await sleep(1000); // what the first messages bring (read state, older ones) settles
  const opened = stdout.recorded?.includes("Combined feed") ?? false;
  stdout.recorded = undefined;
  return { ms, opened };
}

// Let start-up settle (first fetches, the Markdown engine), then open the place measured.
await sleep(1500);
const { ms: openMs, opened } = FEED ? await openFeed() : await openTopic();

// The collector's pauses while the keys are pressed.
const gcPauses: number[] = [];
const gcStarts: number[] = [];
let gcYoung = 0;
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcPauses.push(e.duration);
    gcStarts.push(e.startTime);
    if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) gcYoung++;
  }
});
gcObserver.observe({ entryTypes: ["gc"] });
const profileTo = process.env.BENCH_CPU_PROFILE;
const allocTo = process.env.BENCH_ALLOC_PROFILE;
const inspector = profileTo || allocTo ? new Session() : undefined;
if (inspector) inspector.connect();
if (inspector && profileTo) {
  await inspector.post("Profiler.enable");
  await inspector.post("Profiler.start");
}
if (inspector && allocTo) {
  await inspector.post("HeapProfiler.enable");
  await inspector.post("HeapProfiler.startSampling", { samplingInterval: 4096, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
}

// 100 × k from the newest message, then 100 × j back down.
counting = true;
const framesBefore = stdout.frames;
const cpuBefore = process.cpuUsage();
const latencies: number[] = [];
/** Each key's span, from its press to its frame: a collection that starts inside one delayed that key. */
const spans: Array<[number, number]> = [];
let missed = 0;
for (let i = 0; i < PRESSES; i++) {
  const start = performance.now();
  const ms = await press((ALTERNATE ? i % 2 === 0 : i < PRESSES / 2) ? UP : DOWN);
  if (ms === undefined) missed++;
  else {
    latencies.push(ms);
    spans.push([start, start + ms]);
  }
}
const cpu = process.cpuUsage(cpuBefore);
const framesPerKey = (stdout.frames - framesBefore) / PRESSES;
counting = false;
if (inspector && profileTo) {
  const { profile } = await inspector.post("Profiler.stop");
  await writeFile(profileTo, JSON.stringify(profile));
}
if (inspector && allocTo) {
  const { profile } = await inspector.post("HeapProfiler.stopSampling");
  await writeFile(allocTo, JSON.stringify(profile));
}
inspector?.disconnect();
gcObserver.disconnect();

if (process.env.BENCH_KEY_TIMES) console.log(`each key, ms, in order: ${latencies.map((t) => t.toFixed(1)).join(" ")}`);
const rssMb = process.memoryUsage().rss / 1024 / 1024;
// What the screen holds (garbage gone), beside what the process has: the young generation's
// pace of collections moves RSS, not this.
globalThis.gc?.();
const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
instance.unmount();
await session.dispose(500);
await client.close();
await server.stop();
await rm(stateDir, { recursive: true, force: true });

if (!FEED) printFigure(`add ${COUNT.toLocaleString("en")} messages to the topic's list (store.addFetched)`, seedMs.toFixed(1), "ms");
const what = FEED ? "the combined feed (a to frame)" : "the topic (Enter to frame)";
printFigure(`open ${what}${opened ? "" : " — NOT OPENED, figures are for another view"}`, openMs?.toFixed(1) ?? "no frame", "ms");
printFigure(`j/k to frame on ${COLS}×${ROWS}, p50 (${latencies.length} keys${missed ? `, ${missed} without a frame` : ""})`, percentile(latencies, 50).toFixed(1), "ms");
printFigure("j/k to frame, p95", percentile(latencies, 95).toFixed(1), "ms (target ≤ 6; p50 ≤ 4)");
printFigure("j/k to frame, max", Math.max(...latencies).toFixed(1), "ms");
// CPU time is less swayed than wall time by other processes on a shared machine.
printFigure("CPU time of the process per key (all its work while the keys ran)", ((cpu.user + cpu.system) / 1000 / PRESSES).toFixed(2), "ms");
const perKey = [...renders].map(([name, n]) => `${name} ${(n / PRESSES).toFixed(1)}`).join(", ");
console.log(`  renders per key: ${perKey || "none reported"}; writes to the terminal per key: ${framesPerKey.toFixed(1)}`);
const gcTotal = gcPauses.reduce((a, b) => a + b, 0);
printFigure(`collector's pauses during the keys (${gcPauses.length}, ${gcYoung} of the young generation), total`, gcTotal.toFixed(1), `ms (longest ${Math.max(0, ...gcPauses).toFixed(1)} ms)`);
const keysCollected = spans.filter(([from, to]) => gcStarts.some((t) => t >= from && t <= to)).length;
printFigure("keys with a collection between press and frame", keysCollected, `of ${spans.length}`);
printFigure("RSS after the run", rssMb.toFixed(0), "MB");
printFigure("V8 heap in use after the run and a full collection", heapMb.toFixed(1), "MB");
process.exit(0);
