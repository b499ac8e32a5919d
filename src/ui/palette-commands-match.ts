/**
 * Fuzzy matching for the command palette and the form pickers: every typed
 * character must appear in order; matches at the start, at word starts and
 * in runs rank higher, then shorter texts. Case-insensitive.
 */

function isWordStart(t: string, i: number): boolean {
  return i === 0 || /[^\p{L}\p{N}]/u.test(t[i - 1]!);
}

/** A score (higher is better) or undefined when `query` does not match `text`. */
export function fuzzyScore(query: string, text: string): number | undefined {
  const q = query.toLowerCase().replace(/\s+/g, "");
  if (q === "") return 0;
  const t = text.toLowerCase();
  const spaced = query.toLowerCase().trim().replace(/\s+/g, " ");
  // The query as one piece (its spaces kept or dropped): above any scattered match; at a word start, early, short texts first.
  for (const piece of new Set([spaced, q])) {
    let best = -1;
    for (let i = t.indexOf(piece); i >= 0; i = t.indexOf(piece, i + 1)) {
      if (isWordStart(t, i)) {
        best = i;
        break;
      }
      if (best < 0) best = i;
    }
    if (best >= 0) return 1000 + (isWordStart(t, best) ? 20 : 0) + (best === 0 ? 10 : 0) - best / 10 - text.length / 100;
  }
  // Scattered: every character in order, runs and word starts count.
  let score = 0;
  let ti = 0;
  let prev = -2;
  for (const ch of q) {
    const found = t.indexOf(ch, ti);
    if (found < 0) return undefined;
    score += 1 + (found === prev + 1 ? 3 : 0) + (isWordStart(t, found) ? 4 : 0) + (found === 0 ? 2 : 0);
    prev = found;
    ti = found + 1;
  }
  return score - text.length / 100;
}

/** The items matching `query`, best first (stable for equal scores); all of them for an empty query. */
export function fuzzyFilter<T>(query: string, items: readonly T[], text: (item: T) => string): T[] {
  if (query.trim() === "") return [...items];
  const scored: Array<{ item: T; score: number; i: number }> = [];
  items.forEach((item, i) => {
    const score = fuzzyScore(query, text(item));
    if (score !== undefined) scored.push({ item, score, i });
  });
  return scored.sort((a, b) => b.score - a.score || a.i - b.i).map((s) => s.item);
}
