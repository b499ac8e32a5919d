/**
 * Our grapheme splitter stands in for Intl.Segmenter in the whole bundle, the frame buffer's
 * tokenizers included: it must give the same clusters, by iteration and by `containing`, for
 * any text, and make no ICU segmenter for plain text.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { graphemes } from "../../src/render/graphemes.js";
import { prng, randomText } from "../fixtures/prng.js";
import { countSegmenters } from "../fixtures/count-segmenters.js";

const icu = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const split = (s: string) => [...icu.segment(s)].map(({ segment, index }) => ({ segment, index }));
const ours = (s: string) => [...graphemes(s)].map(({ segment, index }) => ({ segment, index }));

// Plain pieces (each code point a cluster) and every kind that is not: CR LF, combining marks,
// ZWJ sequences, flags, skin tones, variation selectors, keycaps, Hangul jamo, Indic clusters,
// lone surrogates; and the escape sequences the frame buffer tokenizes.
const PIECES = [
  "a", " ", "~", "\x1b[31m", "\x1b[0m", "\x1b]8;;https://example.org\x07", "\x07", "\t", "\n", "\r", "\r\n", "\x7f", "\x9b", "\x85",
  "é", "e\u0301", "Ω", "Ж", "…", "—", "›", "≡", "▸", "◎", "●", "│", "█", "中", "文", "。", "か", "か\u3099", "ｶﾞ", "한", "\u1100\u1161", "\ue0a0",
  "🔒", "👍", "👍🏽", "❤", "❤️", "✅", "👨‍👩‍👧", "🇫🇷", "🇦", "1⃣", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "𠀋", "क्षि", "\u200d", "\ufe0f", "\u00ad", "\ud800", "\udc00",
];

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe("graphemes", () => {
  it("gives Intl.Segmenter's clusters, by iteration and by containing(), on 20,000 random texts", () => {
    const next = prng(20261127);
    const differ: string[] = [];
    for (let i = 0; i < 20_000 && differ.length < 10; i++) {
      const s = randomText(next, PIECES, 10);
      const expected = split(s);
      if (JSON.stringify(ours(s)) !== JSON.stringify(expected)) differ.push(`iteration of ${JSON.stringify(s)}`);
      const mine = graphemes(s);
      const theirs = icu.segment(s);
      for (let at = -1; at <= s.length; at++) {
        const a = mine.containing(at);
        const b = theirs.containing(at);
        if (a?.segment !== b?.segment || a?.index !== b?.index) differ.push(`containing(${at}) of ${JSON.stringify(s)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it("splits every simple character of the basic and emoji planes alone, as Intl.Segmenter does, between letters and escapes", () => {
    const differ: string[] = [];
    const check = (cp: number) => {
      const c = String.fromCodePoint(cp);
      const s = `a${c}\x1b[1m${c}${c}\x07`;
      if (JSON.stringify(ours(s)) !== JSON.stringify(split(s))) differ.push(`U+${cp.toString(16)}`);
    };
    for (let cp = 0; cp <= 0xffff; cp++) if (cp < 0xd800 || cp > 0xdfff) check(cp);
    for (let cp = 0x1f000; cp <= 0x1faff; cp++) check(cp);
    expect(differ.slice(0, 20)).toEqual([]);
  });

  it("makes no ICU segmenter for plain text, and one when a cluster needs it", async () => {
    const segmenters = countSegmenters();
    const { graphemes: fresh } = await import("../../src/render/graphemes.js");
    expect([...fresh("\x1b[31m› #general ▸ 🔒 中文\x1b[0m")].length).toBe(split("\x1b[31m› #general ▸ 🔒 中文\x1b[0m").length);
    expect(fresh("plain").containing(2)?.segment).toBe("a");
    expect(segmenters.made()).toBe(0);
    expect([...fresh("👍🏽")]).toHaveLength(1);
    expect(segmenters.made()).toBe(1);
  });
});
