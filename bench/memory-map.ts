/**
 * Where a process's resident memory is, read from outside (/proc/PID/smaps): the node binary's
 * code and read-only data (ICU's data and node's built-in JavaScript live there), the shared
 * libraries, malloc's heap, and anonymous memory (V8's heap, WebAssembly, thread stacks); and
 * the client's own account of its V8 heap (TERMCHAT_TRACE_MEMORY lines), set side by side.
 */
import { readFileSync, readlinkSync } from "node:fs";
import type { MemoryTraceLine } from "../src/ui/memory-trace.js";
import { printFigure } from "./util.js";

export interface RssParts {
  total: number;
  nodeCode: number;
  nodeData: number;
  libraries: number;
  mallocHeap: number;
  anonymous: number;
}

/** The resident bytes of each kind of mapping of process `pid`; undefined once it is gone. */
export function rssParts(pid: number): RssParts | undefined {
  let text: string;
  let exe: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, "utf8");
    exe = readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
  const parts: RssParts = { total: 0, nodeCode: 0, nodeData: 0, libraries: 0, mallocHeap: 0, anonymous: 0 };
  let kind: keyof RssParts = "anonymous";
  for (const line of text.split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const [, perms = "", path = ""] = head;
      if (path === exe) kind = perms.includes("x") ? "nodeCode" : "nodeData";
      else if (path === "[heap]") kind = "mallocHeap";
      else if (path.startsWith("/")) kind = "libraries";
      else kind = "anonymous"; // also [stack], [vdso]
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      const bytes = Number(rss[1]) * 1024;
      parts[kind] += bytes;
      parts.total += bytes;
    }
  }
  return parts;
}

const mb = (n: number): string => (n / 1048576).toFixed(1);

/** Prints a sample's mappings and, when the client reported it, its V8 heap. */
export function printBreakdown(title: string, parts: RssParts, trace: MemoryTraceLine | undefined): void {
  printFigure(title, mb(parts.total), "MiB");
  printFigure("  node binary: code / read-only data (ICU, built-in JS)", `${mb(parts.nodeCode)} / ${mb(parts.nodeData)}`, "MiB");
  printFigure("  shared libraries / malloc heap", `${mb(parts.libraries)} / ${mb(parts.mallocHeap)}`, "MiB");
  printFigure("  anonymous (V8 heap, WebAssembly, stacks)", mb(parts.anonymous), "MiB");
  if (!trace) return;
  const space = (name: string): string => {
    const [used, resident] = trace.spaces[name] ?? [0, 0];
    return `${mb(used)} / ${mb(resident)}`;
  };
  const resident = Object.values(trace.spaces).reduce((n, [, r]) => n + r, 0);
  printFigure(`  V8 heap resident (client's report at ${(trace.ms / 1000).toFixed(1)} s)`, mb(resident), "MiB");
  printFigure("    new space used / resident", space("new"), "MiB");
  printFigure("    old space used / resident", space("old"), "MiB");
  printFigure("    code space used / resident", space("code"), "MiB");
  printFigure("    large objects used / resident", space("large_object"), "MiB");
  printFigure("  V8's malloc (zones) / external (of it array buffers)", `${mb(trace.malloced)} / ${mb(trace.external)} (${mb(trace.arrayBuffers)})`, "MiB");
}

/** The client's memory trace lines written so far. */
export function readTrace(file: string): MemoryTraceLine[] {
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as MemoryTraceLine);
  } catch {
    return [];
  }
}
