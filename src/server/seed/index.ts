// Data sets the server can start with. A new data set (e.g. "large") is a new
// module returning a SeedResult, listed here.

import { seedDemo, type SeedResult } from "./demo.js";

export type DataSetName = "demo";
export type { SeedResult };

export function seed(name: DataSetName, nowMs: number): SeedResult {
  switch (name) {
    case "demo":
      return seedDemo(nowMs);
    default:
      throw new Error(`unknown data set '${String(name)}'`);
  }
}
