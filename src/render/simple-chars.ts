/**
 * Characters that are always a visible grapheme cluster of their own, whatever comes before or
 * after them: Latin, Greek, Cyrillic, punctuation, symbols and box drawing, CJK, Hangul
 * syllables, private use, and the pictographs of the emoji planes but skin tones and the
 * letters of flags. Such a character is its own cluster and takes its East Asian Width in
 * cells (every emoji of one character is East Asian Wide). string-width.ts and graphemes.ts
 * measure and split text made of them directly; render-string-width.test.ts checks each of
 * them against string-width and Intl.Segmenter.
 */

/** Code unit ranges (inclusive, sorted) of the basic plane. */
const SIMPLE: readonly number[] = [
  0xa0, 0xac, 0xae, 0x2ff, // Latin-1 (not the soft hyphen), Latin Extended, IPA, modifier letters
  0x370, 0x482, 0x48a, 0x52f, // Greek, Cyrillic (not its combining marks)
  0x2010, 0x2027, 0x2030, 0x205e, // punctuation (not zero-width, bidi or line separators)
  0x2100, 0x2bff, // letterlike, arrows, maths, technical, box drawing, shapes, symbols, dingbats
  0x3000, 0x3029, 0x3030, 0x303f, // CJK punctuation (not its tone marks)
  0x3041, 0x3098, 0x309b, 0x30ff, // kana (not the combining sound marks)
  0x3400, 0x4dbf, 0x4e00, 0x9fff, // CJK ideographs
  0xac00, 0xd7a3, // Hangul syllables
  0xe000, 0xf8ff, // private use
];

/** The same above the basic plane: pictographs (not the regional indicators, not the skin tones), CJK. */
const SIMPLE_ASTRAL: readonly number[] = [0x1f000, 0x1f1e5, 0x1f200, 0x1f3fa, 0x1f400, 0x1faff, 0x20000, 0x3fffd];

function inRanges(ranges: readonly number[], c: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (c < ranges[i]!) return false;
    if (c <= ranges[i + 1]!) return true;
  }
  return false;
}

/** A code unit of the basic plane (not printable ASCII) that is a visible cluster of its own. */
export const isSimpleUnit = (unit: number): boolean => inRanges(SIMPLE, unit);

/** A code point above the basic plane that is a visible cluster of its own. */
export const isSimpleAstral = (point: number): boolean => inRanges(SIMPLE_ASTRAL, point);

/**
 * Whether the code point starting at `i` is free: printable ASCII, a simple character, or a
 * control but CR. Two free characters side by side are never one grapheme cluster, and no
 * segmentation rule looks across the place where they meet. Returns the code point's length in
 * code units when it is free, else its negated length.
 */
function freeAt(s: string, i: number): number {
  const unit = s.charCodeAt(i);
  if (unit < 0xa0) return unit === 0x0d ? -1 : 1;
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length) {
    const point = s.codePointAt(i)!;
    if (point > 0xffff) return isSimpleAstral(point) ? 2 : -2;
  }
  return isSimpleUnit(unit) ? 1 : -1;
}

/**
 * Calls `visit(from, to)` for each piece of `s` between the places where two free characters
 * meet, in order: such a piece can be split into clusters (or measured) on its own. A piece is
 * a free character alone, or a stretch the segmenter must split (emoji sequences, marks and the
 * letter they sit on, scripts with joining rules).
 */
export function forEachStretch(s: string, visit: (from: number, to: number, free: boolean) => void): void {
  let start = 0;
  let previousFree = false;
  for (let i = 0; i < s.length; ) {
    const step = freeAt(s, i);
    const free = step > 0;
    if (free && previousFree) {
      visit(start, i, i - start === Math.abs(freeAt(s, start)));
      start = i;
    }
    previousFree = free;
    i += Math.abs(step);
  }
  if (start < s.length) visit(start, s.length, s.length - start === Math.abs(freeAt(s, start)) && freeAt(s, start) > 0);
}

