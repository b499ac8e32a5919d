import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { collectGarbage, STEADY_HEAP_GROWTH } from "../../src/ui/startup-memory.js";

describe("collectGarbage", () => {
  it("frees what nothing refers to any more, at once", async () => {
    let big: number[] | undefined = Array.from({ length: 100_000 }, (_, i) => i);
    const ref = new WeakRef(big);
    big = undefined;
    await new Promise((r) => setImmediate(r)); // a WeakRef holds its target until the current job ends
    expect(collectGarbage()).toBe(true);
    expect(ref.deref()).toBeUndefined();
  });
});

describe("the steady V8 settings", () => {
  it("is a flag this Node's V8 knows: setting it prints nothing (an unknown flag is printed)", () => {
    const script = `const v8 = require("node:v8"); for (const f of ${JSON.stringify([STEADY_HEAP_GROWTH])}) v8.setFlagsFromString(f);`;
    const out = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(out.status).toBe(0);
    expect(out.stdout + out.stderr).toBe("");
    // The check can fail: an unknown flag is printed.
    const bad = spawnSync(process.execPath, ["-e", `require("node:v8").setFlagsFromString("--no-such-setting-here=1")`], { encoding: "utf8" });
    expect(bad.stdout + bad.stderr).toContain("no-such-setting-here");
  });
});
