/**
 * Start-up of the built binary (in a real terminal, tmux) over a simulated
 * network link to the reference server with a data set: the time to the first
 * events poll reaching the server and to the first interactive frame, the
 * bytes on the wire before that frame, the requests that ran one after
 * another before it, and the connections opened. Each link profile runs as the
 * client and the server are (gzip both ways), and without compression (the
 * server-side proxy takes the requests' Accept-Encoding away). A new
 * connection costs two round trips (TCP and TLS 1.3).
 *
 * Three kinds of start: a zero-cost client (curl posting the client's own
 * register through the same link: its first events poll could reach the server
 * half a round trip after the answer's last byte arrived; the client's own poll
 * leaves once the answer names its queue, so it can come sooner), a first start (no
 * compiled code and no local state kept: the first after an install), and a
 * later start (both kept by an earlier start: its first frame comes from the
 * local cache, the live one once the server has answered).
 *
 * Client → link → server-side proxy (notes requests) → server.
 * BENCH_LINK_GZIP=0 or 1 runs one variant only, BENCH_LINK_RTT=50 or 150 one profile only;
 * BENCH_LINK_DEBUG=1 prints each run's requests; BENCH_NODE_FLAGS adds flags to the client's starts.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { encodeParams } from "../src/api/http.js";
import { registerRequest } from "../src/api/register-request.js";
import { clientRegisterParams } from "../src/sync/register-params.js";
import { TmuxSession } from "../test/e2e/tmux.js";
import { longestChain, startTap, type HttpTap, type TappedRequest } from "../test/fixtures/http-tap.js";
import { epochNow, mbit, startLink, type LinkProfile, type LinkSim } from "../test/fixtures/link-sim.js";
import { waitScreen } from "./screen-wait.js";
import { median, printFigure, startBenchServer, wholeRegisterParams } from "./util.js";

const data = process.argv[2] ?? "large";
const runs = Number(process.argv[3] ?? 3);
const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin/termchat.cjs");
const dir = mkdtempSync(join(tmpdir(), "termchat-bench-link-"));
const bench = await startBenchServer(data);
const serverPort = Number(new URL(bench.url).port);
const auth = `${bench.email}:${bench.apiKey}`;

// The client's register, and the one it sent before the user list was asked for after the first frame.
const clientParams = clientRegisterParams();
const registers = {
  client: encodeParams(registerRequest(clientParams).params).toString(),
  whole: encodeParams(registerRequest(wholeRegisterParams()).params).toString(),
};
// Two registers first: the server is warm, as the clients find it.
for (let i = 0; i < 2; i++) {
  await fetch(`${bench.url}/api/v1/register`, { method: "POST", headers: { authorization: "Basic " + Buffer.from(auth).toString("base64") }, body: registers.whole }).then((r) => r.text());
}

interface Profile extends LinkProfile {
  name: string;
}
const profiles: Profile[] = [
  { name: "50 ms / 20 Mbit", rttMs: 50, bytesPerSec: mbit(20), handshakeRtts: 2 },
  { name: "150 ms / 5 Mbit", rttMs: 150, bytesPerSec: mbit(5), handshakeRtts: 2 },
];
const TARGET_ROUND_TRIPS = 2;

interface Run {
  pollMs: number;
  /** The first frame (from the local cache on a later start). */
  frameMs: number;
  /** The first frame drawn from the server's answer. */
  liveMs: number;
  up: number;
  down: number;
  chain: TappedRequest[];
  connections: number;
  serverMs: number;
}

/** One link (and its proxy) per profile and variant, kept for all its starts: the site stays the same, so a later start finds its cache. */
interface Wire {
  p: Profile;
  link: LinkSim;
  tap: HttpTap;
  deliveries: Array<{ up: boolean; n: number; at: number }>;
  rc: string;
}

async function openWire(p: Profile, gzip: boolean): Promise<Wire> {
  const deliveries: Wire["deliveries"] = [];
  const tap = await startTap({ upstreamPort: serverPort, identity: !gzip });
  const link = await startLink(tap.port, { ...p, onDeliver: (d, n, at) => deliveries.push({ up: d === "up", n, at }) });
  const rc = join(dir, `zuliprc-${p.rttMs}-${gzip}`);
  writeFileSync(rc, `[api]\nemail=${bench.email}\nkey=${bench.apiKey}\nsite=${link.url}\n`, { mode: 0o600 });
  return { p, link, tap, deliveries, rc };
}

async function waitFor<T>(what: string, get: () => T | undefined, session: TmuxSession, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms / 1000} s:\n${await session.capture()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** BENCH_NODE_FLAGS: flags for the client's starts (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p" to profile them). */
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);

/** The zero-cost client: curl posts the register; its events poll could reach the server half a round trip after the answer is in. */
async function zeroCost(w: Wire, body: string): Promise<number> {
  const file = join(dir, "register-params");
  writeFileSync(file, body);
  const args = ["-s", "-o", "/dev/null", "--compressed", "-u", auth, "-H", "content-type: application/x-www-form-urlencoded", "--data-binary", `@${file}`, `${w.link.url}/api/v1/register`];
  const t0 = epochNow();
  const code = await new Promise<number | null>((r) => spawn("curl", args, { stdio: "ignore" }).once("exit", r));
  if (code !== 0) throw new Error(`curl ended with ${code}`);
  return epochNow() - t0 + w.p.rttMs / 2;
}

/** One start in `cacheHome`; a later start (`cached`) also waits for the live frame. Quits with Q, so what is kept is written. */
async function once(w: Wire, cacheHome: string, tag: string, cached: boolean): Promise<Run> {
  const { p, tap, link } = w;
  tap.log.length = 0;
  const connectionsBefore = link.connections;
  const trace = join(dir, `trace-${tag}`);
  const session = await TmuxSession.start([process.execPath, ...nodeFlags, bin, "--config", w.rc], {
    cols: 120,
    rows: 40,
    cwd: root,
    env: { TERMCHAT_TRACE_STARTUP: trace, XDG_CACHE_HOME: cacheHome, XDG_STATE_HOME: join(cacheHome, "state") },
  });
  try {
    const line = await waitFor("first frame", () => (existsSync(trace) ? readFileSync(trace, "utf8").split("\n")[0]?.trim() || undefined : undefined), session);
    const [frameMs, origin] = line.split(/\s/).map(Number) as [number, number];
    let liveMs = frameMs;
    if (cached) {
      await waitScreen(session, /connected/, 90_000);
      liveMs = epochNow() - origin;
    }
    const liveAt = origin + liveMs;
    const poll = await waitFor("events poll", () => tap.log.find((r) => r.method === "GET" && r.path.endsWith("/events")), session);
    if (process.env.BENCH_LINK_DEBUG) {
      await new Promise((r) => setTimeout(r, 2000));
      for (const r of tap.log) process.stdout.write(`    ${r.method} ${r.path} ${(r.startMs - origin).toFixed(0)}–${r.endMs === undefined ? "open" : (r.endMs - origin).toFixed(0)} ms\n`);
      process.stdout.write(`    frame ${frameMs} ms, live ${liveMs.toFixed(0)} ms\n`);
    }
    // A request counts before the live frame if its answer could have reached the client by then.
    const before = tap.log.filter((r) => r.endMs !== undefined && r.endMs + p.rttMs / 2 <= liveAt);
    const register = tap.log.find((r) => r.path.endsWith("/register"));
    const wire = w.deliveries.filter((d) => d.at >= origin && d.at <= liveAt);
    const run: Run = {
      pollMs: poll.startMs - origin,
      frameMs,
      liveMs,
      up: wire.filter((d) => d.up).reduce((s, d) => s + d.n, 0),
      down: wire.filter((d) => !d.up).reduce((s, d) => s + d.n, 0),
      chain: longestChain(before),
      connections: link.connections - connectionsBefore,
      serverMs: register?.headMs !== undefined ? register.headMs - register.startMs : NaN,
    };
    // Long enough for the compiled code to be kept (3 s after the first frame), then a clean exit writes the local cache.
    await new Promise((r) => setTimeout(r, Math.max(0, origin + frameMs + 3500 - epochNow())));
    await session.sendKeys("Q");
    await session.waitForExit({ timeoutMs: 20_000 });
    return run;
  } finally {
    await session.kill();
  }
}

const ms = (x: number) => (x / 1000).toFixed(2);
const kb = (x: number) => (x / 1024).toFixed(0);

function printRuns(title: string, results: Run[], zero: number, cached: boolean): void {
  const m = (f: (r: Run) => number) => median(results.map(f));
  const chain = results[Math.floor(results.length / 2)]!.chain;
  process.stdout.write(`    ${title} (median of ${results.length}):\n`);
  printFigure("    first events poll reaching the server", ms(m((r) => r.pollMs)), `s (${(m((r) => r.pollMs) / zero).toFixed(2)}× the zero-cost client; target ≤ 1.2×)`);
  if (cached) printFigure("    first frame (from the local cache)", ms(m((r) => r.frameMs)), "s");
  printFigure(`    first live frame${cached ? " (\"connected\" seen in tmux, ±10 ms)" : ""}`, ms(m((r) => r.liveMs)), "s (target on large, 50 ms / 20 Mbit: ≤ 0.80)");
  printFigure("    of which the server's time to answer the register", ms(m((r) => r.serverMs)), "s");
  printFigure("    bytes on the wire before it, client → server", kb(m((r) => r.up)), "KiB");
  printFigure("    bytes on the wire before it, server → client", kb(m((r) => r.down)), "KiB");
  printFigure("    requests one after another before it", m((r) => r.chain.length), `(target ≤ ${TARGET_ROUND_TRIPS})`);
  printFigure("      " + chain.map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, "")}`).join(" → ").slice(0, 60), "", "");
  printFigure("    connections opened by then", m((r) => r.connections), "(each 2 round trips of set-up)");
}

for (const p of profiles.filter((x) => !process.env.BENCH_LINK_RTT || String(x.rttMs) === process.env.BENCH_LINK_RTT)) {
  for (const gzip of (process.env.BENCH_LINK_GZIP ? [process.env.BENCH_LINK_GZIP === "1"] : [true, false])) {
    const w = await openWire(p, gzip);
    try {
      process.stdout.write(`  ${p.name}, ${gzip ? "as the client and server are (gzip)" : "without compression"}:\n`);
      const zero: number[] = [];
      const zeroWhole: number[] = [];
      for (let i = 0; i < Math.max(3, runs); i++) {
        zero.push(await zeroCost(w, registers.client));
        zeroWhole.push(await zeroCost(w, registers.whole));
      }
      const z = median(zero);
      printFigure("    zero-cost client (curl, the client's register): first events poll", ms(z), "s");
      if (registers.whole !== registers.client) printFigure("      the same with the whole user list in the register", ms(median(zeroWhole)), "s");
      const first: Run[] = [];
      for (let i = 0; i < runs; i++) first.push(await once(w, mkdtempSync(join(dir, "first-")), `${p.rttMs}-${gzip}-first-${i}`, false));
      printRuns("first start after an install (no compiled code, no local state)", first, z, false);
      const kept = mkdtempSync(join(dir, "later-"));
      await once(w, kept, `${p.rttMs}-${gzip}-warm`, false);
      const later: Run[] = [];
      for (let i = 0; i < runs; i++) later.push(await once(w, kept, `${p.rttMs}-${gzip}-later-${i}`, true));
      printRuns("later starts (compiled code and local state kept)", later, z, true);
    } finally {
      await w.link.close();
      await w.tap.close();
    }
  }
}
await bench.stop();
