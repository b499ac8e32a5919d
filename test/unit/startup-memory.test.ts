import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/ui/startup-memory.js";

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
