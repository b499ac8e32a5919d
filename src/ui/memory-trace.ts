/**
 * TERMCHAT_TRACE_MEMORY=FILE: the client appends where its memory is (V8's heap spaces, what V8
 * allocated with malloc, external memory), one JSON line at the first frame and then every 2 s,
 * for benchmarks to set next to the RSS they read from outside.
 */
import { appendFileSync } from "node:fs";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";

export interface MemoryTraceLine {
  label: string;
  /** Milliseconds since the process started. */
  ms: number;
  rss: number;
  /** Heap space name (without "_space") → [bytes used, bytes resident]. */
  spaces: Record<string, [number, number]>;
  external: number;
  arrayBuffers: number;
  /** What V8 itself holds from malloc (compiler and parser zones, among others). */
  malloced: number;
}

function traceLine(label: string): MemoryTraceLine {
  const spaces: Record<string, [number, number]> = {};
  for (const s of getHeapSpaceStatistics()) spaces[s.space_name.replace(/_space$/, "")] = [s.space_used_size, s.physical_space_size];
  const m = process.memoryUsage();
  const ms = Math.round(performance.now());
  return { label, ms, rss: m.rss, spaces, external: m.external, arrayBuffers: m.arrayBuffers, malloced: getHeapStatistics().malloced_memory };
}

export function startMemoryTrace(file: string): void {
  const write = (label: string) => appendFileSync(file, JSON.stringify(traceLine(label)) + "\n");
  write("first frame");
  setInterval(() => write("later"), 2000).unref();
}
