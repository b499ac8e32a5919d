/**
 * Grapheme clusters, as `Intl.Segmenter` with `granularity: "grapheme"` gives them, for the
 * whole bundle: our width and wrapping code, and the two tokenizers the frame buffer uses
 * (@alcalzone/ansi-tokenize and slice-ansi, whose `new Intl.Segmenter` the Ink patch points
 * here, scripts/ink-patch.mjs).
 *
 * Most text on screen is made of characters that are each a cluster of their own: ASCII and the
 * other characters string-width.ts sums directly, and control characters (escape sequences are
 * made of them and of ASCII). For such text the clusters are its code points, found by a plain
 * loop. Anything else (a CR, combining marks, ZWJ sequences, flags, skin tones, variation
 * selectors) goes to the real segmenter, made the first time it is needed: making one loads
 * ICU's break rules, ~10 ms at start.
 */
import { forEachStretch, isSimpleAstral, isSimpleUnit } from "./simple-chars.js";

export interface GraphemeSegment {
  segment: string;
  index: number;
  input: string;
}

/** What `Intl.Segmenter#segment` returns, as far as its users here use it. */
export interface GraphemeSegments extends Iterable<GraphemeSegment> {
  containing(index?: number): GraphemeSegment | undefined;
}

let real: Intl.Segmenter | undefined;

/** The real grapheme segmenter, made on first use. */
export function icuGraphemes(): Intl.Segmenter {
  real ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return real;
}

/** Whether every code point of `s` is a cluster of its own (see the header). */
export function perCodePoint(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit < 0xa0) {
      if (unit === 0x0d) return false; // CR LF is one cluster
      continue; // ASCII, and the C0 and C1 controls (each a cluster)
    }
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const point = s.codePointAt(i)!;
      if (point <= 0xffff || !isSimpleAstral(point)) return false;
      i++;
    } else if (!isSimpleUnit(unit)) {
      return false;
    }
  }
  return true;
}

/** The clusters of text whose code points are its clusters. */
class CodePoints implements GraphemeSegments {
  constructor(private readonly input: string) {}

  *[Symbol.iterator](): Iterator<GraphemeSegment> {
    const s = this.input;
    for (let i = 0; i < s.length; ) {
      const width = s.charCodeAt(i) >= 0xd800 && s.charCodeAt(i) <= 0xdbff ? 2 : 1;
      yield { segment: s.slice(i, i + width), index: i, input: s };
      i += width;
    }
  }

  containing(index = 0): GraphemeSegment | undefined {
    const s = this.input;
    let i = Math.trunc(index);
    if (!(i >= 0 && i < s.length)) return undefined;
    const unit = s.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) i--; // the second half of a pair
    const width = s.charCodeAt(i) >= 0xd800 && s.charCodeAt(i) <= 0xdbff ? 2 : 1;
    return { segment: s.slice(i, i + width), index: i, input: s };
  }
}

/**
 * The clusters of other text: its free characters (simple-chars.ts) each a cluster, and the
 * segmenter's clusters of the stretches between, so that a long text with a few emoji in it
 * does not go through the segmenter whole. `containing` asks the segmenter.
 */
class Stretches implements GraphemeSegments {
  constructor(private readonly input: string) {}

  [Symbol.iterator](): Iterator<GraphemeSegment> {
    const s = this.input;
    const out: GraphemeSegment[] = [];
    forEachStretch(s, (from, to, free) => {
      if (free) {
        out.push({ segment: s.slice(from, to), index: from, input: s });
        return;
      }
      for (const { segment, index } of icuGraphemes().segment(s.slice(from, to))) out.push({ segment, index: from + index, input: s });
    });
    return out[Symbol.iterator]();
  }

  containing(index?: number): GraphemeSegment | undefined {
    return icuGraphemes().segment(this.input).containing(index);
  }
}

/** The grapheme clusters of `s`. */
export function graphemes(s: string): GraphemeSegments {
  return perCodePoint(s) ? new CodePoints(s) : new Stretches(s);
}

/** A stand-in for `new Intl.Segmenter(undefined, { granularity: "grapheme" })`. */
export const graphemeSegmenter = { segment: graphemes };
