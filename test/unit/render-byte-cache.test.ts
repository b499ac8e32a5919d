import { describe, expect, it } from "vitest";
import { ByteLru } from "../../src/render/byte-cache.js";

describe("ByteLru", () => {
  it("holds entries up to a number of bytes, dropping the least recently used first", () => {
    const c = new ByteLru<string, string>(100);
    c.set("a", "A", 40);
    c.set("b", "B", 40);
    expect(c.get("a")).toBe("A"); // a is now the most recent
    c.set("c", "C", 40); // 120 > 100: b goes
    expect(c.get("b")).toBeUndefined();
    expect(c.get("a")).toBe("A");
    expect(c.get("c")).toBe("C");
    expect(c.bytes).toBe(80);
    c.set("big", "X", 90); // one large entry pushes out both small ones
    expect(c.size).toBe(1);
    expect(c.bytes).toBe(90);
  });

  it("does not keep an entry larger than the whole budget, and replacing an entry counts it once", () => {
    const c = new ByteLru<number, string>(50);
    c.set(1, "x", 60);
    expect(c.get(1)).toBeUndefined();
    c.set(2, "y", 20);
    c.set(2, "z", 30);
    expect(c.get(2)).toBe("z");
    expect(c.bytes).toBe(30);
  });
});
