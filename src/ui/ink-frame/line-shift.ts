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
 */
export function findShift(rows: number, changed: (y: number) => boolean, cost: (from: number, y: number, limit?: number) => number): Shift | undefined {
  const changedRows: number[] = [];
  for (let y = 0; y < rows; y++) if (changed(y)) changedRows.push(y);
  if (changedRows.length < MIN_CHANGED) return undefined;
  const base = Array.from({ length: rows }, (_, y) => (changed(y) ? cost(y, y) : 0));
  const blank = Array.from({ length: rows }, (_, y) => base[y]! - cost(-1, y));
  /** The most `n` consecutive rows' blank savings add up to: what the rows a move brings in can save. */
  const bestRun = (n: number) => {
    let run = 0;
    let most = -Infinity;
    for (let y = 0; y < rows; y++) {
      run += blank[y]!;
      if (y >= n) run -= blank[y - n]!;
      if (y >= n - 1) most = Math.max(most, run);
    }
    return most;
  };
  /**
   * The most the rows a move by `by` keeps can save: what each changed row would save coming from
   * `y + by` (a row that did not change saves nothing anywhere). Each cost stops counting at the
   * row's own cost, past which the row saves nothing.
   */
  const movedGain = (by: number) => {
    let sum = 0;
    for (const y of changedRows) {
      const from = y + by;
      if (from < 0 || from >= rows) continue;
      const saved = base[y]! - cost(from, y, base[y]!);
      if (saved > 0) sum += saved;
    }
    return sum;
  };
  let best: Shift | undefined;
  let bestSaving = SHIFT_BYTES;
  for (let n = 1; n < Math.min(rows, MAX_SHIFT + 1); n++) {
    // A move's saving is at most what its kept rows can save plus what the rows it brings in can:
    // a distance at which that cannot beat the best so far is passed over.
    const arriving = Math.max(0, bestRun(n));
    const up = movedGain(n) + arriving > bestSaving;
    const down = movedGain(-n) + arriving > bestSaving;
    if (up) {
      // Up: rows a..b-n show what rows a+n..b showed, rows b-n+1..b are new.
      const moved = Array.from({ length: rows - n }, (_, y) => base[y]! - cost(y + n, y));
      let head = -Infinity;
      let headTop = 0;
      for (let b = n; b < rows; b++) {
        const y = b - n;
        if (head > 0) head += moved[y]!;
        else {
          head = moved[y]!;
          headTop = y;
        }
        let tail = 0;
        for (let k = b - n + 1; k <= b; k++) tail += blank[k]!;
        if (head + tail > bestSaving) {
          bestSaving = head + tail;
          best = { top: headTop, bottom: b, by: n };
        }
      }
    }
    if (down) {
      // Down: rows a..a+n-1 are new, rows a+n..b show what rows a..b-n showed.
      const moved = Array.from({ length: rows }, (_, y) => (y >= n ? base[y]! - cost(y - n, y) : 0));
      let rest = -Infinity;
      let restBottom = rows - 1;
      for (let a = rows - 1 - n; a >= 0; a--) {
        const y = a + n;
        if (rest > 0) rest += moved[y]!;
        else {
          rest = moved[y]!;
          restBottom = y;
        }
        let lead = 0;
        for (let k = a; k < a + n; k++) lead += blank[k]!;
        if (rest + lead > bestSaving) {
          bestSaving = rest + lead;
          best = { top: a, bottom: restBottom, by: -n };
        }
      }
    }
  }
  return best;
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
