/**
 * Keys as a person sees them, termchat and the existing terminal client side by side: each
 * runs in a 120×40 tmux pane against the same reference server (the `large` data set unless
 * told otherwise), on its combined feed ("All messages" in the other client); `j` and `k` are
 * pressed in turn, and each is timed from `tmux send-keys` until `capture-pane -e -p` differs
 * from the screen before it. The clients take turns, a round of keys each, so that a machine
 * that drifts in speed weighs on both alike. The existing client runs as PEERS.md of the
 * project's shared notes describes: from `TERMCHAT_PEERS` (a folder holding zulip-terminal,
 * python-zulip-api-0.8.2 and urwid_readline) with Debian's python3; without it only termchat
 * is measured, and the bench says so.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TmuxSession } from "../test/e2e/tmux.js";
import { printFigure, startBenchServer } from "./util.js";

const data = process.argv[2] ?? "large";
// 200 keys each: a p95 of 60 keys moved by 2-3 ms from run to run (the third-slowest key).
const ROUNDS = 5;
const KEYS_PER_ROUND = 40;
const COLS = 120;
const ROWS = 40;
/** A key whose screen has not changed after this long is counted as lost. */
const KEY_TIMEOUT_MS = 3000;

interface Client {
  name: string;
  command: string[];
  env: Record<string, string>;
  /** What the screen shows once the client is ready for keys, and the keys that get it to its combined feed. */
  ready: RegExp;
  toFeed: string[];
  feed: RegExp;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

/** Presses `key` and times it until the pane's styled screen differs from the one before it. */
async function timeKey(t: TmuxSession, key: string): Promise<number | undefined> {
  const before = await t.captureStyled();
  const start = performance.now();
  await t.sendKeys(key);
  // Bounded: each look costs a tmux call of a few milliseconds, and the key times out.
  for (let i = 0; i < 10_000 && performance.now() - start < KEY_TIMEOUT_MS; i++) {
    if ((await t.captureStyled()) !== before) return performance.now() - start;
  }
  return undefined;
}

async function main(): Promise<void> {
  const server = await startBenchServer(data);
  const dir = mkdtempSync(join(tmpdir(), "termchat-peer-keys-"));
  const rc = join(dir, "owner.zuliprc");
  writeFileSync(rc, `[api]\nemail=${server.email}\nkey=${server.apiKey}\nsite=${server.url}\n`, { mode: 0o600 });
  const peers = process.env.TERMCHAT_PEERS;
  const clients: Client[] = [
    {
      name: "termchat",
      command: [process.execPath, resolve("bin/termchat.cjs"), "--config", rc, "--no-cache"],
      env: { XDG_STATE_HOME: join(dir, "state"), XDG_CACHE_HOME: join(dir, "cache"), XDG_CONFIG_HOME: join(dir, "config") },
      ready: /connected/,
      toFeed: ["a"],
      feed: /Combined feed/,
    },
  ];
  const peerDir = peers && existsSync(join(peers, "zulip-terminal")) ? peers : undefined;
  if (peerDir) {
    clients.push({
      name: "existing client",
      command: ["/usr/bin/python3", "-m", "zulipterminal.cli.run", "-c", rc],
      env: {
        PYTHONPATH: [join(peerDir, "zulip-terminal"), join(peerDir, "python-zulip-api-0.8.2", "zulip"), join(peerDir, "urwid_readline")].join(":"),
        HOME: dir,
      },
      // It opens on "All messages" with the message list focused.
      ready: /All messages/,
      toFeed: [],
      feed: /All messages/,
    });
  }
  const times = new Map<string, number[]>(clients.map((c) => [c.name, []]));
  const lost = new Map<string, number>(clients.map((c) => [c.name, 0]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of clients) {
        const t = await TmuxSession.start(c.command, { cols: COLS, rows: ROWS, env: c.env, cwd: dir });
        try {
          await t.waitFor(c.ready, { timeoutMs: 120_000 });
          for (const k of c.toFeed) await t.sendKeys(k);
          await t.waitFor(c.feed, { timeoutMs: 30_000 });
          // Let the start settle (first events, collections) before the keys are timed.
          await new Promise((r) => setTimeout(r, 3000));
          for (let i = 0; i < KEYS_PER_ROUND; i++) {
            const ms = await timeKey(t, i % 2 === 0 ? "k" : "j");
            if (ms === undefined) lost.set(c.name, lost.get(c.name)! + 1);
            else times.get(c.name)!.push(ms);
          }
        } finally {
          await t.kill();
        }
      }
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const c of clients) {
    const xs = times.get(c.name)!;
    printFigure(`${c.name}: key to screen in tmux, p50 (${xs.length} keys)`, percentile(xs, 50).toFixed(1), "ms");
    printFigure(`${c.name}: key to screen in tmux, p95`, percentile(xs, 95).toFixed(1), "ms");
    printFigure(`${c.name}: keys with no change within ${KEY_TIMEOUT_MS} ms`, lost.get(c.name)!, "");
  }
  if (!peerDir) console.log("  existing terminal client: skipped (set TERMCHAT_PEERS to the folder PEERS.md sets up)");
}

await main();
