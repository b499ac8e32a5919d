/**
 * Markdown tables are drawn by termchat (src/render/markdown-table.ts), with its own width
 * function: wide characters keep the borders straight, long cells wrap inside their column,
 * a table wider than the pane gives up cells from its widest columns, and alignment is kept.
 */
import { describe, expect, it } from "vitest";
import { columnWidths, drawTable } from "../../src/render/markdown-table.js";
import stringWidth from "../../src/render/string-width.js";

describe("drawTable", () => {
  it("keeps every line as wide as the rules, with wide characters and emoji", () => {
    const lines = drawTable(["who", "note"], [["漢字さん", "👍 done"], ["Ann", "ok"]], [null, null], 80);
    expect(lines).toEqual([
      "┌──────────┬─────────┐",
      "│ who      │ note    │",
      "├──────────┼─────────┤",
      "│ 漢字さん │ 👍 done │",
      "├──────────┼─────────┤",
      "│ Ann      │ ok      │",
      "└──────────┴─────────┘",
    ]);
  });

  it("wraps a long cell inside its column when the table would not fit", () => {
    const lines = drawTable(["name", "role"], [["Ann", "lead engineer of the widget team"]], [null, null], 30);
    expect(lines.every((l) => stringWidth(l) <= 30)).toBe(true);
    expect(new Set(lines.map((l) => stringWidth(l))).size).toBe(1);
    const cells = lines.filter((l) => l.startsWith("│")).map((l) => l.split("│")[2]!.trim());
    expect(cells.slice(1).join(" ")).toBe("lead engineer of the widget team");
    expect(cells.length).toBeGreaterThan(2);
  });

  it("aligns columns as the separator row says", () => {
    const lines = drawTable(["left", "right", "mid"], [["a", "b", "c"]], ["left", "right", "center"], 80);
    expect(lines[3]).toBe("│ a    │     b │  c  │");
  });

  it("keeps the colours of a styled cell on each of its wrapped lines", () => {
    const lines = drawTable(["x"], [["\x1b[1mbold words here\x1b[22m"]], [null], 10);
    const body = lines.slice(3, -1);
    expect(body.length).toBeGreaterThan(1);
    for (const l of body) expect(l).toMatch(/\x1b\[1m\w.*\x1b\[22m/);
  });
});

describe("columnWidths", () => {
  it("takes cells from the widest column first and stops at a floor", () => {
    expect(columnWidths([["a", "b".repeat(40)]], 2, 30)).toEqual([3, 24]);
    expect(columnWidths([["a".repeat(40), "b".repeat(40)]], 2, 10)).toEqual([6, 6]);
  });
});
