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
 * `cost(from, y)`: the bytes to turn line `from` of the frame on screen (-1: a blank line) into
 * line `y` of the next frame. Only the first `rows` lines (those both frames have) are considered.
 */
export function findShift(rows: number, changed: (y: number) => boolean, cost: (from: number, y: number) => number): Shift | undefined {
  let count = 0;
  for (let y = 0; y < rows; y++) if (changed(y)) count++;
  if (count < MIN_CHANGED) return undefined;
  const base = Array.from({ length: rows }, (_, y) => (changed(y) ? cost(y, y) : 0));
  const blank = Array.from({ length: rows }, (_, y) => base[y]! - cost(-1, y));
  let best: Shift | undefined;
  let bestSaving = SHIFT_BYTES;
  for (let n = 1; n < Math.min(rows, MAX_SHIFT + 1); n++) {
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
    // Down: rows a..a+n-1 are new, rows a+n..b show what rows a..b-n showed.
    const down = Array.from({ length: rows }, (_, y) => (y >= n ? base[y]! - cost(y - n, y) : 0));
    let rest = -Infinity;
    let restBottom = rows - 1;
    for (let a = rows - 1 - n; a >= 0; a--) {
      const y = a + n;
      if (rest > 0) rest += down[y]!;
      else {
        rest = down[y]!;
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
