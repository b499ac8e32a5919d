/**
 * TERMCHAT_TRACE_STARTUP=FILE: at the first interactive frame, appends the
 * milliseconds from process start to it and the process's start in ms since
 * the epoch (benchmarks set what a proxy saw against the client's start), then
 * a line with the start's phases: Node's own bootstrap, each `termchat:*`
 * performance mark the start path set (ms from process start), and the CPU
 * time spent so far; and a line naming Node's own modules loaded after the
 * launcher set its V8 flags (bin/v8-flags.cjs: each is compiled from its source).
 */
import { appendFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

export function traceFirstFrame(file: string): void {
  const now = performance.now();
  const phases: Record<string, number> = { bootstrap: performance.nodeTiming.bootstrapComplete };
  for (const m of performance.getEntriesByType("mark")) {
    if (m.name.startsWith("termchat:") && !(m.name.slice(9) in phases)) phases[m.name.slice(9)] = m.startTime;
  }
  phases["first-frame"] = now;
  const cpu = process.cpuUsage();
  phases.cpu = (cpu.user + cpu.system) / 1000;
  const rounded = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  appendFileSync(file, `${Math.round(now)} ${performance.timeOrigin.toFixed(1)}\nphases ${JSON.stringify(rounded)}\nnode-modules-after-flags ${JSON.stringify(nodeModulesAfterFlags())}\n`);
}

/** Node's public modules loaded since the launcher's mark (`termchat:v8-flags`, whose detail is how many modules Node had loaded then). */
function nodeModulesAfterFlags(): string[] {
  const mark = performance.getEntriesByName("termchat:v8-flags", "mark")[0] as PerformanceMark | undefined;
  const loaded = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList;
  if (!mark || typeof mark.detail !== "number" || !loaded) return [];
  return loaded
    .slice(mark.detail)
    .filter((m) => m.startsWith("NativeModule ") && !m.startsWith("NativeModule internal/"))
    .map((m) => m.slice("NativeModule ".length));
}
