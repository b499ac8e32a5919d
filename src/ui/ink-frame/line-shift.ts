/**
 * Finds the block of a frame's lines that moved up or down together (a pane that scrolled), so
 * the writer can have the terminal move them (delete and insert lines) and then write only what
 * still differs. The block and the distance are chosen by cost: the bytes to turn each line on
 * screen into its new version with the move and without it, as `cost` estimates them. A move
 * that saves nothing is not proposed.
 */

/** Rows `top`..`bottom` (inclusive) of the frame move by `by` rows: up when positive, down when negative. */
export interface Shift {
  top: number;
  bottom: number;
  by: number;
}

/** The bytes of the two line deletions and insertions and the cursor movements to them, about. */
const SHIFT_BYTES = 24;
/** Below this many changed lines nothing can have scrolled enough to be worth the search. */
const MIN_CHANGED = 3;
/**
 * The farthest move looked for: what scrolls by more (a page turned) keeps too few lines for
 * the move to pay, the column beside it being written again; and the search grows with it.
 */
const MAX_SHIFT = 12;

/**
 * `cost(from, y, limit)`: the bytes to turn line `from` of the frame on screen (-1: a blank line)
 * into line `y` of the next frame; it may stop counting at `limit` (any answer ≥ `limit` then
 * means "at least that"). Only the first `rows` lines (those both frames have) are considered.
 *
 * Most frames did not scroll (a key moved a selection: a few rows changed their mark; a page
 * turned: every row changed, none to be found nearby), and the search over every distance
 * weighed on every key. So each distance is first bounded through the changed rows alone: a
 * block moved by it saves at most what its changed rows save coming from their moved places
 * (costs counted only up to each row's own) plus the best the rows it brings in can save on
 * blank lines. When that cannot beat the best saving so far, the distance is passed over: the
 * search's answer is the same, at a fraction of the comparisons.
 *
 * A page turned among look-alike rows (a long topic: the same names, times and short replies on
 * many lines) beats that bound at most distances, and the block search behind it then asked every
 * row's whole cost at each: two thirds of such a key's search. So the bound stops as soon as it
 * is beaten, and the block search asks a row's whole cost only where it can change the answer
 * (the row adds to a block, or the new rows beside it alone would win); elsewhere the count that
 * stopped at the row's own cost says enough. Same answer, a little over half the comparisons.
 */
export function findShift(rows: number, changed: (y: number) => boolean, cost: (from: number, y: number, limit?: number) => number): Shift | undefined {
  const changedRows: number[] = [];
  for (let y = 0; y < rows; y++) if (changed(y)) changedRows.push(y);
  if (changedRows.length < MIN_CHANGED) return undefined;
  const base = Array.from({ length: rows }, (_, y) => (changed(y) ? cost(y, y) : 0));
  const blank = Array.from({ length: rows }, (_, y) => base[y]! - cost(-1, y));
  // blankUpTo[k]: the blank savings of rows 0..k-1, so that any run of them is a subtraction.
  const blankUpTo = [0];
  for (let y = 0; y < rows; y++) blankUpTo.push(blankUpTo[y]! + blank[y]!);
  const blankRun = (from: number, to: number) => blankUpTo[to + 1]! - blankUpTo[from]!;
  /** The most `n` consecutive rows' blank savings add up to: what the rows a move brings in can save. */
  const bestRun = (n: number) => {
    let most = -Infinity;
    for (let y = n - 1; y < rows; y++) most = Math.max(most, blankRun(y - n + 1, y));
    return most;
  };
  /**
   * What each row saves shown from row `y + by` of the screen, as far as asked for the distance
   * at hand: not yet (0); exactly (1, the saving in `saving`); or only that it is at most nothing
   * (2: the row's cost was counted only up to its own, and reached it).
   */
  const asked = new Uint8Array(rows);
  const saving = new Float64Array(rows);
  let by = 0;
  const exactly = (y: number) => {
    if (asked[y] !== 1) {
      saving[y] = base[y]! - cost(y + by, y);
      asked[y] = 1;
    }
    return saving[y]!;
  };
  /** Whether row `y` saves nothing or less at the distance at hand, its cost counted only as far as needed. */
  const savesNothing = (y: number) => {
    if (asked[y] === 2 || !changed(y)) return true;
    if (asked[y] === 0) {
      const saved = base[y]! - cost(y + by, y, base[y]!);
      if (saved <= 0) asked[y] = 2;
      else [saving[y], asked[y]] = [saved, 1];
    }
    return asked[y] === 2 || saving[y]! <= 0;
  };
  /**
   * Whether a move by `d` may save more than `need` through the rows it keeps: what each changed
   * row would save coming from `y + d` (a row that did not change saves nothing anywhere), each
   * cost counted only up to the row's own, past which the row saves nothing. Stops as soon as the
   * answer is known to be yes; what it learnt of each row is kept for the block search.
   */
  const mayGain = (d: number, need: number) => {
    by = d;
    asked.fill(0);
    if (need < 0) return true;
    let sum = 0;
    for (const y of changedRows) {
      if (y + d < 0 || y + d >= rows) continue;
      if (!savesNothing(y)) sum += saving[y]!;
      if (sum > need) return true;
    }
    return false;
  };
  /**
   * The block search at the distance `mayGain` was last asked for, its kept rows met in `order`
   * (away from where the new rows come in), each with the new rows beside it (`arriving`). Kept
   * rows are summed while the sum stays positive (a block starts again after a row that leaves it
   * at nothing or less). A row's saving is asked exactly only where it counts: added to a
   * positive sum, starting a block, or beside new rows that alone would beat the best so far.
   */
  let best: Shift | undefined;
  let bestSaving = SHIFT_BYTES;
  const search = (order: Iterable<number>, arriving: (y: number) => number, shift: (start: number, y: number) => Shift) => {
    let sum = 0;
    let start = 0;
    for (const y of order) {
      const lead = arriving(y);
      if (sum > 0) sum += exactly(y);
      else {
        start = y;
        if (lead <= bestSaving && savesNothing(y)) {
          // No block through this row beats the best, and the next starts afresh.
          sum = 0;
          continue;
        }
        sum = exactly(y);
      }
      if (sum + lead > bestSaving) {
        bestSaving = sum + lead;
        best = shift(start, y);
      }
    }
  };
  for (let n = 1; n < Math.min(rows, MAX_SHIFT + 1); n++) {
    // A move's saving is at most what its kept rows can save plus what the rows it brings in can:
    // a distance at which that cannot beat the best so far is passed over.
    const arriving = Math.max(0, bestRun(n));
    if (mayGain(n, bestSaving - arriving)) {
      // Up: rows a..b-n show what rows a+n..b showed, rows b-n+1..b are new.
      search(range(0, rows - n - 1), (y) => blankRun(y + 1, y + n), (top, y) => ({ top, bottom: y + n, by: n }));
    }
    if (mayGain(-n, bestSaving - arriving)) {
      // Down: rows a..a+n-1 are new, rows a+n..b show what rows a..b-n showed.
      search(range(rows - 1, n, -1), (y) => blankRun(y - n, y - 1), (bottom, y) => ({ top: y - n, bottom, by: -n }));
    }
  }
  return best;
}

function* range(from: number, to: number, step = 1): Generator<number> {
  for (let y = from; step > 0 ? y <= to : y >= to; y += step) yield y;
}

/** The frame on screen after the shift: the lines that moved, and blank ones where new lines go. */
export function shifted(lines: string[], s: Shift): string[] {
  const out = lines.slice();
  const n = Math.abs(s.by);
  for (let y = s.top; y <= s.bottom; y++) {
    if (s.by > 0) out[y] = y <= s.bottom - n ? lines[y + n]! : "";
    else out[y] = y >= s.top + n ? lines[y - n]! : "";
  }
  return out;
}
