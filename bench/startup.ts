/**
 * Start-up figures of the built binary against the reference server with a
 * data set: time to the first interactive frame (in a real terminal, tmux),
 * compared with the floor; RSS after start; CPU used while idle.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { encodeParams } from "../src/api/http.js";
import { registerRequest } from "../src/api/register-request.js";
import { clientRegisterParams } from "../src/sync/register-params.js";
import { TmuxSession } from "../test/e2e/tmux.js";
import { median, printFigure, startBenchServer } from "./util.js";

const data = process.argv[2] ?? "large";
const idleSeconds = Number(process.argv[3] ?? 30);
const root = resolve(import.meta.dirname, "../..");
const bin = join(root, "bin/termchat.cjs");
const dir = mkdtempSync(join(tmpdir(), "termchat-bench-"));
const { url, email, apiKey, stop } = await startBenchServer(data);
const rc = join(dir, "zuliprc");
writeFileSync(rc, `[api]\nemail=${email}\nkey=${apiKey}\nsite=${url}\n`, { mode: 0o600 });

// The register round trip the client pays (server time included), and its body for the floor.
const auth = "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
const registerTimes: number[] = [];
let body = "";
for (let i = 0; i < 9; i++) {
  const t = performance.now();
  const res = await fetch(`${url}/api/v1/register`, {
    method: "POST",
    headers: { authorization: auth },
    body: encodeParams(registerRequest(clientRegisterParams()).params), // exactly what the client asks for
  });
  body = await res.text();
  if (i >= 2) registerTimes.push(performance.now() - t); // the first two warm the server up, as the clients find it
}
const bodyFile = join(dir, "register.json");
writeFileSync(bodyFile, body);

const floorTimes: number[] = [];
const fetchFloorTimes: number[] = [];
const params = JSON.stringify(Object.fromEntries(encodeParams(registerRequest(clientRegisterParams()).params)));
for (let i = 0; i < 5; i++) {
  floorTimes.push(Number(execFileSync(process.execPath, [join(import.meta.dirname, "floor.js"), bodyFile], { cwd: root }).toString().trim()));
  fetchFloorTimes.push(Number(execFileSync(process.execPath, [join(import.meta.dirname, "floor.js"), url, email, apiKey, params], { cwd: root }).toString().trim()));
}

const firstFrames: number[] = [];
const rssMbs: number[] = [];
let idleCpuPct = NaN;
let steadyCpuPct = NaN;
for (let i = 0; i < 5; i++) {
  const trace = join(dir, `trace-${i}`);
  const session = await TmuxSession.start([process.execPath, bin, "--config", rc], {
    cols: 120,
    rows: 40,
    cwd: root,
    env: { TERMCHAT_TRACE_STARTUP: trace },
  });
  try {
    const deadline = Date.now() + 60_000;
    while (!existsSync(trace) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    if (!existsSync(trace)) throw new Error("no first frame within 60 s:\n" + (await session.capture()));
    firstFrames.push(Number(readFileSync(trace, "utf8").trim().split(/\s/)[0]));
    const pid = await session.pid();
    await new Promise((r) => setTimeout(r, 3000)); // let the first fetches and the Markdown load settle
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    rssMbs.push(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
    if (i === 0) {
      const ticks = () => {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return Number(f[11]) + Number(f[12]); // utime + stime
      };
      const hz = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
      const t0 = ticks();
      await new Promise((r) => setTimeout(r, idleSeconds * 1000));
      const t1 = ticks();
      idleCpuPct = (((t1 - t0) / hz) / idleSeconds) * 100;
      // The same span again: start-up's after-effects (V8 shrinking the heap once, ~15 s in) are over.
      await new Promise((r) => setTimeout(r, idleSeconds * 1000));
      steadyCpuPct = (((ticks() - t1) / hz) / idleSeconds) * 100;
    }
  } finally {
    await session.kill();
  }
}
const first = median(firstFrames);
const floor = median(floorTimes);
const reg = median(registerTimes);
printFigure(`register round trip (${(body.length / 1e6).toFixed(1)} MB, server time included, median of 7)`, reg.toFixed(0), "ms");
printFigure("floor: node + heavy imports + JSON.parse of the body", floor.toFixed(0), "ms");
printFigure("cold start to first interactive frame (median of 5)", first.toFixed(0), "ms");
printFigure("  of which the client's own work (minus the register round trip)", (first - reg).toFixed(0), "ms");
printFigure("ratio client work / floor", ((first - reg) / floor).toFixed(2), "× (target ≤ 1.5)");
const fetchFloor = median(fetchFloorTimes);
printFigure("floor with the register fetched from the server", fetchFloor.toFixed(0), "ms");
printFigure("ratio cold start / floor with the register fetched", (first / fetchFloor).toFixed(2), "× (target ≤ 1.5)");
printFigure("RSS 3 s after start (median of 5)", median(rssMbs).toFixed(0), "MB (target ≤ 200)");
printFigure("  the highest of the 5", Math.max(...rssMbs).toFixed(0), "MB");
printFigure(`CPU while idle over ${idleSeconds} s (from 3 s after start)`, idleCpuPct.toFixed(2), "% of one core (target ≈ 0)");
printFigure(`CPU while idle over the next ${idleSeconds} s`, steadyCpuPct.toFixed(2), "% of one core");
await stop();
