import { describe, expect, it } from "vitest";
import { displayWidth, truncate, wrapLine, wrapText } from "../../src/render/wrap.js";

describe("truncate", () => {
  it("leaves short strings alone", () => {
    expect(truncate("hello", 5)).toBe("hello");
  });

  it("cuts with an ellipsis, counting cells", () => {
    expect(truncate("hello world", 8)).toBe("hello w…");
    expect(truncate("日本語テキスト", 7)).toBe("日本語…"); // 3 wide chars = 6 cells + 1
    expect(displayWidth(truncate("🎉🎉🎉🎉", 5))).toBeLessThanOrEqual(5);
    expect(truncate("abc", 0)).toBe("");
  });

  it("keeps colour codes and closes them", () => {
    const out = truncate("\x1b[1mbold text here\x1b[22m", 6);
    expect(out).toBe("\x1b[1mbold \x1b[0m…");
    expect(displayWidth(out)).toBe(6);
  });

  it("does not split a grapheme cluster", () => {
    const family = "👨‍👩‍👧";
    expect(truncate(`${family}${family}${family}`, 3)).toBe(`${family}…`);
  });
});

describe("wrapLine / wrapText", () => {
  it("wraps words to the width", () => {
    expect(wrapLine("the quick brown fox", 10)).toBe("the quick\nbrown fox");
  });

  it("hangs continuation lines after a list marker", () => {
    expect(wrapText("  - the quick brown fox jumps", 16)).toBe("  - the quick\n    brown fox\n    jumps");
    expect(wrapText("12. the quick brown fox jumps", 16)).toBe("12. the quick\n    brown fox\n    jumps");
  });

  it("breaks words longer than the width", () => {
    for (const l of wrapText("x".repeat(25), 10).split("\n")) expect(l.length).toBeLessThanOrEqual(10);
  });
});
