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
 * final newline. On the alternate screen (`anchored`) the frame's top line is the screen's, so
 * a frame as tall as the terminal, which Ink sends without its final newline, is drawn by its
 * changes too, and the cursor never goes below the screen's last line (a newline there would
 * scroll it). A changed line holding a character whose width terminals disagree on (emoji,
 * flags, joined emoji, an accent on its own) is written from that character on, so it looks as
 * in a full redraw even on a terminal that measures it otherwise (line-grid.ts, doubtfulEdit).
 *
 * Pictures the terminal draws over a frame (images: src/ui/images/image-layer.ts) are not text,
 * so the writer cannot compare them: an overlay given to it (FrameOverlay) says, before each frame,
 * which rows to write whole (a picture left them) and which rows no block move may cross, and
 * after it draws over the frame, told which cells the writer wrote.
 */
import stringWidth from "../../render/string-width.js";
import { findShift, shifted, type Shift } from "./line-shift.js";
import { changedRuns, composedGrid, contentEnd, costRow, doubtfulEdit, gridOf, joinSgr, lineCost, runText, type CostRow, type Grid } from "./line-grid.js";

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

/** Cells written or erased by the writer in a frame: per row, [from, to) column ranges; "all" after a whole redraw. */
export type WrittenCells = ReadonlyMap<number, ReadonlyArray<readonly [number, number]>> | "all";

/** What is drawn over the frames and is not text (see the header). */
export interface FrameOverlay {
  /**
   * Before `next` replaces the frame on screen: `stale`, rows of the frame on screen that show
   * something other than their text (to be written whole), and `pinned`, rows holding pictures
   * before or after, which no block of lines may be moved across.
   */
  before(next: readonly string[], columns: number): { stale: ReadonlySet<number>; pinned: ReadonlySet<number> };
  /** The bytes that draw over the frame now on screen (none: `lines` is empty); the cursor, at `row` of the frame, must be left there. */
  after(frame: { lines: readonly string[]; written: WrittenCells; row: number }): string;
  /** The screen was cleared and drawn by someone else: nothing drawn over the old frame is where it was. */
  lost(): void;
  /** Gives the overlay a way to have the frame on screen written again, for it to draw over (a picture became ready). */
  attach?(redraw: () => void): void;
}

export interface FrameWriterOptions {
  /** The frame's top line is the screen's top line (the alternate screen). */
  anchored?: boolean;
  /** What is drawn over the frames (the terminal's images). */
  overlay?: FrameOverlay;
}

function crosses(s: Shift, rows: ReadonlySet<number> | undefined): boolean {
  for (const y of rows ?? []) if (y >= s.top && y <= s.bottom) return true;
  return false;
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
  /**
   * The cells and costs of the lines of the last update, by line, at `columns`: most lines of a
   * frame are those of the one before, and working them out again for each frame made most of
   * the garbage of a busy screen.
   */
  private cells: { columns: number; grids: Map<string, Grid | false>; rows: Map<string, CostRow | false> } = { columns: -1, grids: new Map(), rows: new Map() };
  private written: Map<number, Array<[number, number]>> | "all" = "all";
  /** The last frame asked for, to write it again for the overlay. */
  private last: { frame: string; columns: number; rows: number; cursor?: CursorSpot } | undefined;

  private readonly overlay: FrameOverlay | undefined;

  constructor(private readonly options: FrameWriterOptions = {}) {
    this.overlay = options.overlay;
  }

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
    this.last = { frame, columns, rows, ...(cursor && { cursor }) };
    const plan = this.overlay?.before(lines, columns);
    this.written = this.overlay ? new Map() : "all";
    const fullHeight = this.options.anchored === true && !complete && lines.length === rows;
    if (this.lines && !this.fromTop && (complete ? lines.length < rows : fullHeight)) this.update(this.lines, lines, columns, complete, plan);
    else this.whole(lines, complete, columns);
    if (!complete && !fullHeight) this.lines = undefined;
    if (this.overlay) this.out += this.overlay.after({ lines: this.lines ?? [], written: this.written, row: this.row });
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
      this.home();
      this.out += ERASE_BELOW;
    }
    this.lines = undefined;
    if (this.overlay) this.out += this.overlay.after({ lines: [], written: "all", row: this.row });
    return this.out;
  }

  /** The frame on screen once more, unchanged, for the overlay to draw over it ("" when there is none). */
  redrawOverlay(): string {
    if (!this.overlay || !this.lines || !this.last) return "";
    const { frame, columns, rows, cursor } = this.last;
    return this.render(frame, columns, rows, cursor);
  }

  /** Someone else drew `frame` (with the screen cleared first): draw the next one whole, from the top. */
  drawnElsewhere(): void {
    this.lines = undefined;
    this.fromTop = true;
    this.cursorShown = false;
    this.overlay?.lost();
  }

  /** Forget the screen (the app stops drawing). */
  reset(): void {
    this.lines = undefined;
    this.cursorShown = false;
    this.overlay?.lost();
  }

  /** To the frame's top left corner: on the alternate screen the screen's, wherever the cursor is. */
  private home(): void {
    if (!this.options.anchored) return this.moveTo(0, 0);
    this.out += `${CSI}H`;
    this.row = 0;
    this.column = 0;
  }

  private whole(lines: string[], complete: boolean, columns: number): void {
    // Over what is there (each line erased as it is written), unless the screen was cleared.
    const over = (this.lines !== undefined || this.options.anchored === true) && !this.fromTop;
    if (this.fromTop) this.out += `${CSI}H${ERASE_BELOW}${CSI}m`;
    else if (over) this.home();
    this.fromTop = false;
    this.written = "all";
    lines.forEach((line, i) => {
      this.out += (over ? ERASE_LINE + `${CSI}m` : "") + joinSgr(line);
      if (i < lines.length - 1 || complete) this.out += "\n";
    });
    if (over && complete) this.out += ERASE_BELOW;
    this.lines = lines;
    this.row = complete ? lines.length : lines.length - 1;
    this.column = complete ? 0 : -1;
    // A line wider than the terminal wraps and may scroll the screen: where the frame is, is then not
    // known. (When the terminal gets narrower, Ink draws the frame it had once more before the app lays
    // out for the new width.) The next frame is drawn from the top.
    if (lines.some((line) => stringWidth(line) > columns)) {
      this.lines = undefined;
      this.fromTop = true;
    }
  }

  private update(prev: string[], next: string[], columns: number, complete: boolean, plan?: ReturnType<FrameOverlay["before"]>): void {
    const shared = Math.min(prev.length, next.length);
    const last = this.cells.columns === columns ? this.cells : undefined;
    const grids = new Map<string, Grid | false>();
    const grid = (line: string) => {
      let g = grids.get(line);
      if (g === undefined) grids.set(line, (g = last?.grids.get(line) ?? composedGrid(line, columns) ?? gridOf(line, columns)));
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
      (from, y, limit) => {
        const before = from < 0 ? "" : prev[from]!;
        const after = row(next[y]!);
        // On a blank line the cost is the line's own: kept with its cells, from frame to frame.
        if (from < 0 && after && limit === undefined) return (after.onBlank ??= lineCost(row(before), after, before, next[y]!));
        return lineCost(row(before), after, before, next[y]!, limit);
      },
    );
    // Lines with pictures stay where they are: terminals differ in what they do with a picture a line move takes along.
    if (shift && !crosses(shift, plan?.pinned)) {
      this.shift(shift);
      prev = shifted(prev, shift);
    }
    for (let y = 0; y < shared; y++) {
      if (plan?.stale.has(y)) {
        this.rewrite(y, next[y]!, columns);
        continue;
      }
      if (prev[y] === next[y]) continue;
      const before = grid(prev[y]!);
      const after = grid(next[y]!);
      if (!before || !after) this.writeTail(y, prev[y]!, next[y]!);
      else this.writeRuns(y, before, after, columns);
    }
    if (next.length > prev.length) {
      this.moveTo(prev.length, 0);
      for (let y = prev.length; y < next.length; y++) {
        this.out += ERASE_LINE + `${CSI}m` + joinSgr(next[y]!);
        // A frame as tall as the screen has no newline after its last line (it would scroll).
        if (complete || y < next.length - 1) this.out += "\n";
        this.touch(y, 0, columns);
      }
      this.row = complete ? next.length : next.length - 1;
      this.column = complete ? 0 : -1;
    } else if (complete) {
      this.toRestingRow(next.length);
      if (next.length < prev.length) this.out += ERASE_BELOW;
    }
    // The lines on screen keep their cells for the next frame, looked at or not in this one: a
    // frame with too few changes for the scroll search skipped most, and the next one worked
    // them all out again.
    for (const line of next) {
      if (!grids.has(line) && last?.grids.has(line)) grids.set(line, last.grids.get(line)!);
      if (!rows.has(line) && last?.rows.has(line)) rows.set(line, last.rows.get(line)!);
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
    for (let y = s.top; y <= s.bottom; y++) this.touch(y, 0, Infinity);
  }

  /** A line written whole, whatever the screen shows there (a picture left it). */
  private rewrite(y: number, line: string, columns: number): void {
    this.moveTo(y, 0);
    this.out += ERASE_LINE + `${CSI}m` + joinSgr(line);
    this.column = -1;
    this.touch(y, 0, columns);
  }

  private touch(y: number, from: number, to: number): void {
    if (this.written === "all") return;
    let runs = this.written.get(y);
    if (!runs) this.written.set(y, (runs = []));
    runs.push([from, to]);
  }

  /** A changed line with a character of doubtful width: written so it looks as a full redraw of it would (line-grid.ts). */
  private writeTail(y: number, prev: string, next: string): void {
    const edit = doubtfulEdit(prev, next);
    this.moveTo(y, edit.column);
    this.touch(y, edit.column, Infinity);
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
    this.touch(y, start, erase ? Infinity : end);
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
