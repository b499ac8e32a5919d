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
 * Client → link → server-side proxy (notes requests) → server.
 * BENCH_LINK_GZIP=0 or 1 runs one variant only; BENCH_LINK_DEBUG=1 prints each run's requests.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { encodeParams } from "../src/api/http.js";
import { registerRequest } from "../src/api/register-request.js";
import { clientRegisterParams } from "../src/sync/register-params.js";
import { TmuxSession } from "../test/e2e/tmux.js";
import { longestChain, startTap, type TappedRequest } from "../test/fixtures/http-tap.js";
import { epochNow, mbit, startLink, type LinkProfile } from "../test/fixtures/link-sim.js";
import { median, printFigure, startBenchServer } from "./util.js";

const data = process.argv[2] ?? "large";
const runs = Number(process.argv[3] ?? 3);
const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin/termchat.cjs");
const dir = mkdtempSync(join(tmpdir(), "termchat-bench-link-"));
const bench = await startBenchServer(data);
const serverPort = Number(new URL(bench.url).port);
// Two registers first: the server is warm, as the clients find it.
for (let i = 0; i < 2; i++) {
  await fetch(`${bench.url}/api/v1/register`, {
    method: "POST",
    headers: { authorization: "Basic " + Buffer.from(`${bench.email}:${bench.apiKey}`).toString("base64") },
    body: encodeParams(registerRequest(clientRegisterParams()).params),
  }).then((r) => r.text());
}

interface Profile extends LinkProfile {
  name: string;
  target: { pollMs: number; frameMs: number };
}
const profiles: Profile[] = [
  { name: "50 ms / 20 Mbit", rttMs: 50, bytesPerSec: mbit(20), handshakeRtts: 2, target: { pollMs: 1500, frameMs: 1500 } },
  { name: "150 ms / 5 Mbit", rttMs: 150, bytesPerSec: mbit(5), handshakeRtts: 2, target: { pollMs: 3000, frameMs: 3000 } },
];
const TARGET_ROUND_TRIPS = 2;

interface Run {
  pollMs: number;
  frameMs: number;
  up: number;
  down: number;
  chain: TappedRequest[];
  connections: number;
  serverMs: number;
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

async function once(p: Profile, gzip: boolean, i: number): Promise<Run> {
  const deliveries: Array<{ up: boolean; n: number; at: number }> = [];
  const serverSide = await startTap({ upstreamPort: serverPort, identity: !gzip });
  const link = await startLink(serverSide.port, { ...p, onDeliver: (d, n, at) => deliveries.push({ up: d === "up", n, at }) });
  const rc = join(dir, `zuliprc-${i}`);
  writeFileSync(rc, `[api]\nemail=${bench.email}\nkey=${bench.apiKey}\nsite=${link.url}\n`, { mode: 0o600 });
  const trace = join(dir, `trace-${p.rttMs}-${gzip}-${i}`);
  const opened: number[] = [];
  const watch = setInterval(() => link.connections > opened.length && opened.push(epochNow()), 2);
  const session = await TmuxSession.start([process.execPath, bin, "--config", rc], { cols: 120, rows: 40, cwd: root, env: { TERMCHAT_TRACE_STARTUP: trace } });
  try {
    const line = await waitFor("first frame", () => (existsSync(trace) ? readFileSync(trace, "utf8").trim() || undefined : undefined), session);
    const [frameMs, origin] = line.split(/\s/).map(Number) as [number, number];
    const frameAt = origin + frameMs;
    const poll = await waitFor("events poll", () => serverSide.log.find((r) => r.method === "GET" && r.path.endsWith("/events")), session);
    if (process.env.BENCH_LINK_DEBUG) {
      await new Promise((r) => setTimeout(r, 2000));
      for (const r of serverSide.log) process.stdout.write(`    ${r.method} ${r.path} ${(r.startMs - origin).toFixed(0)}–${r.endMs === undefined ? "open" : (r.endMs - origin).toFixed(0)} ms\n`);
      process.stdout.write(`    frame ${frameMs} ms; connections opened at ${opened.map((t) => (t - origin).toFixed(0)).join(", ")} ms\n`);
    }
    // A request counts before the frame if its answer could have reached the client by then.
    const before = serverSide.log.filter((r) => r.endMs !== undefined && r.endMs + p.rttMs / 2 <= frameAt);
    const register = serverSide.log.find((r) => r.path.endsWith("/register"));
    const wire = deliveries.filter((d) => d.at <= frameAt);
    return {
      pollMs: poll.startMs - origin,
      frameMs,
      up: wire.filter((d) => d.up).reduce((s, d) => s + d.n, 0),
      down: wire.filter((d) => !d.up).reduce((s, d) => s + d.n, 0),
      chain: longestChain(before),
      connections: link.connections,
      serverMs: register?.headMs !== undefined ? register.headMs - register.startMs : NaN,
    };
  } finally {
    clearInterval(watch);
    await session.kill();
    await link.close();
    await serverSide.close();
  }
}

const ms = (x: number) => (x / 1000).toFixed(2);
const kb = (x: number) => (x / 1024).toFixed(0);
for (const p of profiles) {
  for (const gzip of (process.env.BENCH_LINK_GZIP ? [process.env.BENCH_LINK_GZIP === "1"] : [true, false])) {
    const results: Run[] = [];
    for (let i = 0; i < runs; i++) results.push(await once(p, gzip, i));
    const m = (f: (r: Run) => number) => median(results.map(f));
    const chain = results[Math.floor(results.length / 2)]!.chain;
    process.stdout.write(`  ${p.name}, ${gzip ? "as the client and server are (gzip)" : "without compression"} (median of ${runs}):\n`);
    printFigure("  first events poll reaching the server", ms(m((r) => r.pollMs)), `s (target ≤ ${ms(p.target.pollMs)})`);
    printFigure("  first interactive frame", ms(m((r) => r.frameMs)), `s (target ≤ ${ms(p.target.frameMs)})`);
    printFigure("  of which the server's time to answer the register", ms(m((r) => r.serverMs)), "s");
    printFigure("  bytes on the wire before it, client → server", kb(m((r) => r.up)), "KiB");
    printFigure("  bytes on the wire before it, server → client", kb(m((r) => r.down)), "KiB");
    printFigure("  requests one after another before it", m((r) => r.chain.length), `(target ≤ ${TARGET_ROUND_TRIPS})`);
    printFigure("    " + chain.map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, "")}`).join(" → ").slice(0, 62), "", "");
    printFigure("  connections opened by the first events poll", m((r) => r.connections), "(each 2 round trips of set-up)");
  }
}
await bench.stop();
