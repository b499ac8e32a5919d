/**
 * Cells a string takes in a terminal. termchat uses this one function everywhere a width is
 * measured (Ink's layout, the frame buffer, wrapping, tables: the Ink patch, scripts/ink-patch.mjs,
 * points every `string-width` import here, in the bundle and in the tests), so they never disagree.
 *
 * The rules are those of string-width 8.3.0, which Ink 6.8 was written against, and the tests
 * compare the two on every code point of the fast path and on random text:
 * - ANSI escape sequences take no cells (unless asked to count them);
 * - text is measured grapheme cluster by cluster; a cluster with nothing visible (controls,
 *   format characters, nonspacing and enclosing marks, default-ignorables) takes none;
 * - an emoji cluster takes two: RGI emoji, keycaps without the presentation selector, and ZWJ
 *   sequences of two or more pictographs;
 * - modern Hangul jamo L+V(+T) make one two-cell syllable; other jamo add up;
 * - anything else takes the East Asian Width of its first visible code point, plus that of any
 *   spacing mark or half/full-width form that follows in the cluster.
 *
 * What this adds is speed at start: no Intl.Segmenter and no Unicode-property regex is created
 * until a string needs one (making them costs ~30 ms, most of it the RGI emoji set). Text made of
 * characters that are always a visible cluster of their own (simple-chars.ts) is summed character
 * by character, each taking its East Asian Width (every single-character emoji is East Asian
 * Wide); and a cluster of one character never needs the emoji set, for the same reason.
 */
import { eastAsianWidth } from "get-east-asian-width";
import stripAnsi from "strip-ansi";
import { icuGraphemes } from "./graphemes.js";
import { forEachStretch, isSimpleAstral, isSimpleUnit } from "./simple-chars.js";

export interface StringWidthOptions {
  /** East Asian ambiguous characters take one cell (true, the default) or two. */
  ambiguousIsNarrow?: boolean;
  /** Count the escape sequences' characters instead of skipping them. */
  countAnsiEscapeCodes?: boolean;
}

const NARROW = { ambiguousAsWide: false } as const;
const WIDE = { ambiguousAsWide: true } as const;

/** The width of `s` if every character is printable ASCII or simple (simple-chars.ts), else -1. */
function simpleWidth(s: string, wide: boolean): number {
  const options = wide ? WIDE : NARROW;
  let cells = 0;
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    if (unit >= 0x20 && unit <= 0x7e) {
      cells += 1;
    } else if (unit >= 0xd800 && unit <= 0xdbff) {
      const point = s.codePointAt(i)!;
      if (point <= 0xffff || !isSimpleAstral(point)) return -1;
      cells += eastAsianWidth(point, options);
      i++;
    } else if (isSimpleUnit(unit)) {
      cells += eastAsianWidth(unit, options);
    } else {
      return -1;
    }
  }
  return cells;
}

interface Clusters {
  visible: RegExp;
  spacingMark: RegExp;
  rgiEmoji: RegExp;
  pictograph: RegExp;
}
let clusters: Clusters | undefined;

/** The property regexes, made on the first string that needs them. */
function clusterTools(): Clusters {
  clusters ??= {
    // One negated class, no quantifier: a repeated pattern backtracks badly on long runs of marks.
    // (The `v` flag's sets of strings, RGI_Emoji among them: Node 20 has them, the type checker's target not.)
    visible: new RegExp("[^\\p{Default_Ignorable_Code_Point}\\p{Control}\\p{Format}\\p{Nonspacing_Mark}\\p{Enclosing_Mark}\\p{Surrogate}]", "v"),
    spacingMark: new RegExp("\\p{Spacing_Mark}", "v"),
    rgiEmoji: new RegExp("^\\p{RGI_Emoji}$", "v"),
    pictograph: /\p{Extended_Pictographic}/gu,
  };
  return clusters;
}

const isLeadingJamo = (c: number) => (c >= 0x1100 && c <= 0x115f) || (c >= 0xa960 && c <= 0xa97c);
const isVowelJamo = (c: number) => (c >= 0x1160 && c <= 0x11a7) || (c >= 0xd7b0 && c <= 0xd7c6);
const isTrailingJamo = (c: number) => (c >= 0x11a8 && c <= 0x11ff) || (c >= 0xd7cb && c <= 0xd7fb);
const isJamo = (c: number) => isLeadingJamo(c) || isVowelJamo(c) || isTrailingJamo(c);

/** Emoji drawn two cells wide though not RGI: a keycap without VS16, or a ZWJ sequence of 2+ pictographs. */
function isLooseEmoji(cluster: string, tools: Clusters): boolean {
  if (cluster.length > 50) return false; // real emoji are short; do not scan pathological clusters
  if (cluster.length === 2 && cluster.charCodeAt(1) === 0x20e3 && /[\d#*]/.test(cluster[0]!)) return true;
  if (!cluster.includes("\u200d")) return false;
  return (cluster.match(tools.pictograph)?.length ?? 0) >= 2;
}

/** Cells of a cluster that starts with a Hangul jamo (from its first visible character), else undefined. */
function jamoWidth(visibleRest: string, tools: Clusters, options: typeof WIDE | typeof NARROW): number | undefined {
  const points: number[] = [];
  for (const ch of visibleRest) if (tools.visible.test(ch)) points.push(ch.codePointAt(0)!);
  if (points.length === 0 || !isJamo(points[0]!)) return undefined;
  let cells = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (!isJamo(p)) {
      // a jamo followed by something else: the rest counts by its own widths
      for (const q of points.slice(i)) cells += eastAsianWidth(q, options);
      return cells;
    }
    if (isLeadingJamo(p) && isVowelJamo(points[i + 1] ?? -1)) {
      cells += 2; // L+V or L+V+T: one syllable block
      i += isTrailingJamo(points[i + 2] ?? -1) ? 2 : 1;
    } else {
      cells += eastAsianWidth(p, options);
    }
  }
  return cells;
}

/** The cells of one grapheme cluster. */
function segmentWidth(segment: string, tools: Clusters, options: typeof WIDE | typeof NARROW): number {
  const start = segment.search(tools.visible);
  if (start < 0) return 0; // nothing visible
  const point = segment.codePointAt(0)!;
  if (segment.length === (point > 0xffff ? 2 : 1)) return eastAsianWidth(point, options); // one visible character (an emoji among them is Wide)
  if (tools.rgiEmoji.test(segment) || isLooseEmoji(segment, tools)) return 2;
  const rest = segment.slice(start);
  const jamo = jamoWidth(rest, tools, options);
  if (jamo !== undefined) return jamo;
  let cells = eastAsianWidth(rest.codePointAt(0)!, options);
  // Spacing marks and half/full-width forms after the first character add their own width.
  let first = true;
  for (const ch of rest) {
    if (first) {
      first = false;
      continue;
    }
    if (tools.spacingMark.test(ch) || (ch >= "\uff00" && ch <= "\uffef")) cells += eastAsianWidth(ch.codePointAt(0)!, options);
  }
  return cells;
}

/**
 * Widths of short clusters and strings, as computed by the general case: the emoji-set test takes
 * microseconds a cluster, and wrap-ansi measures a line's words, then each character of a long one.
 */
const SHORT = 8;
const shortWidths = { narrow: new Map<string, number>(), wide: new Map<string, number>() };

function rememberedWidth(s: string, wide: boolean, compute: () => number): number {
  const known = wide ? shortWidths.wide : shortWidths.narrow;
  let cells = known.get(s);
  if (cells === undefined) {
    if (known.size >= 4096) known.clear();
    cells = compute();
    known.set(s, cells);
  }
  return cells;
}

/** The cells of text the segmenter must split, cluster by cluster. */
function segmentedWidth(s: string, wide: boolean): number {
  const tools = clusterTools();
  const options = wide ? WIDE : NARROW;
  let cells = 0;
  for (const { segment } of icuGraphemes().segment(s)) {
    cells += segment.length > SHORT ? segmentWidth(segment, tools, options) : rememberedWidth(segment, wide, () => segmentWidth(segment, tools, options));
  }
  return cells;
}

/**
 * The general case. Where two free characters meet (simple-chars.ts) no cluster spans, so each
 * free character takes its own width (none for a control) and only the stretches between go to
 * the segmenter (emoji sequences, marks with the letter they sit on, scripts with joining rules).
 * A text with a few emoji in it is not handed to the segmenter whole: each cluster it yields
 * costs an object, and a 10,000-character message measured word by word made hundreds of
 * megabytes of them.
 */
function clusterWidth(s: string, wide: boolean): number {
  const options = wide ? WIDE : NARROW;
  let cells = 0;
  forEachStretch(s, (from, to, free) => {
    if (free) {
      const point = s.codePointAt(from)!;
      cells += point < 0x20 || (point >= 0x7f && point < 0xa0) ? 0 : eastAsianWidth(point, options);
    } else {
      const stretch = s.slice(from, to);
      cells += stretch.length > SHORT ? segmentedWidth(stretch, wide) : rememberedWidth(stretch, wide, () => segmentedWidth(stretch, wide));
    }
  });
  return cells;
}

export default function stringWidth(input: unknown, options: StringWidthOptions = {}): number {
  if (typeof input !== "string" || input.length === 0) return 0;
  const wide = options.ambiguousIsNarrow === false;
  let s = input;
  if (!options.countAnsiEscapeCodes && (s.includes("\u001b") || s.includes("\u009b"))) s = stripAnsi(s);
  if (s.length === 0) return 0;
  const simple = simpleWidth(s, wide);
  if (simple >= 0) return simple;
  return s.length > SHORT ? clusterWidth(s, wide) : rememberedWidth(s, wide, () => clusterWidth(s, wide));
}
