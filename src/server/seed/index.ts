// Data sets the server can start with: `demo` (a lively small organization)
// and `large` (a big one for benchmarks). A new data set is a new module
// returning a SeedResult, listed here.

import { seedDemo, type SeedResult } from "./demo.js";
import { seedLarge } from "./large.js";

export type DataSetName = "demo" | "large";
export type { SeedResult };

export function seed(name: DataSetName, nowMs: number): SeedResult {
  switch (name) {
    case "demo":
      return seedDemo(nowMs);
    case "large":
      return seedLarge(nowMs);
    default:
      throw new Error(`unknown data set '${String(name)}'`);
  }
}
