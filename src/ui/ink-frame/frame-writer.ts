/**
 * Turns the frame on screen into the next one with as few bytes as it can: lines that did not
 * change are left alone, and in a line that did, only the runs of cells that changed are
 * written, each after moving the cursor there. Positions are relative to the frame's top line
 * (the frame sits where the first one was drawn, like Ink's own writer), columns absolute.
 *
 * What it cannot reason about is drawn whole: the first frame, a frame after the size of the
 * terminal changed (from the top left corner then, since the terminal has moved the old lines
 * about), a frame as tall as the terminal, one with a line wider than it, or one without the
 * final newline. A changed line holding a character whose width terminals disagree on (emoji,
 * flags, joined emoji, an accent on its own) is erased and written whole, so it looks as in a
 * full redraw even on a terminal that measures it otherwise.
 */
import type { AnsiCode, StyledChar } from "@alcalzone/ansi-tokenize";
import { cellsOf, cellWidth, transition } from "./output.js";

export interface CursorSpot {
  x: number;
  y: number;
}

const CSI = "\x1b[";
const ERASE_LINE_END = `${CSI}K`;
const ERASE_BELOW = `${CSI}J`;
const ERASE_LINE = `${CSI}2K`;
export const HIDE_CURSOR = `${CSI}?25l`;
export const SHOW_CURSOR = `${CSI}?25h`;
/** Fewer unchanged cells than this between two changes are rewritten rather than skipped. */
const GAP = 6;

const NO_STYLES: AnsiCode[] = [];
const BLANK: StyledChar = { type: "char", value: " ", fullWidth: false, styles: NO_STYLES };
/** A row of cells by column; null marks the right half of a wide character. */
type Grid = (StyledChar | null)[];

function sameStyles(a: AnsiCode[], b: AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code) return false;
  return true;
}

function sameCell(a: StyledChar | null, b: StyledChar | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return a.value === b.value && sameStyles(a.styles, b.styles);
}

function isBlank(c: StyledChar | null): boolean {
  return c !== null && c.value === " " && c.styles.length === 0;
}

/** East Asian wide characters every terminal draws two cells wide. */
function surelyWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6)
  );
}

/**
 * A character terminals may measure differently from us: several code points (flags, joined
 * emoji, accents on their own), emoji and pictographs (one cell on older terminals), and
 * other characters we count as two cells outside the East Asian scripts.
 */
function uncertain(value: string): boolean {
  const cp = value.codePointAt(0)!;
  if (value.length > (cp > 0xffff ? 2 : 1)) return true;
  if (cp < 0x1100) return false;
  if (cp >= 0x1f000) return true;
  return cellWidth(value) !== 1 && !surelyWide(cp);
}

/** The line's cells by column, `width` columns; false when a character's width is in doubt. */
function gridOf(line: string, width: number): Grid | false {
  const grid: Grid = new Array<StyledChar | null>(width).fill(BLANK);
  let column = 0;
  for (const cell of cellsOf(line)) {
    if (uncertain(cell.value)) return false;
    const w = cellWidth(cell.value);
    if (column + w > width) return false;
    grid[column] = cell;
    for (let k = 1; k < w; k++) grid[column + k] = null;
    column += w;
  }
  return grid;
}

interface Run {
  start: number;
  end: number;
}

/** The column ranges where `next` differs from `prev`, widened so no wide character is cut. */
function changedRuns(prev: Grid, next: Grid): Run[] {
  const width = next.length;
  const runs: Run[] = [];
  for (let x = 0; x < width; x++) {
    if (sameCell(prev[x]!, next[x]!)) continue;
    const last = runs.at(-1);
    if (last && x - last.end < GAP) last.end = x + 1;
    else runs.push({ start: x, end: x + 1 });
  }
  for (const run of runs) {
    // Writing over either half of a wide character on screen erases the other half.
    while (run.start > 0 && (next[run.start] === null || prev[run.start] === null)) run.start--;
    while (run.end < width && (next[run.end] === null || prev[run.end] === null)) run.end++;
  }
  const merged: Run[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (last && run.start - last.end < GAP) last.end = Math.max(last.end, run.end);
    else merged.push(run);
  }
  return merged;
}

/** The text for columns start..end of a row, from and back to the default style. */
function runText(grid: Grid, start: number, end: number): string {
  let out = "";
  let styles = NO_STYLES;
  for (let x = start; x < end; x++) {
    const cell = grid[x];
    if (!cell) continue;
    out += transition(styles, cell.styles) + cell.value;
    styles = cell.styles;
  }
  return out + transition(styles, NO_STYLES);
}

export class FrameWriter {
  /** The lines of the frame on screen; undefined when the screen is not known. */
  private lines: string[] | undefined;
  /** Cursor position relative to the frame's top line; column -1 when unknown (after a wrap). */
  private row = 0;
  private column = 0;
  private size = "";
  private fromTop = false;
  private cursorShown = false;
  private out = "";

  /** The bytes that turn the screen into `frame` (Ink's output: lines, usually a final newline). */
  render(frame: string, columns: number, rows: number, cursor?: CursorSpot): string {
    this.out = this.cursorShown ? HIDE_CURSOR : "";
    this.cursorShown = false;
    const size = `${columns}x${rows}`;
    if (this.size !== "" && size !== this.size) this.fromTop = true;
    this.size = size;
    const complete = frame.endsWith("\n");
    const lines = frame.split("\n");
    if (complete) lines.pop();
    if (this.lines && !this.fromTop && complete && lines.length < rows) this.update(this.lines, lines, columns);
    else this.whole(lines, complete);
    if (!complete) this.lines = undefined;
    if (cursor && this.lines) {
      this.moveTo(cursor.y, cursor.x);
      this.out += SHOW_CURSOR;
      this.cursorShown = true;
    }
    return this.out;
  }

  /** Erases the frame (the cursor ends where its top line was); the next frame is drawn whole. */
  clear(): string {
    this.out = this.cursorShown ? HIDE_CURSOR : "";
    this.cursorShown = false;
    if (this.lines) {
      this.moveTo(0, 0);
      this.out += ERASE_BELOW;
    }
    this.lines = undefined;
    return this.out;
  }

  /** Someone else drew `frame` (with the screen cleared first): draw the next one whole, from the top. */
  drawnElsewhere(): void {
    this.lines = undefined;
    this.fromTop = true;
    this.cursorShown = false;
  }

  /** Forget the screen (the app stops drawing). */
  reset(): void {
    this.lines = undefined;
    this.cursorShown = false;
  }

  private whole(lines: string[], complete: boolean): void {
    const over = this.lines !== undefined && !this.fromTop;
    if (this.fromTop) this.out += `${CSI}H${ERASE_BELOW}${CSI}m`;
    else if (over) this.moveTo(0, 0);
    this.fromTop = false;
    lines.forEach((line, i) => {
      this.out += (over ? ERASE_LINE + `${CSI}m` : "") + line;
      if (i < lines.length - 1 || complete) this.out += "\n";
    });
    if (over && complete) this.out += ERASE_BELOW;
    this.lines = lines;
    this.row = complete ? lines.length : lines.length - 1;
    this.column = complete ? 0 : -1;
  }

  private update(prev: string[], next: string[], columns: number): void {
    const shared = Math.min(prev.length, next.length);
    for (let y = 0; y < shared; y++) {
      if (prev[y] === next[y]) continue;
      const before = gridOf(prev[y]!, columns);
      const after = gridOf(next[y]!, columns);
      if (!before || !after) {
        this.moveTo(y, 0);
        this.out += ERASE_LINE + `${CSI}m` + next[y]!;
        this.column = -1;
        continue;
      }
      for (const run of changedRuns(before, after)) this.writeRun(y, after, run, columns);
    }
    if (next.length > prev.length) {
      this.moveTo(prev.length, 0);
      for (let y = prev.length; y < next.length; y++) this.out += ERASE_LINE + `${CSI}m` + next[y]! + "\n";
      this.row = next.length;
      this.column = 0;
    } else {
      this.toRestingRow(next.length);
      if (next.length < prev.length) this.out += ERASE_BELOW;
    }
    this.lines = next;
  }

  private writeRun(y: number, grid: Grid, run: Run, columns: number): void {
    let end = run.end;
    let erase = false;
    if (end === columns) {
      // A blank tail is erased, not written (never from the last column: the cursor waits there
      // to wrap, and erasing would take the character just written).
      let blankFrom = columns;
      while (blankFrom > run.start && isBlank(grid[blankFrom - 1]!)) blankFrom--;
      if (blankFrom < columns) {
        end = blankFrom;
        erase = true;
      }
    }
    this.moveTo(y, run.start);
    const text = runText(grid, run.start, end);
    // Text right after a cursor movement gets a style reset before it, so every sequence next to
    // text visibly ends, as SGR does (readers of the raw bytes check that text never joins a sequence).
    this.out += text.startsWith("\x1b[") ? text : `${CSI}m${text}`;
    if (erase) this.out += ERASE_LINE_END;
    this.column = end >= columns ? -1 : end;
  }

  /**
   * To the first column of the row below the frame, where Ink leaves the cursor: by a newline
   * from the row above, as a full redraw ends, so nothing written after a frame (a bell) meets
   * the frame's last text.
   */
  private toRestingRow(row: number): void {
    if (this.row === row && this.column === 0) return;
    if (row === 0) return this.moveTo(0, 0);
    this.moveTo(row - 1, this.row === row - 1 ? this.column : 0);
    this.out += "\n";
    this.row = row;
    this.column = 0;
  }

  private moveTo(row: number, column: number): void {
    if (row < this.row) this.out += `${CSI}${this.row - row === 1 ? "" : this.row - row}A`;
    else if (row > this.row) this.out += `${CSI}${row - this.row === 1 ? "" : row - this.row}B`;
    // CHA, not CR: a bare CR in the byte stream reads like one smuggled in by a payload.
    if (column !== this.column) this.out += `${CSI}${column === 0 ? "" : column + 1}G`;
    this.row = row;
    this.column = column;
  }
}
