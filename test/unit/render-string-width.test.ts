/**
 * Our width function stands in for string-width 8.3.0 everywhere in the bundle (Ink's layout,
 * the frame buffer, wrapping, tables), so it must give the same width as string-width for any
 * text, while creating no segmenter and no emoji regex for text that does not need them.
 */
import realStringWidth from "string-width";
import { afterEach, describe, expect, it, vi } from "vitest";
import stringWidth from "../../src/render/string-width.js";
import { prng, randomText } from "../fixtures/prng.js";
import { countSegmenters } from "../fixtures/count-segmenters.js";


// Pieces of text that exercise every rule: ASCII, Latin with combining marks, CJK, kana with
// sound marks, half-width kana, Hangul syllables and jamo, Indic clusters with spacing marks,
// Arabic with a prepended sign, emoji alone, with VS16, skin tones, ZWJ families, flags,
// keycaps with and without VS16, tags, controls, tabs, soft hyphens, zero-width characters,
// ANSI colour codes and links, lone surrogates, ambiguous-width characters, private use.
const PIECES = [
  "a", "Z", " ", "~", "hello", "é", "e\u0301", "a\u0308\u0323", "ñ", "Ω", "Ж", "й", "…", "—", "·", "€", "→", "≡", "▸", "◎", "●", "│", "─", "█",
  "中", "文字", "。", "、", "か", "が", "か\u3099", "ｶ", "ｶﾞ", "ｰ", "한", "국어", "\u1100\u1161", "\u1100\u1161\u11a8", "\u1100\u1100\u1161", "\u1161", "\u11a8", "\ua960\ud7b0",
  "क्षि", "नमस्ते", "ஸ்ரீ", "\u0600\u0661", "ع", "\u200f", "\u200e",
  "🔒", "👍", "👍🏽", "❤", "❤️", "☺", "☺️", "⚡", "✅", "⭐", "👨‍👩‍👧‍👦", "🧑‍💻", "🏳️‍🌈", "🇫🇷", "🇺🇸🇯🇵", "🇦", "1⃣", "1️⃣", "#⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "🀄", "🃏", "🈚", "🌡", "🌡️", "𠀋", "𝕏",
  "\x00", "\x07", "\t", "\n", "\r", "\x7f", "\x9b", "\u00ad", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\ufe0f", "\ufe0e",
  "\x1b[31m", "\x1b[0m", "\x1b[1;4;38;5;208m", "\x1b]8;;https://example.org\x07", "\x1b]8;;\x07",
  "\ud800", "\udc00", "±", "°", "§", "\ue0a0", "\uf8ff",
];

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("string width", () => {
  it("equals string-width 8.3 for every character of the basic plane and the emoji planes, alone and between letters", () => {
    const differ: string[] = [];
    const check = (cp: number) => {
      const c = String.fromCodePoint(cp);
      for (const s of [c, `a${c}b${c}${c}`]) {
        for (const ambiguousIsNarrow of [true, false]) {
          if (stringWidth(s, { ambiguousIsNarrow }) !== realStringWidth(s, { ambiguousIsNarrow })) differ.push(`U+${cp.toString(16)} in ${JSON.stringify(s)}`);
        }
      }
    };
    for (let cp = 0; cp <= 0xffff; cp++) check(cp);
    for (let cp = 0x1f000; cp <= 0x1faff; cp++) check(cp);
    for (let cp = 0x20000; cp <= 0x3fffd; cp += 97) check(cp);
    for (let cp = 0xe0000; cp <= 0xe01ef; cp++) check(cp);
    expect(differ.slice(0, 20)).toEqual([]);
  }, 120_000);

  it("equals string-width 8.3 on 20,000 random texts made of every kind of cluster", () => {
    const next = prng(20261126);
    const differ: string[] = [];
    for (let i = 0; i < 20_000 && differ.length < 20; i++) {
      const s = randomText(next, PIECES, 8);
      const options = { ambiguousIsNarrow: next() < 0.7, countAnsiEscapeCodes: next() < 0.1 };
      if (stringWidth(s, options) !== realStringWidth(s, options)) differ.push(`${JSON.stringify(s)} ${JSON.stringify(options)}`);
    }
    expect(differ).toEqual([]);
  });

  it("takes what is not a string, and the empty string, as no cells", () => {
    expect(stringWidth("")).toBe(0);
    expect(stringWidth(undefined)).toBe(0);
    expect(stringWidth(42)).toBe(0);
    expect(stringWidth("\x1b[31m\x1b[0m")).toBe(0);
    expect(stringWidth("\x1b[31m", { countAnsiEscapeCodes: true })).toBe(realStringWidth("\x1b[31m", { countAnsiEscapeCodes: true }));
  });

  it("creates no segmenter for ASCII, Latin, box drawing, CJK and single emoji, and one when a cluster needs it", async () => {
    const segmenters = countSegmenters();
    const { default: fresh } = await import("../../src/render/string-width.js");
    expect(fresh("› #general ▸ 🔒 design review · 中文 ●")).toBe(realStringWidth("› #general ▸ 🔒 design review · 中文 ●"));
    expect(fresh("Ünïcödé — “quotes” … 한국어 🎉👍")).toBe(realStringWidth("Ünïcödé — “quotes” … 한국어 🎉👍"));
    expect(segmenters.made()).toBe(0);
    expect(fresh("👍🏽 e\u0301")).toBe(realStringWidth("👍🏽 e\u0301"));
    expect(segmenters.made()).toBe(1);
  });

  it("hands the segmenter only the stretches around clusters that need it, not a whole long text", async () => {
    // What the segmenter is asked to split, in characters (each cluster it yields costs an object).
    let asked = 0;
    const Original = Intl.Segmenter;
    vi.stubGlobal("Intl", {
      ...Intl,
      Segmenter: class extends Original {
        override segment(input: string) {
          asked += input.length;
          return super.segment(input);
        }
      },
    });
    const { default: fresh } = await import("../../src/render/string-width.js");
    const text = "plain words between 🅰️ and e\u0301 then 👩‍💻 ".repeat(400);
    expect(fresh(text)).toBe(realStringWidth(text));
    expect(asked).toBeLessThan(100);
  });
});
