/**
 * Hostile content: the real App (Ink on a fake 120×40 terminal, a real sync session) while
 * something heavy arrives, with k and G (up one, back to the newest) pressed every 100 ms throughout. For each key, the time from
 * writing it to the first frame written after the app read it; for the case, the slowest of those
 * and the peak RSS (VmHWM, reset when the case starts). The server, its proxy and the members who
 * write run in another process (hostile-serve.ts). One case per run (argv[2]):
 * - idle: the neighbours, first frame and RSS at rest;
 * - markdown, reactions, poll, names, bomb, batch, trickle: the cases of test/fixtures/hostile-content.ts;
 * - busy: members post 50 messages a second for a minute across four channels; keys p50/p95/max,
 *   RSS growth, and whether the unread counts equal the server's at the end.
 * Keys are due every 100 ms and timed from when they were due (see press). The idle case gives the
 * floor (a shared machine adds its own waits). To look closer at the busy minute:
 * BENCH_BUSY_SECONDS (its length), BENCH_MEMORY_SAMPLES=1 (memory every 2 s),
 * BENCH_ALLOCATIONS=FILE (a sampling profile of its allocations), BENCH_HEAP_SNAPSHOT=FILE
 * (heap snapshots before and after; writing them takes memory, so the figures are then off),
 * BENCH_V8_HEAP_GROWTH=1 (V8's own heap growth, not the app's, src/ui/startup-memory.ts).
 */
import "./launcher-flags.js"; // first: V8 set as bin/termchat.cjs sets it
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { render } from "ink";
import { ApiClient, encodeParams } from "../src/api/http.js";
import type { Store } from "../src/model/store.js";
import { AccountRuntime } from "../src/sync/account-runtime.js";
import { accountHandle } from "../src/sync/account-handle.js";
import { App } from "../src/ui/App.js";
import { renderMarkdown } from "../src/render/markdown.js";
import { LayoutCache } from "../src/ui/layout-cache.js";
import { renderContext } from "../src/ui/message-layout.js";
import { KeypressProvider } from "../src/ui/hooks/use-keypress.js";
import { releaseStartupGarbage, steadyHeapGrowth } from "../src/ui/startup-memory.js";
import { awkwardName, MAX_NAME_LENGTH, MAX_TOPIC_LENGTH, PATHOLOGICAL_MARKDOWN } from "../test/fixtures/hostile-content.js";
import { fakeStdin } from "./fake-stdin.js";
import { FakeTty } from "./fake-tty.js";
import { rssParts } from "./memory-map.js";
import { percentile, printFigure } from "./util.js";

const CASE = process.argv[2] ?? "idle";
const COLS = 120;
const ROWS = 40;
const KEY_EVERY_MS = 100;
const FRAME_TIMEOUT_MS = 5_000;
const mib = (bytes: number) => (bytes / 1048576).toFixed(0);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---- the other process ------------------------------------------------------------------------

const here = dirname(fileURLToPath(import.meta.url));
const child = spawn(process.execPath, [join(here, "hostile-serve.js")], { stdio: ["pipe", "pipe", "inherit"] });
const answers = new Map<number, (v: { result?: unknown; error?: string }) => void>();
const lines = createInterface({ input: child.stdout! });
const first = new Promise<{ url: string; serverUrl: string; email: string; apiKey: string }>((resolve) => lines.once("line", (l) => resolve(JSON.parse(l))));
lines.on("line", (l) => {
  const m = JSON.parse(l) as { id?: number; result?: unknown; error?: string };
  if (m.id !== undefined) answers.get(m.id)?.(m);
});
let nextCommand = 0;
async function command<T>(cmd: Record<string, unknown>): Promise<T> {
  const id = nextCommand++;
  const answer = await new Promise<{ result?: unknown; error?: string }>((resolve) => {
    answers.set(id, resolve);
    child.stdin!.write(JSON.stringify({ ...cmd, id }) + "\n");
  });
  if (answer.error) throw new Error(answer.error);
  return answer.result as T;
}
const stopChild = () => {
  child.stdin!.end();
  setTimeout(() => child.kill("SIGKILL"), 3000).unref();
};
process.once("uncaughtException", (err) => {
  console.error(err);
  stopChild();
  process.exit(1);
});

// ---- the client -------------------------------------------------------------------------------

const info = await first;
const stateDir = await mkdtemp(join(tmpdir(), "termchat-hostile-"));
const client = new ApiClient({ site: info.url, email: info.email, apiKey: info.apiKey });
const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: info.email }, stateDir });
const { machine } = session;
await machine.start();
const store = (): Store => machine.store!;

/** The App's layout cache, whose count of message bodies laid out the figures read. */
const layoutStats = new LayoutCache();
const stdout = new FakeTty(COLS, ROWS);
const stdin = fakeStdin();
let keyRead: (() => void) | undefined;
const mounted = performance.now();
const instance = render(
  <KeypressProvider
    onAnyKey={() => {
      session.keyPressed();
      keyRead?.();
    }}
  >
    <App account={accountHandle(session)} layoutCache={layoutStats} />
  </KeypressProvider>,
  { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
);
if (stdout.frames === 0) await stdout.nextWrite(10_000);
const firstFrameMs = stdout.firstWriteAt - mounted;
// As the app does after its first frame (src/ui/run.tsx); BENCH_V8_HEAP_GROWTH=1 leaves V8's own
// heap growth in place (to compare with).
if (!process.env.BENCH_V8_HEAP_GROWTH) {
  releaseStartupGarbage(0);
  steadyHeapGrowth();
}

const status = () => readFileSync("/proc/self/status", "utf8");
const rss = () => Number(/VmRSS:\s+(\d+)/.exec(status())?.[1]) * 1024;
const peak = () => Number(/VmHWM:\s+(\d+)/.exec(status())?.[1]) * 1024;
/** Starts the peak over from now (Linux: "5" to clear_refs resets VmHWM). */
const resetPeak = () => {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
  } catch {
    // not allowed here: the peak is the process's
  }
};
const settled = async () => {
  globalThis.gc?.();
  await sleep(1500);
  globalThis.gc?.();
  return rss();
};

/**
 * Writes one key that a terminal delivered at `at` (performance.now(); default now); the time
 * from then until the first frame written after the app read it, or undefined when nothing was
 * drawn within the timeout. The keys come from this same process: while the app holds the event
 * loop, no key can be written, so each is timed from when it was due, as a key typed then waits.
 */
async function press(key: string, at = performance.now()): Promise<number | undefined> {
  const read = new Promise<number>((resolve) => (keyRead = () => resolve(performance.now())));
  stdin.write(key);
  const deadline = at + FRAME_TIMEOUT_MS;
  const readAt = await Promise.race([read, sleep(FRAME_TIMEOUT_MS).then(() => undefined)]);
  keyRead = undefined;
  if (readAt === undefined) return undefined;
  while (stdout.lastWriteAt < readAt) {
    if (!(await stdout.nextWrite(deadline - performance.now()))) return undefined;
  }
  return stdout.lastWriteAt - at;
}

/** k and G in turn (up one, back to the newest: what arrives is drawn), one due every KEY_EVERY_MS, until stopped; the latencies, the keys that drew nothing, and the longest event-loop stall. */
function keysMeanwhile() {
  const latencies: number[] = [];
  let missed = 0;
  let running = true;
  const stalls = monitorEventLoopDelay({ resolution: 5 });
  stalls.enable();
  const start = performance.now();
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const due = start + i * KEY_EVERY_MS;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const ms = await press(i % 2 === 0 ? "k" : "G", due);
      if (ms === undefined) missed++;
      else latencies.push(ms);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      stalls.disable();
      return { latencies, missed, stallMs: stalls.max / 1e6 };
    },
  };
}

async function until(check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(50);
  }
}

/** Runs a case with keys pressed throughout, and prints its figures. */
async function measure(label: string, arrive: () => Promise<void>): Promise<void> {
  await settled();
  resetPeak();
  const before = rss();
  const keys = keysMeanwhile();
  const t = performance.now();
  await arrive();
  const tookMs = performance.now() - t;
  await sleep(1000); // what it set off (renders, a rebuild) settles while keys go on
  const { latencies, missed, stallMs } = await keys.stop();
  printFigure(`${label}: slowest key to frame (${latencies.length} keys${missed ? `, ${missed} drew nothing in 5 s` : ""})`, Math.max(...latencies).toFixed(0), "ms (target ≤ 100)");
  printFigure(`${label}:   p95 / longest event-loop stall`, `${percentile(latencies, 95).toFixed(0)} / ${stallMs.toFixed(0)}`, "ms");
  printFigure(`${label}: peak RSS (at rest before: ${mib(before)} MiB; arrived in ${(tookMs / 1000).toFixed(1)} s)`, mib(peak()), "MiB");
}

const users = () => [...store().users.values()].filter((u) => !u.is_bot && u.user_id !== store().selfId).map((u) => u.user_id);
const general = () => [...store().channels.values()].find((c) => c.name === "general")!;

/** A member posts `content`; resolves with its id once the client has it. */
async function post(content: string, topic = "heavy"): Promise<number> {
  const { id } = await command<{ id: number }>({ cmd: "send", channel: "general", topic, content });
  await until(() => store().messages.byId.has(id), "the message to arrive");
  return id;
}

await sleep(2000); // start-up's fetches and the Markdown engine
// The combined feed at its newest message, where what arrives is drawn; k then G move the
// selection up one and back to the newest (wherever it now is), so each key draws.
for (const key of ["a", "G"]) await press(key);
const idle = await settled();

switch (CASE) {
  case "idle":
    printFigure("first frame after mounting the App (session already started)", firstFrameMs.toFixed(0), "ms");
    printFigure("RSS at rest, the combined feed open", mib(idle), "MiB");
    await measure("nothing arriving (the floor: this machine, Ink, the App)", () => sleep(5000));
    break;
  case "markdown":
    const drawnBefore = layoutStats.bodyRenders;
    await measure(`${Object.keys(PATHOLOGICAL_MARKDOWN).length} messages of 10,000 pathological characters`, async () => {
      for (const src of Object.values(PATHOLOGICAL_MARKDOWN)) await post(src, "pathological");
    });
    printFigure("  message bodies laid out meanwhile (each arrival drawn)", layoutStats.bodyRenders - drawnBefore, "");
    // The renderer alone, per case (CPU time, which a busy machine inflates less than waits): a
    // context of its own, so that nothing comes from the render cache.
    {
      const ctx = { ...renderContext(store(), true, undefined, true, "bench"), names: "bench-alone" };
      const cpu: Array<[string, number]> = Object.entries(PATHOLOGICAL_MARKDOWN).map(([name, src]) => {
        const before = process.cpuUsage();
        renderMarkdown(src, ctx, COLS - 30);
        const used = process.cpuUsage(before);
        return [name, (used.user + used.system) / 1000];
      });
      cpu.sort((a, b) => b[1] - a[1]);
      printFigure(`  the renderer alone, CPU for all ${cpu.length}`, cpu.reduce((n, [, ms]) => n + ms, 0).toFixed(0), "ms");
      printFigure(`  the renderer alone, CPU for the costliest (${cpu[0]![0]}; then ${cpu[1]![0]})`, `${cpu[0]![1].toFixed(0)}; ${cpu[1]![1].toFixed(0)}`, "ms");
    }
    break;
  case "reactions": {
    const id = await post("react to this");
    await measure("1,000 different reactions on one message", async () => {
      await command({ cmd: "inject", kind: "reactions", messageId: id, count: 1000, users: users() });
      await until(() => (store().messages.byId.get(id)?.reactions.length ?? 0) >= 1000, "the reactions");
    });
    break;
  }
  case "poll": {
    const id = await post("/poll Where to?\nHere\nThere");
    await measure("a poll of 5,000 options and votes", async () => {
      await command({ cmd: "inject", kind: "poll", messageId: id, users: users().slice(0, 5) });
      await until(() => (store().messages.byId.get(id)?.submessages?.length ?? 0) > 7000, "the options", 60_000);
    });
    break;
  }
  case "names":
    await measure(`names of ${MAX_NAME_LENGTH} and a topic of ${MAX_TOPIC_LENGTH} code points, wide and combining`, async () => {
      const events = users().map((id, i) => ({ type: "realm_user", op: "update", person: { user_id: id, full_name: awkwardName(MAX_NAME_LENGTH, i) } }));
      await command({ cmd: "inject", kind: "names", events });
      for (let i = 0; i < 5; i++) await post(`in a long topic ${i}`, awkwardName(MAX_TOPIC_LENGTH, i));
    });
    break;
  case "bomb": {
    const generation = machine.storeGeneration;
    await measure("an events answer of gzip that decompresses to 1.1 GiB", async () => {
      await command({ cmd: "inject", kind: "bomb", decodedBytes: 1100 * 1024 * 1024 });
      await until(() => machine.storeGeneration > generation && machine.state.kind === "live", "the session to go on");
    });
    break;
  }
  case "batch": {
    const at = { channelId: general().stream_id, channelName: "general", senderId: users()[0]!, senderName: "Someone", topic: "a long absence", firstMessageId: 10_000_000, timestamp: Math.floor(Date.now() / 1000) - 100_000 };
    await measure("a batch of 100,000 events", async () => {
      const { unread } = await command<{ unread: number }>({ cmd: "inject", kind: "batch", count: 100_000, at });
      await until(() => store().unreads.countInTopic(at.channelId, at.topic) === unread, "the batch to be applied");
    });
    break;
  }
  case "trickle":
    await measure("an events answer trickling in a byte a second", async () => {
      let said = false;
      const off = machine.onState((s: typeof machine.state) => (said ||= s.kind === "reconnecting" && s.error.includes("too slow")));
      await command({ cmd: "inject", kind: "trickle" });
      await until(() => said && machine.state.kind === "live", "the stall to be said and the session to go on");
      off();
    });
    break;
  case "busy": {
    const channels = ["general", "engineering", "design", "random"];
    const before = await settled();
    const { heapUsed: heapBefore, heapTotal: heapTotalBefore } = process.memoryUsage();
    const partsBefore = rssParts(process.pid);
    if (process.env.BENCH_HEAP_SNAPSHOT) (await import("node:v8")).writeHeapSnapshot(`${process.env.BENCH_HEAP_SNAPSHOT}.before`);
    resetPeak();
    // BENCH_ALLOCATIONS=FILE: a sampling profile of every allocation of the minute, the collected ones too.
    const allocations = process.env.BENCH_ALLOCATIONS ? new (await import("node:inspector")).Session() : undefined;
    const post = (method: string, params?: object) => new Promise<unknown>((resolve, reject) => allocations!.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
    if (allocations) {
      allocations.connect();
      await post("HeapProfiler.startSampling", { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    const keys = keysMeanwhile();
    const cpuBefore = process.cpuUsage();
    // BENCH_MEMORY_SAMPLES=1: the process's memory every 2 s of the minute, by kind.
    const sampler = process.env.BENCH_MEMORY_SAMPLES
      ? setInterval(() => {
          const m = process.memoryUsage();
          console.error(`rss ${mib(m.rss)} heapTotal ${mib(m.heapTotal)} heapUsed ${mib(m.heapUsed)} external ${mib(m.external)} arrayBuffers ${mib(m.arrayBuffers)} messages ${store().messages.byId.size}`);
        }, 2000)
      : undefined;
    const done = await command<{ sent: number; late: number; failed: number }>({ cmd: "busy", perSecond: 50, seconds: Number(process.env.BENCH_BUSY_SECONDS ?? 60), channels });
    const { latencies, missed, stallMs } = await keys.stop();
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(sampler);
    if (allocations) {
      const { profile } = (await post("HeapProfiler.stopSampling")) as { profile: unknown };
      writeFileSync(process.env.BENCH_ALLOCATIONS!, JSON.stringify(profile));
    }
    // The server's unread messages for the owner, from a fresh register, against the client's.
    const auth = "Basic " + Buffer.from(`${info.email}:${info.apiKey}`).toString("base64");
    const serverUnreads = async () => {
      const res = await fetch(`${info.serverUrl}/api/v1/register`, { method: "POST", headers: { authorization: auth }, body: encodeParams({ fetch_event_types: ["message", "update_message_flags"], apply_markdown: false }) });
      const reg = (await res.json()) as { queue_id: string; unread_msgs: { streams: Array<{ unread_message_ids: number[] }>; pms: Array<{ unread_message_ids: number[] }>; huddles: Array<{ unread_message_ids: number[] }> } };
      void fetch(`${info.serverUrl}/api/v1/events?${encodeParams({ queue_id: reg.queue_id })}`, { method: "DELETE", headers: { authorization: auth } });
      const u = reg.unread_msgs;
      return [...u.streams, ...u.pms, ...u.huddles].flatMap((x) => x.unread_message_ids).sort((a, b) => a - b);
    };
    let server: number[] = [];
    let mine: number[] = [];
    const deadline = Date.now() + 15_000;
    do {
      await sleep(500);
      server = await serverUnreads();
      mine = store().unreads.allIds().sort((a, b) => a - b);
    } while (JSON.stringify(server) !== JSON.stringify(mine) && Date.now() < deadline);
    const after = await settled();
    await sleep(8000); // V8 gives back what it no longer needs a few seconds into a quiet spell
    const later = await settled();
    printFigure(`messages posted (${done.late} late by over 100 ms${done.failed ? `, ${done.failed} refused` : ""})`, done.sent, "");
    printFigure(`keys to frame meanwhile, p50 (${latencies.length} keys${missed ? `, ${missed} drew nothing in 5 s` : ""})`, percentile(latencies, 50).toFixed(0), "ms");
    printFigure("keys to frame, p95", percentile(latencies, 95).toFixed(0), "ms (target ≤ 100)");
    printFigure("keys to frame, max", Math.max(...latencies).toFixed(0), "ms");
    printFigure("  longest event-loop stall", stallMs.toFixed(0), "ms");
    printFigure("  the client's CPU time meanwhile (all its threads, the collector's too)", ((cpu.user + cpu.system) / 1000).toFixed(0), "ms");
    printFigure("RSS at rest before / after the minute", `${mib(before)} / ${mib(after)}`, "MiB");
    printFigure("  growth", mib(after - before), "MiB (target ≤ 30)");
    printFigure("  growth ten seconds later", mib(later - before), "MiB");
    printFigure("  peak during the minute", mib(peak()), "MiB");
    const m = process.memoryUsage();
    printFigure("  heap used before / after; heap total before / after; external after", `${mib(heapBefore)} / ${mib(m.heapUsed)}; ${mib(heapTotalBefore)} / ${mib(m.heapTotal)}; ${mib(m.external)}`, "MiB");
    const partsAfter = rssParts(process.pid);
    if (partsBefore && partsAfter) {
      const grew = (k: keyof typeof partsAfter) => mib(partsAfter[k] - partsBefore[k]);
      printFigure("  where RSS grew: anonymous (V8's heap…), malloc, node's data, libraries", `${grew("anonymous")}, ${grew("mallocHeap")}, ${grew("nodeData")}, ${grew("libraries")}`, "MiB");
    }
    // BENCH_HEAP_SNAPSHOT=FILE: where the heap is after the minute, for a closer look.
    if (process.env.BENCH_HEAP_SNAPSHOT) (await import("node:v8")).writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT);
    printFigure("  messages held / lists held", `${store().messages.byId.size} / ${store().messages.lists.size}`, "");
    printFigure(`unread counts equal the server's (${server.length} unread)`, JSON.stringify(server) === JSON.stringify(mine) ? "yes" : `NO (${mine.length})`, "");
    break;
  }
  default:
    throw new Error(`no such case: ${CASE}`);
}

instance.unmount();
await session.dispose(500);
await client.close();
stopChild();
await rm(stateDir, { recursive: true, force: true });
process.exit(0);
