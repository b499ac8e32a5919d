// Our wrapper gives wrap-ansi's rows (the version the Ink patch pins, breaking long words by
// cluster as the patch makes it) for every styled text, and does it in one pass: a line styled
// every few characters is no longer worked over again at each escape. How fast: `npm run bench`
// (BENCH_ONLY=hostile, the pathological Markdown case).
import wrapAnsiPackage from "wrap-ansi";
import { describe, expect, it } from "vitest";
import { wrapAnsi } from "../../src/render/wrap-ansi.js";
import { prng, randomText } from "../fixtures/prng.js";

// What a rendered message body is made of: words and spaces, runs of spaces, wide glyphs, emoji
// (with variation selectors and ZWJ), combining marks, SGR codes that open and close (one number
// or several), OSC 8 links with BEL, and the odd line break.
const PIECES = [
  "a", "word", "longerwordthanmost", " ", " ", " ", "  ", "   ", "漢字", "ｗ", "🎉", "🅰️", "👩‍👩‍👧", "e\u0301", "\u0301", "\u200b", "\u00a0", "-", ".", "\t",
  "\u001b[1m", "\u001b[22m", "\u001b[3m", "\u001b[23m", "\u001b[33m", "\u001b[39m", "\u001b[90m", "\u001b[0m", "\u001b[1;33m", "\u001b[7m", "\u001b[27m", "\u001b[44m", "\u001b[49m",
  "\u001b]8;;https://example.com/a\u0007", "\u001b]8;;\u0007", "\n", "\r\n",
];

describe("wrapAnsi", () => {
  it("gives wrap-ansi's rows for random styled text, at every width, trimmed or not", () => {
    const next = prng(26);
    for (let i = 0; i < 4000; i++) {
      const text = randomText(next, PIECES, 60);
      const columns = 1 + Math.floor(next() * 30);
      const trim = next() < 0.8;
      const want = wrapAnsiPackage(text, columns, { hard: true, trim });
      expect(wrapAnsi(text, columns, { trim }), `seed 26 case ${i}: ${JSON.stringify(text)} at ${columns}${trim ? "" : " untrimmed"}`).toBe(want);
    }
  });

  it("gives wrap-ansi's rows for random styled text of plain characters (whose rows' widths add up)", () => {
    const plain = PIECES.filter((p) => /^(?:[\x20-\x7e\t]|漢字|ｗ|🎉|\u001b\[[0-9;]*m|\u001b\]8;;[^ ]*\u0007)*$/.test(p));
    expect(plain.length).toBeGreaterThan(20);
    const next = prng(27);
    for (let i = 0; i < 4000; i++) {
      const text = randomText(next, plain, 80);
      const columns = 1 + Math.floor(next() * 30);
      const trim = next() < 0.8;
      expect(wrapAnsi(text, columns, { trim }), `seed 27 case ${i}: ${JSON.stringify(text)} at ${columns}${trim ? "" : " untrimmed"}`).toBe(wrapAnsiPackage(text, columns, { hard: true, trim }));
    }
  });

  it("gives its rows for styled paragraphs as the renderer writes them", () => {
    const bold = (s: string) => `\u001b[1m${s}\u001b[22m`;
    const link = (s: string) => `\u001b]8;;https://example.com/${s}\u0007\u001b[34m${s}\u001b[39m\u001b]8;;\u0007`;
    const paragraph = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? bold(`word${i}`) : i % 11 === 0 ? link(`l${i}`) : `plain${i}`)).join(" ");
    for (const columns of [10, 37, 80, 116]) expect(wrapAnsi(paragraph, columns)).toBe(wrapAnsiPackage(paragraph, columns, { hard: true }));
    const unbroken = bold("x".repeat(500)) + "\u001b[3m" + "y".repeat(300);
    expect(wrapAnsi(unbroken, 80)).toBe(wrapAnsiPackage(unbroken, 80, { hard: true }));
  });

  it("carries a colour and a link across the rows it makes", () => {
    const out = wrapAnsi("\u001b]8;;https://x.test\u0007\u001b[33maaa bbb\u001b[39m\u001b]8;;\u0007", 3);
    expect(out.split("\n")).toEqual([
      "\u001b]8;;https://x.test\u0007\u001b[33maaa\u001b]8;;\u0007\u001b[39m",
      "\u001b[33m\u001b]8;;https://x.test\u0007bbb\u001b[39m\u001b]8;;\u0007",
    ]);
  });
});
