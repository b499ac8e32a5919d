/**
 * Memory figures on a data set: the V8 heap taken by each step from the register
 * body to the store (parsed JSON, validated copy, store), what the store keeps once
 * the parsed response is dropped, and the largest register sections; then the built
 * client in a terminal: peak RSS (VmHWM) and RSS after a settling span
 * (BENCH_MEMORY_SECONDS, 60 by default); BENCH_NODE_OPTIONS passes NODE_OPTIONS to the client,
 * to try V8 flags. On the demo data set, also the peak of `termchat --demo` (its server in the
 * client's process) on a first start after an install and on a later one.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { encodeParams } from "../src/api/http.js";
import { registerResponseSchema } from "../src/api/schemas/register.js";
import { registerRequest } from "../src/api/register-request.js";
import { Store } from "../src/model/store.js";
import { TmuxSession } from "../test/e2e/tmux.js";
import { printFigure, startBenchServer, wholeRegisterParams } from "./util.js";
import { printBreakdown, readTrace, rssParts, type RssParts } from "./memory-map.js";
import type { MemoryTraceLine } from "../src/ui/memory-trace.js";

const data = process.argv[2] ?? "large";
const settleSeconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 60);
const gc = (): void => {
  for (let i = 0; i < 3; i++) globalThis.gc?.();
};
const heap = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};
const mb = (n: number): string => (n / 1048576).toFixed(1);

const { url, email, apiKey, stop } = await startBenchServer(data);
const auth = "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
const res = await fetch(`${url}/api/v1/register`, {
  method: "POST",
  headers: { authorization: auth },
  body: encodeParams(registerRequest(wholeRegisterParams()).params),
});
let body: Buffer | undefined = Buffer.from(await res.arrayBuffer());
printFigure("register body (bytes, outside the heap)", mb(body.length), "MiB");

const h0 = heap();
{
  // What the body costs as one string, as it was read before it was parsed in parts.
  let whole: string | undefined = body.toString("utf8");
  printFigure("  (the body as one string would take, in the heap)", mb(heap() - h0), "MiB");
  whole = undefined;
  void whole;
}
const h0b = heap();
// As the client parses it: a section at a time, users in the store's form as they are parsed.
let parsed: Record<string, unknown> | undefined = registerRequest(wholeRegisterParams()).parseBytes(body) as Record<string, unknown>;
const h1 = heap();
printFigure("heap: the body parsed in parts (users in store form)", mb(h1 - h0b), "MiB");
let checked: ReturnType<typeof registerResponseSchema.parse> | undefined = registerResponseSchema.parse(parsed);
const h2 = heap();
printFigure("heap: the validated response on top", mb(h2 - h1), "MiB");
let store: Store | undefined = new Store(checked);
const h3 = heap();
printFigure("heap: the store built on top", mb(h3 - h2), "MiB");
const sections = Object.entries(parsed)
  .map(([k, v]) => [k, JSON.stringify(v)?.length ?? 0] as const)
  .sort((a, b) => b[1] - a[1])
  .slice(0, 8);
for (const [k, n] of sections) printFigure(`  section ${k} (JSON)`, mb(n), "MiB");
parsed = undefined;
body = undefined;
const h4 = heap();
printFigure("heap: store + validated response (body and raw JSON dropped)", mb(h4 - h0), "MiB");
checked = undefined;
const h5 = heap();
printFigure("heap: the store alone (validated response dropped too)", mb(h5 - h0), "MiB");
printFigure("  so holding the validated response costs", mb(h4 - h5), "MiB");
const people = store.people.byId;
people.checkSome(Number.POSITIVE_INFINITY);
const h6 = heap();
printFigure("heap: the store after every user is checked", mb(h6 - h0), "MiB");
store = undefined;
printFigure("external + array buffers now", mb(process.memoryUsage().external + process.memoryUsage().arrayBuffers), "MiB");

const root = resolve(import.meta.dirname, "../..");
const dist = join(root, "dist");
printFigure("bundle JS (dist/termchat.cjs, one file of two scripts)", mb(statSync(join(dist, "termchat.cjs")).size), "MiB");

// What loading the libraries costs a fresh process (RSS and heap after each import, in order).
{
  const script = `const f=()=>{gc();const m=process.memoryUsage();return [m.rss,m.heapUsed,m.external]};
let p=f();for(const n of ["yoga-layout","react","ink","marked","marked-terminal"]){await import(n);const q=f();
console.log(JSON.stringify([n,q[0]-p[0],q[1]-p[1],q[2]-p[2]]));p=q}`;
  const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { cwd: root }).toString();
  for (const line of out.trim().split("\n")) {
    const [name, rss, heapUsed, external] = JSON.parse(line) as [string, number, number, number];
    printFigure(`import ${name}: RSS / heap / external`, `${mb(rss)} / ${mb(heapUsed)} / ${mb(external)}`, "MiB");
  }
}

// The built client in a real terminal.
const dir = mkdtempSync(join(tmpdir(), "termchat-bench-"));
const rc = join(dir, "zuliprc");
writeFileSync(rc, `[api]\nemail=${email}\nkey=${apiKey}\nsite=${url}\n`, { mode: 0o600 });
// Every start but the first after an install reads its compiled code from the code cache: a
// first start fills it (its peak is printed), and the start measured below is a usual one. The
// state cache is left empty, so that both starts are fresh ones from the register.
const cacheHome = join(dir, "cache");
{
  const first = await TmuxSession.start([process.execPath, join(root, "bin/termchat.cjs"), "--config", rc], {
    cols: 120,
    rows: 40,
    cwd: root,
    env: { XDG_CACHE_HOME: cacheHome },
  });
  try {
    const pid = await first.pid();
    const compiled = join(cacheHome, "termchat", "compiled");
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !(existsSync(compiled) && readdirSync(compiled).some((f) => f.endsWith(".v8cache")))) await new Promise((r) => setTimeout(r, 250));
    const hwm = pid === undefined ? NaN : Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;
    printFigure("first start after an install: peak RSS until its code cache is written", mb(hwm), "MiB");
    await first.sendKeys("Q");
    await first.waitForExit({ timeoutMs: 20_000 });
  } finally {
    await first.kill();
  }
  for (const f of readdirSync(join(cacheHome, "termchat"))) if (f.endsWith(".json.gz")) rmSync(join(cacheHome, "termchat", f));
}
// On the demo data set: `termchat --demo` as a user runs it, the reference server in the client's
// own process (the figures above are the client's alone, against a server in another process).
// A first start (no code cache: it writes one) and a later one, with the peak of each.
if (data === "demo") {
  const demoCache = join(dir, "demo-cache");
  for (const which of ["first start after an install", "later start"]) {
    const peak = await peakOfDemo(demoCache, settleSeconds);
    printFigure(`termchat --demo (its server in the same process), ${which}: peak RSS`, mb(peak), "MiB");
  }
}

/** VmHWM of a `termchat --demo` run `seconds` long (at least until a first start has written its code cache). */
async function peakOfDemo(cacheHome: string, seconds: number): Promise<number> {
  const demo = await TmuxSession.start([process.execPath, join(root, "bin/termchat.cjs"), "--demo"], { cols: 120, rows: 40, cwd: root, env: { XDG_CACHE_HOME: cacheHome } });
  try {
    const pid = await demo.pid();
    if (pid === undefined) throw new Error("the demo did not start");
    const compiled = join(cacheHome, "termchat", "compiled");
    const started = Date.now();
    const cached = (): boolean => existsSync(compiled) && readdirSync(compiled).some((f) => f.endsWith(".v8cache"));
    while (Date.now() - started < 60_000 && (Date.now() - started < seconds * 1000 || !cached())) await new Promise((r) => setTimeout(r, 250));
    const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) * 1024;
    await demo.sendKeys("Q");
    await demo.waitForExit({ timeoutMs: 20_000 });
    return hwm;
  } finally {
    await demo.kill();
  }
}

const trace = join(dir, "trace");
const memoryTrace = join(dir, "memory");
const session = await TmuxSession.start([process.execPath, join(root, "bin/termchat.cjs"), "--config", rc], {
  cols: 120,
  rows: 40,
  cwd: root,
  env: {
    XDG_CACHE_HOME: cacheHome,
    TERMCHAT_TRACE_STARTUP: trace,
    TERMCHAT_TRACE_MEMORY: memoryTrace,
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
  },
});
try {
  const pid = await session.pid();
  if (pid === undefined) throw new Error("the client did not start");
  const status = (): { rss: number; hwm: number } => {
    const s = readFileSync(`/proc/${pid}/status`, "utf8");
    return { rss: Number(/VmRSS:\s+(\d+)/.exec(s)?.[1]) * 1024, hwm: Number(/VmHWM:\s+(\d+)/.exec(s)?.[1]) * 1024 };
  };
  const start = Date.now();
  let atFrame: { rss: number; hwm: number; parts: RssParts | undefined } | undefined;
  // The highest sample seen from outside (every 250 ms), with when it was taken.
  let peak: { parts: RssParts; ms: number } | undefined;
  let last: RssParts | undefined;
  while (Date.now() - start < settleSeconds * 1000) {
    await new Promise((r) => setTimeout(r, 250));
    last = rssParts(pid) ?? last;
    if (last && (!peak || last.total > peak.parts.total)) peak = { parts: last, ms: Date.now() - start };
    if (!atFrame) {
      try {
        readFileSync(trace);
        atFrame = { ...status(), parts: rssParts(pid) };
      } catch {
        // not drawn yet
      }
    }
  }
  const end = status();
  const reports = readTrace(memoryTrace);
  if (atFrame) printFigure("client RSS at the first frame", mb(atFrame.rss), "MiB");
  printFigure("client peak RSS (VmHWM)", mb(end.hwm), "MiB");
  printFigure(`client RSS after ${settleSeconds} s`, mb(end.rss), "MiB");
  if (atFrame?.parts) printBreakdown("at the first frame, by kind", atFrame.parts, reports[0]);
  if (peak) {
    const near = reports.reduce<MemoryTraceLine | undefined>((best, r) => (!best || Math.abs(r.ms - peak!.ms) < Math.abs(best.ms - peak!.ms) ? r : best), undefined);
    printBreakdown(`the highest sample (every 250 ms; at ${(peak.ms / 1000).toFixed(1)} s), by kind`, peak.parts, near && Math.abs(near.ms - peak.ms) < 1500 ? near : undefined);
  }
  if (last) printBreakdown(`after ${settleSeconds} s, by kind`, last, reports.at(-1));
} finally {
  await session.kill();
  await stop();
}
