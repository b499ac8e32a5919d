/**
 * What changed between two versions of a message, as runs of unchanged,
 * removed and added text for a screen to draw.
 *
 * Text is cut into words, runs of whitespace, and single punctuation
 * characters (so `foo(bar)` → `foo` `(` `bar` `)`: code and punctuation
 * diff sensibly), with each CJK character a word of its own. The runs come
 * from Myers' shortest edit script over those tokens after the common start
 * and end are set aside. Its cost grows with the number of differences, so
 * it is bounded: past a budget of steps the diff is made over lines instead,
 * and past that the whole text counts as replaced. Whitespace left alone
 * between two changes is folded into them, so "the quick fox" → "a slow
 * fox" reads as one replacement, not two with a space kept in between.
 */

export type DiffOp = "equal" | "insert" | "delete";

export interface DiffRun {
  op: DiffOp;
  text: string;
}

export interface TextDiff {
  runs: DiffRun[];
  /** How finely it was compared: by words, by lines (a large change), or not at all (the whole text replaced). */
  granularity: "word" | "line" | "whole";
}

const TOKEN = /\s+|[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]|(?:(?![\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}])[\p{L}\p{N}\p{M}_])+|[^]/gu;

export function wordTokens(s: string): string[] {
  return s.match(TOKEN) ?? [];
}

/** Lines, each with its line break. */
export function lineTokens(s: string): string[] {
  return s.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The default budget of comparison steps: a few milliseconds, and at most a few
 * megabytes for the trace the script is read back from.
 */
const DEFAULT_BUDGET = 2_000_000;

/**
 * Myers' diff of token arrays; undefined when it would take more than
 * `budget` steps. Returns the edit as runs of tokens.
 */
function myers(a: readonly string[], b: readonly string[], budget: number): DiffRun[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let steps = 0;
  let found = -1;
  outer: for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    steps += 2 * d + 3;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number)) ? (v[offset + k + 1] as number) : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
        steps++;
      }
      v[offset + k] = x;
      steps++;
      if (x >= n && y >= m) {
        found = d;
        break outer;
      }
    }
    if (steps > budget) return undefined;
  }
  // Walk the trace back from the end, collecting the script in reverse.
  const out: DiffRun[] = [];
  const push = (op: DiffOp, text: string) => out.push({ op, text });
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const prev = trace[d] as Int32Array; // V as it was before step d, for k in [-d-1, d+1]
    const at = (k: number) => prev[k + d + 1] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    for (; x > prevX && y > prevY; y--) push("equal", a[--x] as string);
    if (down) push("insert", b[--y] as string);
    else push("delete", a[--x] as string);
  }
  for (; x > 0 && y > 0; y--) push("equal", a[--x] as string);
  return out.reverse();
}

/** Joins neighbouring runs of the same kind. */
function merge(runs: DiffRun[]): DiffRun[] {
  const out: DiffRun[] = [];
  for (const r of runs) {
    if (r.text === "") continue;
    const last = out[out.length - 1];
    if (last && last.op === r.op) last.text += r.text;
    else out.push({ ...r });
  }
  return out;
}

/** Folds whitespace-only unchanged runs that sit between two changes into them (see the header). */
function foldSpaces(runs: DiffRun[]): DiffRun[] {
  const out: DiffRun[] = [];
  let del = "";
  let ins = "";
  const flush = () => {
    if (del) out.push({ op: "delete", text: del });
    if (ins) out.push({ op: "insert", text: ins });
    del = ins = "";
  };
  for (let i = 0; i < runs.length; i++) {
    const r = runs[i] as DiffRun;
    if (r.op === "delete") del += r.text;
    else if (r.op === "insert") ins += r.text;
    else if ((del || ins) && /^\s+$/.test(r.text) && runs[i + 1] !== undefined && !/\n/.test(r.text)) {
      del += r.text;
      ins += r.text;
    } else {
      flush();
      out.push(r);
    }
  }
  flush();
  return out;
}

function diffTokens(a: string[], b: string[], budget: number): DiffRun[] | undefined {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const middle = myers(a.slice(start, a.length - end), b.slice(start, b.length - end), budget);
  if (!middle) return undefined;
  return [
    { op: "equal", text: a.slice(0, start).join("") },
    ...middle,
    { op: "equal", text: a.slice(a.length - end).join("") },
  ];
}

export function wordDiff(before: string, after: string, o: { budget?: number } = {}): TextDiff {
  const budget = o.budget ?? DEFAULT_BUDGET;
  const words = diffTokens(wordTokens(before), wordTokens(after), budget);
  if (words) return { runs: foldSpaces(merge(words)), granularity: "word" };
  const lines = diffTokens(lineTokens(before), lineTokens(after), budget);
  if (lines) return { runs: merge(lines), granularity: "line" };
  return { runs: merge([{ op: "delete", text: before }, { op: "insert", text: after }]), granularity: "whole" };
}
