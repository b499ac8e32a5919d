/**
 * Turns the frame on screen into the next one with as few bytes as it can: lines that did not
 * change are left alone, and in a line that did, only the runs of cells that changed are
 * written, each after moving the cursor there. Positions are relative to the frame's top line
 * (the frame sits where the first one was drawn, like Ink's own writer), columns absolute.
 *
 * A block of lines that scrolled is moved by the terminal first when that costs fewer bytes
 * (line-shift.ts), and only what still differs is written after.
 *
 * What it cannot reason about is drawn whole: the first frame, a frame after the size of the
 * terminal changed (from the top left corner then, since the terminal has moved the old lines
 * about), a frame as tall as the terminal, one with a line wider than it, or one without the
 * final newline. A changed line holding a character whose width terminals disagree on (emoji,
 * flags, joined emoji, an accent on its own) is written from that character on, so it looks as
 * in a full redraw even on a terminal that measures it otherwise (line-grid.ts, doubtfulEdit).
 */
import { findShift, shifted, type Shift } from "./line-shift.js";
import { changedRuns, contentEnd, costRow, doubtfulEdit, gridOf, joinSgr, lineCost, runText, type CostRow, type Grid } from "./line-grid.js";

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
  /**
   * The cells and costs of the lines of the last update, by line, at `cellsColumns`: most lines of
   * a frame are those of the one before, and working them out again for each frame made most of
   * the garbage of a busy screen.
   */
  private cells: { columns: number; grids: Map<string, Grid | false>; rows: Map<string, CostRow | false> } = { columns: -1, grids: new Map(), rows: new Map() };

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
      this.out += (over ? ERASE_LINE + `${CSI}m` : "") + joinSgr(line);
      if (i < lines.length - 1 || complete) this.out += "\n";
    });
    if (over && complete) this.out += ERASE_BELOW;
    this.lines = lines;
    this.row = complete ? lines.length : lines.length - 1;
    this.column = complete ? 0 : -1;
  }

  private update(prev: string[], next: string[], columns: number): void {
    const shared = Math.min(prev.length, next.length);
    const last = this.cells.columns === columns ? this.cells : undefined;
    const grids = new Map<string, Grid | false>();
    const grid = (line: string) => {
      let g = grids.get(line);
      if (g === undefined) grids.set(line, (g = last?.grids.get(line) ?? gridOf(line, columns)));
      return g;
    };
    const rows = new Map<string, CostRow | false>();
    const row = (line: string) => {
      let r = rows.get(line);
      if (r === undefined) rows.set(line, (r = last?.rows.get(line) ?? costRow(grid(line))));
      return r;
    };
    this.cells = { columns, grids, rows };
    const shift = findShift(
      shared,
      (y) => prev[y] !== next[y],
      (from, y) => {
        const before = from < 0 ? "" : prev[from]!;
        return lineCost(row(before), row(next[y]!), before, next[y]!);
      },
    );
    if (shift) {
      this.shift(shift);
      prev = shifted(prev, shift);
    }
    for (let y = 0; y < shared; y++) {
      if (prev[y] === next[y]) continue;
      const before = grid(prev[y]!);
      const after = grid(next[y]!);
      if (!before || !after) this.writeTail(y, prev[y]!, next[y]!);
      else this.writeRuns(y, before, after, columns);
    }
    if (next.length > prev.length) {
      this.moveTo(prev.length, 0);
      for (let y = prev.length; y < next.length; y++) this.out += ERASE_LINE + `${CSI}m` + joinSgr(next[y]!) + "\n";
      this.row = next.length;
      this.column = 0;
    } else {
      this.toRestingRow(next.length);
      if (next.length < prev.length) this.out += ERASE_BELOW;
    }
    this.lines = next;
  }

  /**
   * Has the terminal move the rows of `s` (deleting lines where they leave, inserting blank ones
   * where they arrive), all relative to the cursor: the rows below the block come back where
   * they were, whatever the frame's place on the screen.
   */
  private shift(s: Shift): void {
    const n = Math.abs(s.by);
    const [deleteAt, insertAt] = s.by > 0 ? [s.top, s.bottom - n + 1] : [s.bottom - n + 1, s.top];
    this.moveToRow(deleteAt);
    this.out += `${CSI}${n === 1 ? "" : n}M`;
    this.moveToRow(insertAt);
    this.out += `${CSI}${n === 1 ? "" : n}L`;
    this.column = -1;
  }

  /** A changed line with a character of doubtful width: written so it looks as a full redraw of it would (line-grid.ts). */
  private writeTail(y: number, prev: string, next: string): void {
    const edit = doubtfulEdit(prev, next);
    this.moveTo(y, edit.column);
    if (edit.erase) this.out += edit.column === 0 ? ERASE_LINE : ERASE_LINE_END;
    this.out += edit.text.startsWith("\x1b[") ? edit.text : `${CSI}m${edit.text}`;
    this.column = -1;
  }

  /** The runs of cells that changed; where the line ends in blanks from a run on, they are erased. */
  private writeRuns(y: number, before: Grid, after: Grid, columns: number): void {
    const end = contentEnd(after);
    for (const run of changedRuns(before, after)) {
      if (run.end <= end) {
        this.writeRun(y, after, run.start, run.end, false, columns);
        continue;
      }
      // Only blanks from here to the end of the line: one erase for them, after the text (which
      // then ends before the last column, so the erase cannot take the character just written).
      this.writeRun(y, after, run.start, Math.max(run.start, end), true, columns);
      break;
    }
  }

  private writeRun(y: number, grid: Grid, start: number, end: number, erase: boolean, columns: number): void {
    this.moveTo(y, start);
    const text = end > start ? runText(grid, start, end) : "";
    // Text right after a cursor movement gets a style reset before it, so every sequence next to
    // text visibly ends, as SGR does (readers of the raw bytes check that text never joins a sequence).
    this.out += text === "" || text.startsWith("\x1b[") ? text : `${CSI}m${text}`;
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

  private moveToRow(row: number): void {
    this.moveTo(row, this.column);
  }

  private moveTo(row: number, column: number): void {
    if (row < this.row) this.out += `${CSI}${this.row - row === 1 ? "" : this.row - row}A`;
    else if (row > this.row && row - this.row <= 3) {
      // A few rows down by newlines, which also go to the first column (the terminal's line
      // discipline adds the carriage return); the row below the frame is on the screen, so they never scroll it.
      this.out += "\n".repeat(row - this.row);
      this.column = 0;
    } else if (row > this.row) this.out += `${CSI}${row - this.row}B`;
    // CHA, not CR: a bare CR in the byte stream reads like one smuggled in by a payload.
    if (column !== this.column) this.out += `${CSI}${column === 0 ? "" : column + 1}G`;
    this.row = row;
    this.column = column;
  }
}
