/**
 * The local cache: time to the first (cached) frame and to the fresh frame of
 * the built binary in tmux while the server holds the register for 3 s; the
 * same start without the cache; the cache's size on disk; the time a write
 * takes (on the main thread, and in all) and how often writes run while
 * events arrive. With the cache, the start's phases (from the startup trace):
 * a timeline of medians, ms from process start. BENCH_NODE=path runs the
 * client with another Node.js (e.g. .tmp/nodes/v22/bin/node); the first start
 * with it fills its compile cache, as a user's first start would.
 * BENCH_NODE_FLAGS adds flags to the measured starts (for example to profile them).
 * BENCH_CACHE_COMPARE=path names another build's launcher (its bin/termchat.cjs): its cached
 * starts are made in turn with this build's, each build with its own cache, and its figures
 * printed beside them. This machine's speed moves the figures from hour to hour far more than
 * most changes do; starts taken in turn are what compares two builds.
 */
import { mkdtempSync, readFileSync, existsSync, writeFileSync, readdirSync, statSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ApiClient } from "../src/api/http.js";
import { getMessages, sendMessage } from "../src/api/routes/messages.js";
import { FEED, type Narrow } from "../src/model/narrow.js";
import { CacheKeeper } from "../src/sync/cache.js";
import { UpdateMachine } from "../src/sync/update-machine.js";
import { FaultProxy } from "../test/fixtures/fault-proxy.js";
import { TmuxSession } from "../test/e2e/tmux.js";
import { median, printFigure, startBenchServer } from "./util.js";
import { waitScreen } from "./screen-wait.js";

const data = process.argv[2] ?? "large";
const delayMs = 3000;
const runs = Number(process.env.BENCH_CACHE_RUNS ?? 7);
const eventSeconds = Number(process.env.BENCH_CACHE_SECONDS ?? 40);
const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin/termchat.cjs");
const node = process.env.BENCH_NODE ?? process.execPath;
/** BENCH_NODE_FLAGS: flags for the measured starts (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p" to profile them). */
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
const dir = mkdtempSync(join(tmpdir(), "termchat-bench-cache-"));
const { url, email, apiKey, stop } = await startBenchServer(data);
const proxy = new FaultProxy(Number(new URL(url).port));
await proxy.listen();
const rc = join(dir, "zuliprc");
writeFileSync(rc, `[api]\nemail=${email}\nkey=${apiKey}\nsite=${proxy.url}\n`, { mode: 0o600 });
/** BENCH_CACHE_COMPARE: the other build's launcher, whose starts alternate with this build's. */
const other = process.env.BENCH_CACHE_COMPARE ? resolve(process.env.BENCH_CACHE_COMPARE) : undefined;
const launchers = other ? [bin, other] : [bin];
/** Each build keeps its own local cache (a cache is read without its checks only by the build that wrote it). */
const envOf = (build: number) => ({ XDG_CACHE_HOME: join(dir, build === 0 ? "cache" : `cache-${build}`), XDG_STATE_HOME: join(dir, "state"), XDG_CONFIG_HOME: join(dir, "config") });
const cacheDir = join(dir, "cache", "termchat");

function cacheBytes(): number {
  if (!existsSync(cacheDir)) return 0;
  return readdirSync(cacheDir).filter((n) => n.endsWith(".json.gz")).reduce((n, f) => n + statSync(join(cacheDir, f)).size, 0);
}

// A first run leaves a cache: the combined feed and all DMs opened, then the feed again.
for (const [build, launcher] of launchers.entries()) {
  const s = await TmuxSession.start([node, launcher, "--config", rc], { cols: 120, rows: 40, cwd: root, env: envOf(build) });
  try {
    await waitScreen(s, /connected/);
    for (const key of ["a", "P", "a"]) {
      await s.sendKeys(key);
      await new Promise((r) => setTimeout(r, 1500));
    }
    await s.sendKeys("Q");
    await s.waitForExit({ timeoutMs: 20_000 });
  } finally {
    await s.kill();
  }
}
printFigure(`cache on disk after a run (${data}: the feed and all DMs opened)`, (cacheBytes() / 1024).toFixed(0), "KiB (gzip'd JSON)");

type Start = { first: number; fresh: number; phases: Record<string, number>; lateNodeModules: string[] };

/** One start with the register held for `delayMs`: ms from process start to the first frame and to the fresh one, and the phases. */
async function delayedStart(args: string[], i: number, build = 0): Promise<Start> {
  let release!: () => void;
  proxy.inject({ method: "POST", path: "register", action: { kind: "hold", until: new Promise<void>((r) => (release = r)) } });
  const trace = join(dir, `trace-${build}-${args.join("")}-${i}`);
  const s = await TmuxSession.start([node, ...nodeFlags, launchers[build]!, "--config", rc, ...args], { cols: 120, rows: 40, cwd: root, env: { ...envOf(build), TERMCHAT_TRACE_STARTUP: trace } });
  const timer = setTimeout(() => release(), delayMs);
  try {
    await waitScreen(s, /connected/, 60_000, delayMs - 100);
    const seenAt = Date.now();
    const deadline = Date.now() + 10_000;
    // The file may exist a moment before its lines are in it.
    const written = () => existsSync(trace) && readFileSync(trace, "utf8").endsWith("\n");
    while (!written() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const [line, phaseLine, lateLine] = readFileSync(trace, "utf8").trim().split("\n") as [string, string | undefined, string | undefined];
    const [first, origin] = line.split(/\s/).map(Number) as [number, number];
    const phases = phaseLine?.startsWith("phases ") ? (JSON.parse(phaseLine.slice(7)) as Record<string, number>) : {};
    await s.sendKeys("Q");
    await s.waitForExit({ timeoutMs: 20_000 });
    const lateNodeModules = lateLine?.startsWith("node-modules-after-flags ") ? (JSON.parse(lateLine.slice(25)) as string[]) : [];
    return { first, fresh: seenAt - origin, phases, lateNodeModules };
  } finally {
    clearTimeout(timer);
    release();
    await s.kill();
  }
}

const cached: Start[] = [];
const otherCached: Start[] = [];
for (let i = 0; i < runs; i++) {
  cached.push(await delayedStart([], i));
  if (other) otherCached.push(await delayedStart([], i, 1));
}
const uncached: Start[] = [];
for (let i = 0; i < Math.min(3, runs); i++) uncached.push(await delayedStart(["--no-cache"], i));
printFigure(`with the cache, register held ${delayMs} ms: first (cached) frame, median of ${runs}`, median(cached.map((r) => r.first)).toFixed(0), "ms from process start (target ≤ 200)");
printFigure("  fastest / slowest of those", `${Math.min(...cached.map((r) => r.first)).toFixed(0)} / ${Math.max(...cached.map((r) => r.first)).toFixed(0)}`, "ms");
printFigure(`  the fresh frame ("connected" seen in tmux, ±10 ms)`, median(cached.map((r) => r.fresh)).toFixed(0), "ms");
printFigure(`without the cache (--no-cache): first frame, median of ${uncached.length}`, median(uncached.map((r) => r.first)).toFixed(0), "ms");
printFigure(`  the fresh frame`, median(uncached.map((r) => r.fresh)).toFixed(0), "ms");
printPhases(cached);
printFigure("  starts that read their compiled code from the code cache", `${cached.filter((r) => r.phases["code-cache-used"] !== undefined).length} of ${cached.length}`, "");
const late = [...new Set(cached.flatMap((r) => r.lateNodeModules))];
printFigure("  Node's own modules loaded after the V8 flags (compiled from source)", late.length === 0 ? "none" : late.join(" "), "");
if (other) {
  const cpu = (starts: Start[]) => median(starts.map((r) => r.phases.cpu).filter((v): v is number => v !== undefined)).toFixed(0);
  printFigure(`the other build (${other}), its starts taken in turn with these: first (cached) frame, median of ${runs}`, median(otherCached.map((r) => r.first)).toFixed(0), `ms (this build: ${median(cached.map((r) => r.first)).toFixed(0)})`);
  printFigure("  fastest / slowest of those", `${Math.min(...otherCached.map((r) => r.first)).toFixed(0)} / ${Math.max(...otherCached.map((r) => r.first)).toFixed(0)}`, "ms");
  printFigure("  CPU time used by the first frame (user + system)", cpu(otherCached), `ms (this build: ${cpu(cached)})`);
  printPhases(otherCached);
}

/** The cached start's phases: medians of each mark, and of the spans between them. */
function printPhases(starts: Start[]): void {
  const at = (k: string) => median(starts.map((r) => r.phases[k]).filter((v): v is number => v !== undefined));
  const span = (a: string, b: string) => median(starts.filter((r) => r.phases[a] !== undefined && r.phases[b] !== undefined).map((r) => r.phases[b]! - r.phases[a]!));
  process.stdout.write(`  the cached start, phase by phase (median of ${starts.length}; ms from process start, and the span):\n`);
  const rows: Array<[string, number, number]> = [
    ["Node.js bootstrap", at("bootstrap"), at("bootstrap")],
    ["Node's modules loaded, V8 flags set (launcher)", at("v8-flags"), span("bootstrap", "v8-flags")],
    ["the entry's modules loaded and evaluated (bundle load)", at("entry"), span("v8-flags", "entry")],
    ["register request sent (HTTP client ready)", at("register-sent"), span("entry", "register-sent")],
    ["session modules loaded (sync, model, schemas)", at("sync-modules"), span("register-sent", "sync-modules")],
    ["yoga's WebAssembly compiled (span: its instantiation)", at("yoga"), span("yoga-start", "yoga")],
    ["UI modules loaded (Ink, React, yoga, the App)", at("ui-modules"), span("register-sent", "ui-modules")],
    ["cache file read", at("cache-read"), NaN],
    ["  gunzip + JSON.parse", at("cache-parsed"), span("cache-read", "cache-parsed")],
    ["  checked, store built", at("cache-store"), span("cache-parsed", "cache-store")],
    ["session open", at("session"), NaN],
    ["settings read", at("settings"), NaN],
    ["first render starts", at("render"), NaN],
    ["first frame written (span: React render + layout + write)", at("first-frame"), span("render", "first-frame")],
    ["CPU time used by then (user + system)", at("cpu"), NaN],
  ];
  for (const [label, t, d] of rows) printFigure(`    ${label}`, Number.isNaN(t) ? "–" : t.toFixed(0), Number.isNaN(d) ? "ms" : `ms  (${d.toFixed(0)} ms)`);
}

// Writes, in this process: a live store with the feed and the newest topics loaded.
{
  const client = new ApiClient({ site: url, email, apiKey });
  const machine = new UpdateMachine(client);
  const writesDir = join(dir, "writes");
  const keeper = await CacheKeeper.open(machine, { dir: writesDir, account: { site: client.site.href, email } });
  const store = await machine.start();
  const common = { apply_markdown: false, client_gravatar: true, allow_empty_topic_name: true } as const;
  const feed = await getMessages(client, { ...common, narrow: [], anchor: "newest", num_before: 1000, num_after: 0 });
  store.addFetched(FEED, feed.messages, { foundOldest: feed.found_oldest, foundNewest: feed.found_newest, direction: "around" });
  const topics = new Map<string, Narrow>();
  for (const m of feed.messages.toReversed()) {
    if (m.type === "stream" && m.stream_id !== undefined) topics.set(`${m.stream_id}:${m.subject}`, { kind: "topic", channelId: m.stream_id, topic: m.subject });
    if (topics.size >= 11) break;
  }
  for (const n of topics.values()) {
    if (n.kind !== "topic") continue;
    const r = await getMessages(client, {
      ...common,
      narrow: [{ operator: "channel", operand: n.channelId }, { operator: "topic", operand: n.topic }],
      anchor: "newest",
      num_before: 300,
      num_after: 0,
    });
    store.addFetched(n, r.messages, { foundOldest: r.found_oldest, foundNewest: r.found_newest, direction: "around" });
  }
  const snap: number[] = [];
  const total: number[] = [];
  for (let i = 0; i < 10; i++) {
    store.changed();
    await keeper.write();
    snap.push(keeper.stats.lastSnapshotMs);
    total.push(keeper.stats.lastWriteMs);
  }
  printFigure(`one write, ${1 + topics.size} narrows of up to 300 messages: snapshot (main thread)`, median(snap).toFixed(1), "ms (median of 10)");
  printFigure("  in all (JSON, gzip in the thread pool, temp file, fsync, rename)", median(total).toFixed(1), "ms");
  printFigure("  size on disk", (keeper.stats.lastBytes / 1024).toFixed(0), "KiB");
  await keeper.dispose();
  await machine.stop();

  // How often: a fresh keeper with its default policy while a message arrives every second.
  const machine2 = new UpdateMachine(client);
  const keeper2 = await CacheKeeper.open(machine2, { dir: join(dir, "writes2"), account: { site: client.site.href, email } });
  const store2 = await machine2.start();
  const channelId = [...store2.channels.keys()][0]!;
  const t0 = Date.now();
  let sent = 0;
  while (Date.now() - t0 < eventSeconds * 1000) {
    await sendMessage(client, { type: "stream", to: channelId, topic: "bench cache", content: `tick ${sent++}` });
    await new Promise((r) => setTimeout(r, 1000));
  }
  printFigure(`writes while ${sent} messages arrived over ${eventSeconds} s (policy: 5 s after the register, then ≤ 1 per 30 s, and at exit)`, keeper2.stats.writes, "writes");
  await keeper2.dispose();
  await machine2.stop();
  await client.close();
}

await proxy.close();
await stop();
rmSync(dir, { recursive: true, force: true });
