/**
 * The search for a block of lines that scrolled (line-shift.ts) passes over the distances that
 * cannot pay, looking at the changed rows first: its answer must be the full search's on every
 * frame, and it must ask for far fewer line comparisons on a frame that did not scroll, and no
 * more than the full search on a page turned among look-alike rows.
 */
import { expect, it } from "vitest";
import { findShift, type Shift } from "../../src/ui/ink-frame/line-shift.js";

const SHIFT_BYTES = 24;
const MAX_SHIFT = 12;

/** The search over every distance and block, as it was before the pruning: the reference. */
function fullSearch(rows: number, changed: (y: number) => boolean, cost: (from: number, y: number) => number): Shift | undefined {
  let count = 0;
  for (let y = 0; y < rows; y++) if (changed(y)) count++;
  if (count < 3) return undefined;
  const base = Array.from({ length: rows }, (_, y) => (changed(y) ? cost(y, y) : 0));
  const blank = Array.from({ length: rows }, (_, y) => base[y]! - cost(-1, y));
  let best: Shift | undefined;
  let bestSaving = SHIFT_BYTES;
  for (let n = 1; n < Math.min(rows, MAX_SHIFT + 1); n++) {
    const moved = Array.from({ length: rows - n }, (_, y) => base[y]! - cost(y + n, y));
    let head = -Infinity;
    let headTop = 0;
    for (let b = n; b < rows; b++) {
      const y = b - n;
      if (head > 0) head += moved[y]!;
      else [head, headTop] = [moved[y]!, y];
      let tail = 0;
      for (let k = b - n + 1; k <= b; k++) tail += blank[k]!;
      if (head + tail > bestSaving) [bestSaving, best] = [head + tail, { top: headTop, bottom: b, by: n }];
    }
    const down = Array.from({ length: rows }, (_, y) => (y >= n ? base[y]! - cost(y - n, y) : 0));
    let rest = -Infinity;
    let restBottom = rows - 1;
    for (let a = rows - 1 - n; a >= 0; a--) {
      const y = a + n;
      if (rest > 0) rest += down[y]!;
      else [rest, restBottom] = [down[y]!, y];
      let lead = 0;
      for (let k = a; k < a + n; k++) lead += blank[k]!;
      if (rest + lead > bestSaving) [bestSaving, best] = [rest + lead, { top: a, bottom: restBottom, by: -n }];
    }
  }
  return best;
}

/** A small deterministic random source (the same frames on every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

/**
 * A frame of lines as numbers: equal numbers, equal lines. The next frame is the one on screen
 * with a block scrolled by some rows (or none), a few rows changed, and new lines brought in.
 */
function frames(rnd: () => number) {
  const rows = 3 + Math.floor(rnd() * 40);
  let fresh = 1000;
  const prev = Array.from({ length: rows }, () => Math.floor(rnd() * 30));
  const next = prev.slice();
  if (rnd() < 0.6) {
    const by = Math.floor(rnd() * 27) - 13;
    const top = Math.floor(rnd() * rows);
    const bottom = top + Math.floor(rnd() * (rows - top));
    for (let y = top; y <= bottom; y++) {
      const from = y + by;
      next[y] = from >= top && from <= bottom ? prev[from]! : fresh++;
    }
  }
  for (let i = Math.floor(rnd() * 8); i > 0; i--) next[Math.floor(rnd() * rows)] = rnd() < 0.5 ? fresh++ : -next[Math.floor(rnd() * rows)]! - 1;
  // What a line costs written over another: nothing when equal, a near line (one with its sign
  // flipped: a mark changed) little, anything else about its length; on a blank line less (no
  // old text to write over).
  const length = (v: number) => 20 + (Math.abs(v) % 90);
  const lineCost = (a: number | undefined, b: number) =>
    a === undefined ? 7 + Math.floor(length(b) / 2) : a === b ? 0 : a === -b - 1 || b === -a - 1 ? 9 : 7 + length(b);
  // Past a limit, any answer at least as large keeps the contract: the search may rely on nothing more.
  const cost = (from: number, y: number, limit = Infinity) => {
    const c = lineCost(from < 0 ? undefined : prev[from], next[y]!);
    return c >= limit ? limit + Math.floor(rnd() * 5) : c;
  };
  return { rows, changed: (y: number) => prev[y] !== next[y], cost };
}

it("finds the same block and distance as the full search, over random frames", () => {
  const rnd = random(7);
  let moves = 0;
  for (let i = 0; i < 3000; i++) {
    const f = frames(rnd);
    const expected = fullSearch(f.rows, f.changed, f.cost);
    expect(findShift(f.rows, f.changed, f.cost), `frame ${i}`).toEqual(expected);
    if (expected) moves++;
  }
  // The frames exercise both answers.
  expect(moves).toBeGreaterThan(300);
});

it("asks for few comparisons on a frame where only a selection's marks moved", () => {
  const rows = 38;
  const prev = Array.from({ length: rows }, (_, y) => y);
  // Rows 5-7 lose the mark, rows 20-23 gain it: a mark changed is a near line.
  const next = prev.map((v, y) => ((y >= 5 && y <= 7) || (y >= 20 && y <= 23) ? -v - 1 : v));
  let asked = 0;
  const cost = (from: number, y: number) => {
    asked++;
    const a = from < 0 ? undefined : prev[from];
    const b = next[y]!;
    return a === b ? 0 : a !== undefined && (a === -b - 1 || b === -a - 1) ? 9 : 100;
  };
  const changed = (y: number) => prev[y] !== next[y];
  expect(findShift(rows, changed, cost)).toBeUndefined();
  const pruned = asked;
  asked = 0;
  expect(fullSearch(rows, changed, cost)).toBeUndefined();
  expect(pruned).toBeLessThan(asked / 4);
});

it("asks no more comparisons than the full search on a page turned among look-alike rows, with the same answer", () => {
  // A long topic's page: the same few names on many rows. Some new rows look like rows at many
  // distances (near lines), so the bound passes there, while most rows are new and save nothing.
  const rows = 38;
  const prev = Array.from({ length: rows }, (_, y) => y % 6);
  const next = Array.from({ length: rows }, (_, y) => (y % 4 === 0 ? -(y % 6) - 1 : 100 + y));
  let asked = 0;
  const length = (v: number) => 30 + (Math.abs(v) % 40);
  const cost = (from: number, y: number, limit = Infinity) => {
    asked++;
    const a = from < 0 ? undefined : prev[from];
    const b = next[y]!;
    const c = a === undefined ? 7 + Math.floor(length(b) / 2) : a === b ? 0 : a === -b - 1 || b === -a - 1 ? 9 : 7 + length(b);
    return Math.min(c, limit);
  };
  const changed = (y: number) => prev[y] !== next[y];
  const answer = findShift(rows, changed, cost);
  const pruned = asked;
  asked = 0;
  expect(answer).toEqual(fullSearch(rows, changed, cost));
  expect(pruned).toBeLessThanOrEqual(asked);
});
