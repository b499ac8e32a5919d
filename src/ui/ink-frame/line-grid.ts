/**
 * A frame's line as a row of cells by column, for the frame writer: which runs of cells changed
 * between two versions of a line, the text that redraws a run, and what redrawing costs.
 */
import type { AnsiCode, StyledChar } from "@alcalzone/ansi-tokenize";
import { cellsOf, cellWidth, composedRow, transition } from "./output.js";

/** Fewer unchanged cells than this between two changes are rewritten rather than skipped. */
export const GAP = 6;
/** Bytes a cursor movement and the style reset after it take, about. */
export const MOVE_BYTES = 7;
/** At most this many parameters in one joined SGR sequence (terminals keep a bounded list). */
const SGR_PARAMS = 16;

export const NO_STYLES: AnsiCode[] = [];
export const BLANK: StyledChar = { type: "char", value: " ", fullWidth: false, styles: NO_STYLES };
/** A row of cells by column; null marks the right half of a wide character. */
export type Grid = (StyledChar | null)[];

export interface Run {
  start: number;
  end: number;
}

function sameStyles(a: AnsiCode[], b: AnsiCode[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.code !== b[i]!.code) return false;
  return true;
}

export function sameCell(a: StyledChar | null, b: StyledChar | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return a.value === b.value && sameStyles(a.styles, b.styles);
}

export function isBlank(c: StyledChar | null): boolean {
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
export function gridOf(line: string, width: number): Grid | false {
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

/** What a row's text loses at its end (output.ts joins rows with trimEnd): unstyled whitespace, and the right halves of wide whitespace. */
function trimmedAtEnd(c: StyledChar): boolean {
  return c.styles.length === 0 && (c.value === "" || /^\s+$/.test(c.value));
}

/** Per style list: whether two of its styles end with the same code (bold and dim both end with SGR 22). */
const sharedEnds = new WeakMap<AnsiCode[], boolean>();
function endsShared(styles: AnsiCode[]): boolean {
  if (styles.length < 2) return false;
  let shared = sharedEnds.get(styles);
  if (shared === undefined) sharedEnds.set(styles, (shared = new Set(styles.map((s) => s.endCode)).size < styles.length));
  return shared;
}

/**
 * The grid of a line the frame buffer composed in its last frame (output.ts, composedRow), from
 * its cells as painted rather than by parsing the line again: the same grid gridOf would give.
 * Undefined when the line is not one of them, or its cells are not what its text shows: a write
 * that covered half of a wide character, or two styles that end with the same code (leaving
 * dim for bold, the text ends both: the cells after it still say bold, the terminal shows
 * neither). gridOf parses the text then.
 */
export function composedGrid(line: string, width: number): Grid | false | undefined {
  const row = composedRow(line);
  if (row === undefined || row.length !== width) return undefined;
  let end = width;
  while (end > 0 && trimmedAtEnd(row[end - 1]!)) end--;
  // The right half of a wide character that stays, stays.
  while (end < width && row[end]!.value === "") end++;
  const grid: Grid = new Array<StyledChar | null>(width).fill(BLANK);
  for (let column = 0; column < end; ) {
    const cell = row[column]!;
    if (cell.value === "" || endsShared(cell.styles)) return undefined;
    if (uncertain(cell.value)) return false;
    const w = cellWidth(cell.value);
    if (column + w > width) return false;
    grid[column] = cell;
    for (let k = 1; k < w; k++) {
      if (row[column + k]!.value !== "") return undefined;
      grid[column + k] = null;
    }
    column += w;
  }
  return grid;
}

/**
 * The cells of a line as cellsOf parses them. A line the frame buffer joined in its last frame
 * gives them from its cells as painted, without its text parsed again (a line with a character
 * of doubtful width beside a changed one was parsed at every key: half of what the frame writer
 * allocated), when those cells are what its text shows, as for composedGrid.
 */
function lineCells(line: string): StyledChar[] {
  return cellsOf(line, () => {
    const row = composedRow(line);
    if (row === undefined) return undefined;
    let end = row.length;
    while (end > 0 && trimmedAtEnd(row[end - 1]!)) end--;
    const cells: StyledChar[] = [];
    for (let column = 0; column < end; ) {
      const cell = row[column]!;
      if (cell.value === "" || endsShared(cell.styles)) return undefined;
      const w = cellWidth(cell.value);
      for (let k = 1; k < w; k++) if (row[column + k]?.value !== "") return undefined;
      cells.push(cell);
      column += w;
    }
    return cells;
  });
}

/** The column after the last cell that is not blank. */
export function contentEnd(grid: Grid): number {
  let end = grid.length;
  while (end > 0 && isBlank(grid[end - 1]!)) end--;
  return end;
}

/** How to turn a line holding a character of doubtful width into another one. */
export interface DoubtfulEdit {
  /** The column to write from (every cell before it is of certain width, so every terminal has it there). */
  column: number;
  /** Erase from there to the end of the line first (the rest of the line is written). */
  erase: boolean;
  text: string;
}

/** Text for cells start..end, from the default style and back to it. */
function cellsText(cells: StyledChar[], start: number, end: number): string {
  let out = "";
  let styles = NO_STYLES;
  for (let i = start; i < end; i++) {
    out += transition(styles, cells[i]!.styles) + cells[i]!.value;
    styles = cells[i]!.styles;
  }
  return joinSgr(out + transition(styles, NO_STYLES));
}

function widthOf(cells: StyledChar[], start: number, end: number): number {
  let w = 0;
  for (let i = start; i < end; i++) w += cellWidth(cells[i]!.value);
  return w;
}

/**
 * The edit that leaves a line with a character of doubtful width as a full redraw of it would,
 * whatever width the terminal gives that character. Writing starts at the first changed cell,
 * or at the first doubtful one before it (a terminal puts what follows where its own measure
 * says). When the changed cells, old and new, are all of certain width and as wide as each
 * other, what follows them is already in place and stays; otherwise the rest of the line is
 * erased and written.
 */
export function doubtfulEdit(prev: string, next: string): DoubtfulEdit {
  const a = lineCells(prev);
  const b = lineCells(next);
  let same = 0;
  while (same < a.length && same < b.length && sameCell(a[same]!, b[same]!)) same++;
  let start = 0;
  while (start < same && !uncertain(b[start]!.value)) start++;
  const column = widthOf(b, 0, start);
  let tail = 0;
  while (tail < a.length - same && tail < b.length - same && sameCell(a[a.length - 1 - tail]!, b[b.length - 1 - tail]!)) tail++;
  const certain = (cells: StyledChar[], from: number, to: number) => {
    for (let i = from; i < to; i++) if (uncertain(cells[i]!.value)) return false;
    return true;
  };
  const aEnd = a.length - tail;
  const bEnd = b.length - tail;
  if (certain(a, same, aEnd) && certain(b, same, bEnd) && widthOf(a, same, aEnd) === widthOf(b, same, bEnd)) {
    return { column, erase: false, text: cellsText(b, start, bEnd) };
  }
  return { column, erase: true, text: cellsText(b, start, b.length) };
}

const SGR_RUN = /(?:\x1b\[[0-9;]*m){2,}/g;
const SGR_ONE = /\x1b\[([0-9;]*)m/g;

/** Styles set one after another by several SGR sequences, set by one (same effect, fewer bytes). */
export function joinSgr(text: string): string {
  if (!text.includes("m\x1b[")) return text;
  return text.replace(SGR_RUN, (run) => {
    const params = Array.from(run.matchAll(SGR_ONE), (m) => m[1] || "0");
    if (params.join(";").split(";").length > SGR_PARAMS) return run;
    return `\x1b[${params.join(";")}m`;
  });
}

/** The column ranges where `next` differs from `prev`, widened so no wide character is cut. */
export function changedRuns(prev: Grid, next: Grid): Run[] {
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
export function runText(grid: Grid, start: number, end: number): string {
  let out = "";
  let styles = NO_STYLES;
  for (let x = start; x < end; x++) {
    const cell = grid[x];
    if (!cell) continue;
    out += transition(styles, cell.styles) + cell.value;
    styles = cell.styles;
  }
  return joinSgr(out + transition(styles, NO_STYLES));
}

/** UTF-8 bytes of a string. */
function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? 0 : 3;
    if (c >= 0xdc00 && c < 0xe000) n += 1;
  }
  return n;
}

/**
 * A line's cells as numbers, for comparing many pairs of lines quickly: a cell's characters
 * (-1 for the right half of a wide one), its style, its bytes. Two cells look alike when both
 * their characters and their styles are equal.
 */
export interface CostRow {
  cells: Int32Array;
  styles: Int32Array;
  bytes: Uint8Array;
  /** What writing the line on a blank line costs, once asked (the scroll search asks it of every line of every frame). */
  onBlank?: number;
}

const styleIds = new WeakMap<AnsiCode[], number>();
const styleKeys = new Map<string, number>();
/** Ids of cells of more than one UTF-16 unit, above those of one unit (which are their own code). */
const wideValueIds = new Map<string, number>();
const ONE_UNIT = 0x10000;

function styleId(styles: AnsiCode[]): number {
  let id = styleIds.get(styles);
  if (id === undefined) {
    const key = styles.map((c) => c.code).join("\u0000");
    id = styleKeys.get(key);
    if (id === undefined) styleKeys.set(key, (id = styleKeys.size));
    styleIds.set(styles, id);
  }
  return id;
}

/** The row for a grid (false stays false: a line in doubt). */
export function costRow(grid: Grid | false): CostRow | false {
  if (!grid) return false;
  const row: CostRow = { cells: new Int32Array(grid.length), styles: new Int32Array(grid.length), bytes: new Uint8Array(grid.length) };
  // Bounded: after it starts afresh, a row kept from before may share an id with another
  // character, and one cost estimate errs (never what is drawn).
  if (wideValueIds.size > 100_000) wideValueIds.clear();
  for (let x = 0; x < grid.length; x++) {
    const cell = grid[x];
    if (!cell) {
      row.cells[x] = -1;
      continue;
    }
    const value = cell.value;
    let id: number;
    // No string is made per cell: the scroll search asks this of every changed line of a frame.
    if (value.length === 1) id = value.charCodeAt(0);
    else {
      const known = wideValueIds.get(value);
      if (known === undefined) wideValueIds.set(value, (id = ONE_UNIT + wideValueIds.size));
      else id = known;
    }
    row.cells[x] = id;
    row.styles[x] = styleId(cell.styles);
    row.bytes[x] = value.length === 1 && id < 0x80 ? 1 : utf8Bytes(value);
  }
  return row;
}

/**
 * About the bytes that turn line `prev` on screen into `next`: the changed cells, a cursor
 * movement per run of them and a few bytes per change of style. Exact enough to choose between
 * two ways of drawing a frame, and cheap: it is asked for many pairs of lines. With `limit`, it
 * stops counting once the cost reaches it (the answer is then "at least `limit`").
 */
export function lineCost(prev: CostRow | false, next: CostRow | false, prevLine: string, nextLine: string, limit = Infinity): number {
  if (prevLine === nextLine) return 0;
  if (!prev || !next) return MOVE_BYTES + utf8Bytes(nextLine);
  let cost = 0;
  let lastChange = -GAP;
  let style = 0;
  const width = next.cells.length;
  for (let x = 0; x < width; x++) {
    const cell = next.cells[x]!;
    if (prev.cells[x] === cell && prev.styles[x] === next.styles[x]) continue;
    if (x - lastChange >= GAP) {
      cost += MOVE_BYTES;
      style = 0;
    } else cost += x - lastChange - 1;
    lastChange = x;
    if (cell < 0) continue;
    if (next.styles[x] !== style) cost += 6;
    style = next.styles[x]!;
    cost += next.bytes[x]!;
    if (cost >= limit) return cost;
  }
  return cost;
}
