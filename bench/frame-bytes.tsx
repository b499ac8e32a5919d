/**
 * Bytes on the wire per keystroke: the real App on a fake TTY (demo data, a real sync session
 * against the reference server in its own process), every byte Ink writes counted. For each
 * step the bytes from the key to the screen settling (no write for a while) are summed; steps
 * that repeat give the mean per key. Run once bundled with the frame writer and once with
 * Ink's own writer (bench/run.mjs builds both), at the size given: [columns] [rows] [label].
 * It also replays all bytes into a headless terminal and checks the screen shows the app.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { fakeStdin } from "./fake-stdin.js";
import chalk from "chalk";
import { render } from "ink";
import { headlessTerminal } from "../test/fixtures/headless-screen.js";
import { ApiClient } from "../src/api/http.js";
import { sendMessage } from "../src/api/routes/messages.js";
import { AccountRuntime } from "../src/sync/account-runtime.js";
import { accountHandle } from "../src/sync/account-handle.js";
import { App } from "../src/ui/App.js";
import { KeypressProvider } from "../src/ui/hooks/use-keypress.js";
import { takeTerminal } from "../src/ui/terminal/screen-mode.js";
import { buildSidebarRows, type SidebarRow } from "../src/ui/sidebar-rows.js";
import { printFigure, startBenchServer } from "./util.js";

// Colours as on a terminal over SSH (TERM=xterm-256color), whatever this process's own output is:
// without them the sidebar's cursor, shown only in inverse video, would not be drawn at all.
if (process.env.FORCE_COLOR === undefined) chalk.level = 2;
const COLS = Number(process.argv[2] ?? 120);
const ROWS = Number(process.argv[3] ?? 40);
const LABEL = process.argv[4] ?? "";
/** Quiet time after the last write before a step counts as settled (more than Ink's 30 fps throttle). */
const QUIET_MS = 150;
const STEP_CEILING_MS = 5_000;

class CountingTty extends Writable {
  readonly isTTY = true;
  columns = COLS;
  rows = ROWS;
  bytes = 0;
  lastWrite = 0;
  firstWrite = -1;
  readonly screen = headlessTerminal(COLS, ROWS);
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const text = chunk.toString();
    if (this.firstWrite < 0 && text.length > 200) this.firstWrite = Buffer.byteLength(text);
    this.bytes += Buffer.byteLength(text);
    this.lastWrite = performance.now();
    this.screen.write(text);
    done();
  }
  screenText(): Promise<string> {
    return new Promise((resolve) =>
      this.screen.write("", () => {
        const b = this.screen.buffer.active;
        const lines: string[] = [];
        for (let y = 0; y < ROWS; y++) lines.push(b.getLine(b.viewportY + y)?.translateToString(true) ?? "");
        resolve(lines.join("\n"));
      }),
    );
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const server = await startBenchServer("demo");
process.once("uncaughtException", (err) => {
  console.error(err);
  void server.stop().then(() => process.exit(1));
});
const stateDir = await mkdtemp(join(tmpdir(), "termchat-frame-bytes-"));
const client = new ApiClient({ site: server.url, email: server.email, apiKey: server.apiKey });
const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: server.email }, stateDir });
await session.machine.start();
const store = session.machine.store!;

const stdout = new CountingTty();
const stdin = fakeStdin();
// BENCH_ALTERNATE_SCREEN=1: as the client runs in a terminal, on the alternate screen at its full height.
if (process.env.BENCH_ALTERNATE_SCREEN) takeTerminal(stdout);
const instance = render(
  <KeypressProvider onAnyKey={() => session.keyPressed()}>
    <App account={accountHandle(session)} />
  </KeypressProvider>,
  { stdout: stdout as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, exitOnCtrlC: false, patchConsole: false },
);

/** Waits for writes to start (or the ceiling) and then stop for QUIET_MS; the bytes written since `from`. */
async function settle(from: number, started = performance.now()): Promise<number> {
  for (let i = 0; i < STEP_CEILING_MS / 10; i++) {
    await sleep(10);
    const now = performance.now();
    if (stdout.lastWrite >= started && now - stdout.lastWrite >= QUIET_MS) break;
    if (stdout.lastWrite < started && now - started >= 1_000) break; // the key changed nothing on screen
  }
  return stdout.bytes - from;
}

async function press(key: string): Promise<number> {
  const from = stdout.bytes;
  const started = performance.now();
  stdin.write(key);
  return settle(from, started);
}

async function mean(key: string, times: number): Promise<number> {
  let sum = 0;
  for (let i = 0; i < times; i++) sum += await press(key);
  return sum / times;
}

await sleep(1_500); // start-up settles (first fetches, the Markdown engine)
const startup = stdout.bytes;
const figures: Array<[string, number, string]> = [];
figures.push(["first frame", stdout.firstWrite, "B"]);
figures.push(["start-up, all frames until settled", startup, "B"]);

figures.push(["cursor move in the Inbox list (j), mean of 10", await mean("j", 10), "B/key (target ≤ 400)"]);


await press("a"); // the combined feed
await sleep(300);
const feedShown = (await stdout.screenText()).includes("Combined feed");
figures.push(["cursor move in the message pane (k), mean of 20", await mean("k", 20), "B/key (target ≤ 400)"]);
figures.push(["page down (J), mean of 5", await mean("J", 5), "B/key"]);
await press("h"); // back to the sidebar
figures.push(["cursor move in the sidebar (j), mean of 8", await mean("j", 8), "B/key (target ≤ 400)"]);

// Open a topic: the first channel with topics, expanded, its first topic.
const rowLabel = (r: SidebarRow) => (r.kind === "channel" ? r.name : r.kind === "topic" ? r.topic : r.kind === "header" ? "" : r.label);
await press("g");
const rows = buildSidebarRows(store, {});
const channelIndex = rows.findIndex((r) => r.kind === "channel");
const channel = rows[channelIndex] as Extract<SidebarRow, { kind: "channel" }>;
const headersBefore = (list: SidebarRow[], i: number) => list.slice(0, i).filter((r) => r.kind === "header").length;
for (let i = 0; i < channelIndex - headersBefore(rows, channelIndex); i++) await press("j");
await press("l");
await sleep(500);
const expanded = buildSidebarRows(store, { expanded: channel.channelId });
const topicIndex = expanded.findIndex((r) => r.kind === "topic" && r.channelId === channel.channelId);
const topic = topicIndex >= 0 ? rowLabel(expanded[topicIndex]!) : "";
for (let i = channelIndex; i < topicIndex; i++) await press("j");
figures.push(["opening a topic (Enter)", await press("\r"), "B"]);
await sleep(500);
const topicShown = topic !== "" && (await stdout.screenText()).includes(topic.slice(0, 20));

// One message arrives in the open topic while the user reads it.
const from = stdout.bytes;
const sent = performance.now();
await sendMessage(client, { type: "stream", to: channel.channelId, topic, content: "A new message while reading." });
figures.push(["one incoming message while reading", await settle(from, sent), "B (target ≤ 1,000)"]);

await press("r"); // compose a reply
await sleep(300);
let typed = 0;
for (const c of "hello worl") typed += await press(c);
figures.push(["one character typed in compose, mean of 10", typed / 10, "B/key (target ≤ 150)"]);
const composeShown = (await stdout.screenText()).includes("hello worl");

instance.unmount();
await session.dispose(500);
await client.close();
await server.stop();
await rm(stateDir, { recursive: true, force: true });

const checks = [feedShown ? "" : "combined feed NOT shown", topicShown ? "" : "topic NOT opened", composeShown ? "" : "typed text NOT shown"].filter(Boolean);
// A step after which nothing at all was written did not change the screen: no figure for it.
for (const [label, value, unit] of figures) {
  printFigure(`${LABEL} ${COLS}×${ROWS}: ${label}`, value === 0 ? "no frame" : Math.round(value).toLocaleString("en"), value === 0 ? "(the key changed nothing here)" : unit);
}
if (checks.length > 0) printFigure(`${LABEL} ${COLS}×${ROWS}: screen checks failed`, checks.join("; "), "");
process.exit(0);
