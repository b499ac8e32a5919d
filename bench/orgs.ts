/**
 * What each organization costs: the built binary in tmux with 1, 3 and 5
 * accounts, each on its own reference server (the demo organization, small
 * data) side by side on 127.0.0.1. Time to the first frame (the first
 * organization drawn) and resident memory once every organization is
 * connected; each from a fresh home (no cache), median of 3.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TmuxSession } from "../test/e2e/tmux.js";
import { median, printFigure, startBenchServer } from "./util.js";

const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin/termchat.cjs");
const COUNTS = [1, 3, 5];
const RUNS = 3;
const servers = await Promise.all(Array.from({ length: Math.max(...COUNTS) }, () => startBenchServer("demo")));

/** A home whose accounts directory has the owner's account on each of the first `n` servers. */
function homeFor(n: number): string {
  const home = mkdtempSync(join(tmpdir(), "termchat-bench-orgs-"));
  const dir = join(home, ".config", "termchat", "accounts");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  servers.slice(0, n).forEach((s, i) => writeFileSync(join(dir, `org${i + 1}.zuliprc`), `[api]\nemail=${s.email}\nkey=${s.apiKey}\nsite=${s.url}\n`, { mode: 0o600 }));
  return home;
}

async function once(n: number): Promise<{ firstFrameMs: number; rssMb: number }> {
  const home = homeFor(n);
  const trace = join(home, "trace");
  const session = await TmuxSession.start([process.execPath, bin], {
    cols: 120,
    rows: 50,
    cwd: root,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_CACHE_HOME: join(home, "cache"), TERMCHAT_TRACE_STARTUP: trace },
  });
  try {
    const deadline = Date.now() + 60_000;
    while (!existsSync(trace) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (!existsSync(trace)) throw new Error("no first frame within 60 s:\n" + (await session.capture()));
    const firstFrameMs = Number(readFileSync(trace, "utf8").trim().split(/\s/)[0]);
    // Every organization connected (none still says so on its row), then the start's work settled.
    await session.waitFor(/● connected/, { timeoutMs: 60_000 });
    let screen = await session.capture();
    for (let i = 0; i < 1200 && screen.includes("connecting…"); i++) {
      await new Promise((r) => setTimeout(r, 50));
      screen = await session.capture();
    }
    const rows = screen.split("\n").filter((l) => /^.[▾▸] org\d\b/.test(l));
    if (n > 1 && (rows.length !== n || rows.some((l) => l.includes("✖")))) throw new Error(`not every organization is connected:\n${screen}`);
    await new Promise((r) => setTimeout(r, 3000));
    const pid = await session.pid();
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return { firstFrameMs, rssMb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024 };
  } finally {
    await session.kill();
    rmSync(home, { recursive: true, force: true });
  }
}

const results = new Map<number, { first: number; rss: number }>();
for (const n of COUNTS) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await once(n));
  const r = { first: median(runs.map((x) => x.firstFrameMs)), rss: median(runs.map((x) => x.rssMb)) };
  results.set(n, r);
  printFigure(`${n} organization${n > 1 ? "s" : ""}: start to first frame (median of ${RUNS})`, r.first.toFixed(0), "ms");
  printFigure(`${n} organization${n > 1 ? "s" : ""}: RSS 3 s after all are connected (median of ${RUNS})`, r.rss.toFixed(0), "MB");
}
const one = results.get(1)!;
for (const n of COUNTS.filter((c) => c > 1)) {
  const r = results.get(n)!;
  printFigure(`each organization past the first, with ${n} (RSS)`, ((r.rss - one.rss) / (n - 1)).toFixed(1), "MB (target ≤ 25 MiB)");
  printFigure(`first frame with ${n}, against 1`, (r.first - one.first).toFixed(0), "ms (target ≈ 0)");
}
await Promise.all(servers.map((s) => s.stop()));
