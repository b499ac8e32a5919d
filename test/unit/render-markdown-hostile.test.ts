// Pathological Markdown (the 10,000 characters a message may hold, of nested quotes, emphasis
// runs, brackets, backticks…) renders to bounded, well-formed output, and the dialect's elements
// are still found where such text surrounds them. How fast: `npm run bench` (BENCH_ONLY=hostile).
import { beforeAll, describe, expect, it } from "vitest";
import { loadMarkdown, renderMarkdown, type RenderContext } from "../../src/render/markdown.js";
import { displayWidth } from "../../src/render/wrap.js";
import { PATHOLOGICAL_MARKDOWN } from "../fixtures/hostile-content.js";

const ctx: RenderContext = {
  selfUserId: 1,
  userName: (id) => (id === 2 ? "Bob Other" : undefined),
  isSelfName: () => false,
  channelName: () => undefined,
  emptyTopicName: "general chat",
  color: false,
};

beforeAll(async () => {
  await loadMarkdown();
});

describe("pathological Markdown", () => {
  it.each(Object.entries(PATHOLOGICAL_MARKDOWN))("%s: renders within the width, with at most a few lines per source line", (_name, src) => {
    expect(src.length).toBeGreaterThan(9000);
    expect(src.length).toBeLessThanOrEqual(10_000);
    const out = renderMarkdown(src, ctx, 80);
    const lines = out.split("\n");
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // Bounded by what the source can fill: every character at most once on 80 columns, plus the
    // lines tables and rules draw (one per source line).
    expect(lines.length).toBeLessThanOrEqual(src.length / 40 + 3 * (src.split("\n").length + 1));
    expect(out).not.toContain("\x1b");
  });

  it("quotes nested deeper than a terminal can show are drawn 8 levels deep, the rest as text", () => {
    const out = renderMarkdown(`${">".repeat(40)} deep`, ctx, 200);
    expect(out).toBe(`${"▎ ".repeat(8)}${">".repeat(32)} deep`);
  });

  it("quote lines each one level deeper than the last are drawn at most 8 levels deep, every line's text kept", () => {
    // marked tokenizes a quote whose lines go on into a deeper one by calling itself, not the
    // lexer: the depth is counted there too (such lines drew a bar for every level).
    const bars = (l: string) => (l.match(/▎/g) ?? []).length;
    const patterns = {
      "growing, then from the top again": (i: number) => `${"> ".repeat(i % 20)}line ${i}`,
      "with lazy lines between": (i: number) => (i % 2 ? `lazy ${i}` : `${"> ".repeat((i / 2) % 20)}line ${i}`),
    };
    for (const [name, line] of Object.entries(patterns)) {
      const src = Array.from({ length: 60 }, (_, i) => line(i)).join("\n");
      const out = renderMarkdown(src, ctx, 1000);
      expect(Math.max(...out.split("\n").map(bars)), name).toBe(8);
      for (let i = 0; i < 60; i++) expect(out, `${name}: line ${i}`).toMatch(new RegExp(`(?:line|lazy) ${i}(?!\\d)`));
    }
  });

  it("lists nested deeper are drawn 8 levels deep, the rest as the text it is", () => {
    const src = Array.from({ length: 20 }, (_, i) => `${"  ".repeat(i)}- item${i}`).join("\n");
    const lines = renderMarkdown(src, ctx, 200).split("\n");
    expect(lines[7]).toMatch(/^ {16}\* item7$/);
    expect(lines[8]?.trim()).toBe("- item8");
  });

  it("finds a mention, a channel link, an emoji and a time after long runs of text with no place to break", () => {
    const run = "x".repeat(1000);
    expect(renderMarkdown(`${run}@**Bob Other** ${run}#**general>lunch** ${run}:tada: ${run}<time:2026-11-20T10:00:00Z>`, { ...ctx, timeZone: "UTC", twentyFourHour: true }, 5000)).toBe(
      `${run}@Bob Other ${run}#general > lunch ${run}🎉 ${run}Fri, Nov 20, 2026, 10:00`,
    );
    const words = "lorem ipsum ".repeat(100);
    expect(renderMarkdown(`${words}**bold** @_**Bob Other|2**`, ctx, 5000)).toBe(`${words}bold @Bob Other`);
  });
});

describe("tables", () => {
  it("columns keep to the widest cell, cells wrap inside narrowed columns, alignment is kept", () => {
    const src = "| left | right | middle |\n|:---|---:|:---:|\n| a | 1 | x |\n| a much longer cell that wraps | 22 | yy |";
    expect(renderMarkdown(src, ctx, 40).split("\n")).toEqual([
      "┌─────────────────────┬───────┬────────┐",
      "│ left                │ right │ middle │",
      "├─────────────────────┼───────┼────────┤",
      "│ a                   │     1 │   x    │",
      "├─────────────────────┼───────┼────────┤",
      "│ a much longer cell  │    22 │   yy   │",
      "│ that wraps          │       │        │",
      "└─────────────────────┴───────┴────────┘",
    ]);
  });

  it("a table of thousands of columns is drawn to the width", () => {
    const src = `|${"a|".repeat(2000)}\n|${"-|".repeat(2000)}\n|${"1|".repeat(2000)}`;
    const lines = renderMarkdown(src, ctx, 100).split("\n");
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(100);
    expect(lines[1]).toMatch(/^│ a +│ a +│/);
  });
});
