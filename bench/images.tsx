/**
 * One large image arriving in the open conversation: the real App on a fake 120×40 TTY with a
 * real sync session against the reference server (its own process, demo data), the combined
 * feed following the newest message. Another member uploads the image and sends a message
 * linking it; meanwhile j/k are pressed from another thread, ten a second whatever the main
 * thread is doing (a key pressed while it is busy waits as a person's would), until the preview
 * is decoded (or refused) and a second more.
 *
 * Figures: the first frame and the resident memory while idle (the neighbours: what must not
 * get worse), then the peak resident memory from the message's send to the end (the kernel's
 * high-water mark, reset just before: it sees the decoder's thread too) and the slowest
 * key-to-frame in that span.
 *
 * Arguments: png | jpeg | gif | small (a 64×64 PNG: what any picture costs, the neighbour).
 * BENCH_SERVER_THUMBNAILS=off starts the server without thumbnails (the client then decodes
 * the original, as a client of an older server does).
 */
import "./launcher-flags.js"; // first: V8 set as bin/termchat.cjs sets it
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Writable } from "node:stream";
import { Worker } from "node:worker_threads";
import { render } from "ink";
import { ApiClient } from "../src/api/http.js";
import { AccountRuntime } from "../src/sync/account-runtime.js";
import { accountHandle } from "../src/sync/account-handle.js";
import { App } from "../src/ui/App.js";
import { KeypressProvider } from "../src/ui/hooks/use-keypress.js";
import { previewsOf } from "../src/ui/images/use-image-previews.js";
import { fakeStdin } from "./fake-stdin.js";
import { IMAGE_FILES } from "./image-files.js";
import { printFigure, startBenchServer } from "./util.js";

const kind = (process.argv[2] ?? "png") as keyof typeof IMAGE_FILES;
/** How often a key is pressed: well apart from Ink's render throttle (1000/30 ms), so each key has a frame of its own. */
const KEY_EVERY_MS = 100;
const FRAME_TIMEOUT_MS = 5_000;
/** Keys that had no frame within FRAME_TIMEOUT_MS (not counted in the times). */
let missed = 0;
const dir = resolve(import.meta.dirname, "images");
execFileSync(process.execPath, [join(import.meta.dirname, "image-files.js"), dir]);
const file = readFileSync(join(dir, IMAGE_FILES[kind]));

class FakeTty extends Writable {
  readonly isTTY = true;
  columns = 120;
  rows = 40;
  firstWrite = 0;
  /** Called at every write (a frame, or part of one). */
  onWrite: (() => void) | undefined;
  override _write(_chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.firstWrite ||= performance.now();
    this.onWrite?.();
    done();
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

const server = await startBenchServer("demo");
const stop = () => void server.stop().then(() => process.exit(1));
process.once("uncaughtException", (err) => (console.error(err), stop()));
process.once("unhandledRejection", (err) => (console.error(err), stop()));

// Another member: uploads the file now (outside what is measured), sends the message later.
const login = await fetch(`${server.url}/api/v1/fetch_api_key`, { method: "POST", body: new URLSearchParams({ username: "omar@lighthouse.test", password: "termchat-demo" }) });
const { api_key } = (await login.json()) as { api_key: string };
const auth = "Basic " + Buffer.from(`omar@lighthouse.test:${api_key}`).toString("base64");
const form = new FormData();
form.append("file", new Blob([file]), IMAGE_FILES[kind]);
const uploaded = (await (await fetch(`${server.url}/api/v1/user_uploads`, { method: "POST", headers: { authorization: auth }, body: form })).json()) as { url: string };

const stateDir = await mkdtemp(join(tmpdir(), "termchat-bench-images-"));
const client = new ApiClient({ site: server.url, email: server.email, apiKey: server.apiKey });
const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: server.email }, stateDir });
await session.machine.start();
const account = accountHandle(session);
const stdout = new FakeTty();
const stdin = fakeStdin();
const mounted = performance.now();
const instance = render(
  <KeypressProvider onAnyKey={() => session.keyPressed()}>
    <App account={account} />
  </KeypressProvider>,
  { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
);

/** Watches the main thread: returns a function that stops and gives the longest time a 5 ms timer waited past its due. */
function stallWatch(): () => number {
  let longest = 0;
  let due = performance.now() + 5;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - due);
    due = now + 5;
  }, 5);
  return () => (clearInterval(timer), longest);
}

/**
 * Keys from another thread, one every KEY_EVERY_MS whatever the main thread is doing, as a person
 * types: a key pressed while the main thread is busy (decoding, say) waits, and the wait counts.
 * A key's time runs from when the other thread pressed it to the first frame written after it;
 * both clocks are the wall clock (performance.timeOrigin + now()).
 */
const KEYS_SOURCE = `
  const { parentPort } = require("node:worker_threads");
  const timer = setInterval(() => parentPort.postMessage(performance.timeOrigin + performance.now()), ${KEY_EVERY_MS});
  parentPort.on("message", () => clearInterval(timer));`;

/**
 * Presses keys until `done()`, each chosen by `key()`; returns the key-to-frame times. A key
 * given as `{ uncounted }` may change nothing on screen (so no frame of its own): not timed.
 * Keys still without a frame FRAME_TIMEOUT_MS after the last one count as missed.
 */
async function pressUntil(key: () => string | { uncounted: string }, done: () => boolean): Promise<number[]> {
  const times: number[] = [];
  const pending: Array<{ at: number; counted: boolean }> = [];
  const wall = () => performance.timeOrigin + performance.now();
  stdout.onWrite = () => {
    const now = wall();
    for (const p of pending.splice(0)) if (p.counted) times.push(now - p.at);
  };
  const keys = new Worker(KEYS_SOURCE, { eval: true });
  await new Promise<void>((finish) => {
    keys.on("message", (pressedAt: number) => {
      if (done()) {
        keys.postMessage("stop");
        return finish();
      }
      const k = key();
      pending.push({ at: pressedAt, counted: typeof k === "string" });
      stdin.write(typeof k === "string" ? k : k.uncounted);
    });
  });
  await keys.terminate();
  for (let waited = 0; pending.some((p) => p.counted) && waited < FRAME_TIMEOUT_MS; waited += 50) await sleep(50);
  missed += pending.filter((p) => p.counted).length;
  pending.length = 0;
  stdout.onWrite = undefined;
  return times;
}

await sleep(1500);
const firstFrameMs = stdout.firstWrite - mounted;
// The combined feed, at its newest message.
const opening = ["a", "G"];
await pressUntil(() => ({ uncounted: opening.shift()! }), () => opening.length === 0);
await sleep(1500);
let idleKeys = 0;
// k then j, in turn: each moves the selection by one message, so each draws a frame.
let last = "j";
const alternate = () => (last = last === "k" ? "j" : "k");
const idleStall = stallWatch();
const before = await pressUntil(alternate, () => idleKeys++ >= 40);
const idleStallMs = idleStall();
const idleMissed = missed;
gc();
await sleep(500);
const idleRss = status("VmRSS");

// From here: the kernel's high-water mark starts again at the present resident size.
writeFileSync("/proc/self/clear_refs", "5");
const previews = previewsOf(account);
const version = previews.version;
const general = [...session.machine.store!.channels.values()].find((c) => c.name === "general")!;
const sent = performance.now();
void fetch(`${server.url}/api/v1/messages`, {
  method: "POST",
  headers: { authorization: auth },
  body: new URLSearchParams({ type: "stream", to: String(general.stream_id), topic: "image bench", content: `[${IMAGE_FILES[kind]}](${uploaded.url})` }),
});
let readyAt = 0;
let arrived = false;
const deadline = sent + 60_000;
missed = 0;
const spanStall = stallWatch();
const during = await pressUntil(
  () => {
    // Once the message is in, G shows the newest (not timed: the view may have followed it
    // already, and then nothing changes); then k and j in turn keep it on screen.
    const isIn = !arrived && [...(session.machine.store?.messages.byId.values() ?? [])].some((m) => m.content.includes(uploaded.url));
    arrived ||= isIn;
    if (!isIn) return alternate();
    last = "j";
    return { uncounted: "G" };
  },
  () => {
    if (!readyAt && previews.version > version) readyAt = performance.now();
    return performance.now() > deadline || (readyAt > 0 && performance.now() - readyAt > 1000);
  },
);
const spanStallMs = spanStall();
const peakRss = status("VmHWM");

// What the preview became: the cache's entry for the file or one of its thumbnails (read without asking for anything).
const thumbnail = (name: string) => `/user_uploads/thumbnail/${uploaded.url.slice("/user_uploads/".length)}/${name}`;
const paths = [uploaded.url, ...(session.machine.store?.realm.thumbnailFormats ?? []).map((f) => thumbnail(f.name))];
const entries = (previews as unknown as { entries: Map<string, { state: { status: string; error?: string } }> }).entries;
const shown = paths.map((p) => entries.get(p)?.state).find(Boolean);
instance.unmount();
await session.dispose(500);
await client.close();
await server.stop();
await rm(stateDir, { recursive: true, force: true });

const sorted = [...during].sort((a, b) => a - b);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1] ?? NaN;
const size = { jpeg: "7300×5475", small: "64×64", png: "6000×6000", gif: "6000×6000", thumbnail: "747×560" }[kind];
printFigure("first frame (render to first write)", firstFrameMs.toFixed(0), "ms");
printFigure("resident memory while idle, before the image", idleRss.toFixed(0), "MiB");
printFigure(`j/k to frame while idle, p95 (${before.length} keys${idleMissed ? `, ${idleMissed} without a frame` : ""})`, p95(before).toFixed(1), "ms");
printFigure(`${size} ${kind.toUpperCase()} (${(file.length / 1024).toFixed(0)} KiB): send to preview ${shown?.status ?? "?"}`, readyAt ? (readyAt - sent).toFixed(0) : "never", "ms");
if (shown?.error) console.log(`    (${shown.error})`);
printFigure("  peak resident memory from the send to a second after", peakRss.toFixed(0), "MiB");
printFigure("  of which above the idle figure", (peakRss - idleRss).toFixed(0), "MiB (target ≤ 32)");
printFigure(`  slowest key to frame in that span (${during.length} keys${missed ? `, ${missed} without a frame` : ""})`, (sorted[sorted.length - 1] ?? NaN).toFixed(1), "ms (target ≤ 50)");
printFigure("  key to frame in that span, p95", p95(during).toFixed(1), "ms");
printFigure("  the main thread's longest stall in that span (while idle, for comparison)", `${spanStallMs.toFixed(0)} (${idleStallMs.toFixed(0)})`, "ms");
process.exit(0);
