/**
 * How well a typed query matches a name, both folded (fold.ts): the finder's
 * ranking starts from this class, best first —
 *
 *   exact      "general"         for "general"
 *   prefix     "general chat"    for "gen"
 *   word start "release notes"   for "notes", "rel no", "rn" (each piece starts a word)
 *   substring  "backend"         for "end"
 *   fuzzy      "design review"   for "dsgrv" (the letters in order, with gaps)
 *
 * A word starts after anything that is not a letter or digit, and every wide
 * character (CJK) starts one of its own. Within a class, `quality` says how
 * tight the match is (lower is better).
 */

export const MATCH = { none: 0, fuzzy: 1, substring: 2, wordStart: 3, prefix: 4, exact: 5 } as const;
export type MatchClass = (typeof MATCH)[keyof typeof MATCH];

export interface Query {
  /** Folded, trimmed, runs of spaces as one. */
  text: string;
  /** Letters and digits only: what fuzzy and word-start matching look for. */
  compact: string;
  /** Positions in `compact` where a new query word begins (a piece must start there). */
  breaks: readonly boolean[];
}

export interface Match {
  cls: MatchClass;
  quality: number;
}

/** Letters and digits (any script) continue a word; ASCII is decided without a regular expression. */
function isWordChar(code: number): boolean {
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a);
  return !isSeparatorAbove127(code);
}

function isSeparatorAbove127(code: number): boolean {
  // General punctuation, spaces, arrows, box drawing and the CJK punctuation block.
  return (code >= 0x2000 && code <= 0x2bff) || (code >= 0x3000 && code <= 0x303f) || code === 0xa0 || (code >= 0xff00 && code <= 0xff0f);
}

/** Ideographs, kana and hangul: each is a word of its own. */
function isWide(code: number): boolean {
  return (code >= 0x3040 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7af) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xd800 && code <= 0xdbff);
}

export function isWordStart(t: string, i: number): boolean {
  if (i === 0) return true;
  const code = t.charCodeAt(i);
  if (code >= 0xdc00 && code <= 0xdfff) return false; // inside a surrogate pair
  if (!isWordChar(code)) return false;
  return !isWordChar(t.charCodeAt(i - 1)) || isWide(code);
}

export function prepareQuery(folded: string): Query {
  const text = folded.trim().replace(/\s+/g, " ");
  let compact = "";
  const breaks: boolean[] = [];
  let newWord = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isWordChar(code) && !(code >= 0xdc00 && code <= 0xdfff)) {
      newWord = true;
      continue;
    }
    breaks.push(newWord);
    compact += text[i];
    newWord = false;
  }
  return { text, compact, breaks };
}

/** Whether the query's letters appear in `t` in order (the cheap test every candidate passes first). */
export function isSubsequence(t: string, compact: string): boolean {
  let at = 0;
  for (let i = 0; i < compact.length; i++) {
    at = t.indexOf(compact[i] as string, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

/** Whether some word of `t` begins with `ch` (checked before any allocation: most names fail here). */
function startsSomeWord(t: string, ch: string): boolean {
  for (let i = t.indexOf(ch); i >= 0; i = t.indexOf(ch, i + 1)) if (isWordStart(t, i)) return true;
  return false;
}

/** Word start positions of `t`. */
function wordStarts(t: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) if (isWordStart(t, i)) out.push(i);
  return out;
}

/**
 * The query as pieces, each the beginning of a word of `t`, words in order
 * ("rel no" and "rn" in "release notes"). Returns the matched positions, or
 * undefined. Small inputs (names): a depth-first search with a memo of dead ends.
 */
export function wordPieces(t: string, q: Query): number[] | undefined {
  const n = q.compact.length;
  if (n === 0 || !startsSomeWord(t, q.compact[0] as string)) return undefined;
  const starts = wordStarts(t);
  const dead = new Set<number>();
  const path: number[] = [];
  const search = (w: number, at: number): boolean => {
    if (at === n) return true;
    const memo = w * (n + 1) + at;
    if (dead.has(memo)) return false;
    for (let k = w; k < starts.length; k++) {
      const s = starts[k] as number;
      let len = 0;
      while (at + len < n && s + len < t.length && t[s + len] === q.compact[at + len] && (len === 0 || !q.breaks[at + len])) {
        if (len > 0 && !isWordChar(t.charCodeAt(s + len))) break;
        len++;
      }
      for (let l = len; l >= 1; l--) {
        for (let j = 0; j < l; j++) path.push(s + j);
        if (search(k + 1, at + l)) return true;
        path.length -= l;
      }
    }
    dead.add(memo);
    return false;
  };
  return search(0, 0) ? path : undefined;
}

/** The tightest in-order placement of the query's letters (for fuzzy matches): positions, or undefined. */
export function fuzzyPositions(t: string, compact: string): number[] | undefined {
  let best: number[] | undefined;
  let start = t.indexOf(compact[0] ?? "");
  while (start >= 0) {
    const pos = [start];
    let at = start + 1;
    for (let i = 1; i < compact.length; i++) {
      at = t.indexOf(compact[i] as string, at);
      if (at < 0) return best;
      pos.push(at);
      at++;
    }
    if (!best || pos[pos.length - 1]! - pos[0]! < best[best.length - 1]! - best[0]!) best = pos;
    start = t.indexOf(compact[0] as string, start + 1);
  }
  return best;
}

/** Classifies a match of `q` in `t` (both folded) into `out`; returns whether it matched at all. */
export function classify(t: string, q: Query, out: Match): boolean {
  const text = q.text;
  if (text.length === 0) {
    out.cls = MATCH.prefix;
    out.quality = t.length;
    return true;
  }
  if (t.length >= text.length && t.startsWith(text)) {
    out.cls = t.length === text.length ? MATCH.exact : MATCH.prefix;
    out.quality = t.length;
    return true;
  }
  const first = t.indexOf(text);
  for (let i = first; i >= 0; i = t.indexOf(text, i + 1)) {
    if (isWordStart(t, i)) {
      out.cls = MATCH.wordStart;
      out.quality = i + t.length;
      return true;
    }
  }
  if (q.compact.length === 0 || !isSubsequence(t, q.compact)) {
    if (first < 0) return false;
    out.cls = MATCH.substring;
    out.quality = first + t.length;
    return true;
  }
  // One letter is one piece: the word-start occurrences above already answered.
  const pieces = q.compact.length > 1 ? wordPieces(t, q) : undefined;
  if (pieces) {
    out.cls = MATCH.wordStart;
    out.quality = (pieces[pieces.length - 1] as number) - (pieces[0] as number) + t.length;
    return true;
  }
  if (first >= 0) {
    out.cls = MATCH.substring;
    out.quality = first + t.length;
    return true;
  }
  const pos = fuzzyPositions(t, q.compact);
  out.cls = MATCH.fuzzy;
  out.quality = pos ? (pos[pos.length - 1] as number) - (pos[0] as number) + t.length : t.length * 2;
  return true;
}

/** The positions in `t` to show as matched, for a match of class `cls`. */
export function matchPositions(t: string, q: Query, cls: MatchClass): number[] {
  const range = (from: number, length: number) => Array.from({ length }, (_, k) => from + k);
  if (q.text.length === 0) return [];
  if (cls === MATCH.exact || cls === MATCH.prefix) return range(0, q.text.length);
  if (cls === MATCH.wordStart) {
    for (let i = t.indexOf(q.text); i >= 0; i = t.indexOf(q.text, i + 1)) if (isWordStart(t, i)) return range(i, q.text.length);
    return wordPieces(t, q) ?? [];
  }
  if (cls === MATCH.substring) {
    const i = t.indexOf(q.text);
    if (i >= 0) return range(i, q.text.length);
  }
  return fuzzyPositions(t, q.compact) ?? [];
}

/**
 * Matched positions of a folded text as ranges of the original text
 * (`source` from foldWithMap): [start, end) pairs in UTF-16 units, merged.
 */
export function sourceRanges(source: readonly number[], positions: readonly number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const end = source[source.length - 1] as number;
  for (const p of [...positions].sort((a, b) => a - b)) {
    const from = source[p];
    if (from === undefined) continue;
    let to = end;
    for (let j = p + 1; j < source.length; j++) {
      if ((source[j] as number) > from) {
        to = source[j] as number;
        break;
      }
    }
    const last = out[out.length - 1];
    if (last && last[1] >= from) last[1] = Math.max(last[1], to);
    else out.push([from, to]);
  }
  return out;
}
