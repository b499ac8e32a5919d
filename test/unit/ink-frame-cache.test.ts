/**
 * The frame buffer's caches are bounded by the memory they hold, not by their entry count:
 * a few long lines must not keep more than the budget, however few entries they are.
 */
import { describe, expect, it } from "vitest";
import { BoundedCache, CACHE_BYTES } from "../../src/ui/ink-frame/output.js";

describe("the frame buffer's caches", () => {
  it("never hold more than their byte budget, and start afresh when it is reached", () => {
    const cache = new BoundedCache<string, string>((v) => v.length * 2, 10_000);
    const long = "x".repeat(1_000);
    let peak = 0;
    for (let i = 0; i < 100; i++) {
      cache.set(`${i}:${long}`, long);
      peak = Math.max(peak, cache.size);
    }
    expect(peak).toBeLessThanOrEqual(10_000);
    expect(cache.get(`99:${long}`)).toBe(long);
    expect(cache.get(`0:${long}`)).toBeUndefined();
  });

  it("have a budget of a few megabytes by default", () => {
    expect(CACHE_BYTES).toBeGreaterThanOrEqual(1024 * 1024);
    expect(CACHE_BYTES).toBeLessThanOrEqual(16 * 1024 * 1024);
  });
});
