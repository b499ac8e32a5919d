/**
 * The frame buffer Ink composes each frame in, as a drop-in for Ink's own `Output` (the
 * Ink patch swaps it in: scripts/ink-patch.mjs). It writes the same bytes; it is
 * faster because:
 * - the parsed form of each line (its styled cells) and each string's width are remembered
 *   across frames, where Ink forgets them with every frame, so a line that did not change is
 *   not parsed again;
 * - cells that share a style share one style list, and the escape codes that go from one
 *   style to the next are remembered per pair, so joining a row is mostly string appends;
 * - blank cells are one shared object, and plain ASCII characters skip width measuring;
 * - a row whose cells are those of the same row of the frame before takes that row's text, and
 *   the rows' cell arrays are those of the frame before the last, filled again: a key that
 *   changes a few rows joins only those, and a frame allocates next to nothing (each frame's
 *   garbage was most of a key's collections, the young generation being kept small).
 * test/unit/ink-frame-output.test.ts compares it with Ink's `Output` on random frames.
 */
import sliceAnsi from "slice-ansi";
import stringWidth from "../../render/string-width.js";
import {
  ansiCodesToString,
  diffAnsiCodes,
  styledCharsFromTokens,
  tokenize,
  type AnsiCode,
  type StyledChar,
} from "@alcalzone/ansi-tokenize";

type Transformer = (line: string, index: number) => string;
type Clip = { x1?: number; x2?: number; y1?: number; y2?: number };
type Operation =
  | { type: "write"; x: number; y: number; text: string; transformers: Transformer[]; placed?: Placed }
  | { type: "clip"; clip: Clip }
  | { type: "unclip" };

/**
 * What a write puts into the rows under one clip: from row `y`, column `x`, each line's cells
 * (transformed, cut to the clip). Kept on the write, for the clip it was worked out under: a
 * write the DOM walk gives again unchanged (output-memo.ts) is placed without its transforms,
 * its slicing or its cells looked up again.
 */
interface Placed {
  clip: Clip | undefined;
  x: number;
  y: number;
  lines: StyledChar[][];
}

const sameClip = (a: Clip | undefined, b: Clip | undefined) => a === b || (a !== undefined && b !== undefined && a.x1 === b.x1 && a.x2 === b.x2 && a.y1 === b.y1 && a.y2 === b.y2);

/**
 * Bytes each cache may hold (estimated: two bytes per character of keys and strings, a fixed
 * cost per entry and per cell) before it starts afresh: several screens' worth of lines.
 */
export const CACHE_BYTES = 4 * 1024 * 1024;
const ENTRY_BYTES = 64;
const CELL_BYTES = 48;

/** A Map that empties itself when its estimated size passes its budget (cheaper than LRU bookkeeping). */
export class BoundedCache<K extends string, V> {
  private readonly map = new Map<K, V>();
  private bytes = 0;
  constructor(
    private readonly sizeOf: (value: V) => number,
    private readonly budget = CACHE_BYTES,
  ) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  set(key: K, value: V): V {
    const cost = ENTRY_BYTES + key.length * 2 + this.sizeOf(value);
    if (this.bytes + cost > this.budget) {
      this.map.clear();
      this.bytes = 0;
    }
    this.map.set(key, value);
    this.bytes += cost;
    return value;
  }
  /** The estimated bytes held. */
  get size(): number {
    return this.bytes;
  }
}

const NO_STYLES: AnsiCode[] = [];
const BLANK: StyledChar = { type: "char", value: " ", fullWidth: false, styles: NO_STYLES };

const styleLists = new BoundedCache<string, AnsiCode[]>((codes) => codes.length * CELL_BYTES);
/** One shared list per distinct style, so equal styles compare by identity. */
function sharedStyles(styles: AnsiCode[]): AnsiCode[] {
  if (styles.length === 0) return NO_STYLES;
  const key = styles.map((c) => c.code).join("\u0000");
  return styleLists.get(key) ?? styleLists.set(key, styles);
}

const lineCells = new BoundedCache<string, StyledChar[]>((cells) => cells.length * CELL_BYTES);
/**
 * The styled cells of one line of text (escape codes applied to the characters they style).
 * `known`, when given, may answer them without parsing the line (cells the frame was painted
 * with: line-grid.ts); they are remembered as the parsed ones would be.
 */
export function cellsOf(line: string, known?: () => StyledChar[] | undefined): StyledChar[] {
  const cached = lineCells.get(line);
  if (cached) return cached;
  const given = known?.();
  if (given) return lineCells.set(line, given);
  // Copied into objects of one literal shape: the tokenizer's cells are made by object spread,
  // which past a few shapes gave each cell a hidden class of its own (24,000 more classes a
  // minute on a busy screen, and every read of a cell slow).
  const cells = styledCharsFromTokens(tokenize(line)).map((c): StyledChar => ({ type: c.type, value: c.value, fullWidth: c.fullWidth, styles: sharedStyles(c.styles) }));
  return lineCells.set(line, cells);
}

/**
 * Parses a line's cells ahead of the frame that paints it (at idle, for lines about to be shown:
 * the message pane's pages laid out ahead), so that frame finds them remembered.
 */
export function prepareCells(line: string): void {
  cellsOf(line);
}

/** Whether a line's cells are remembered (tests: that what is prepared is what a frame paints). */
export function cellsKnown(line: string): boolean {
  return lineCells.get(line) !== undefined;
}

const widths = new BoundedCache<string, number>(() => 8);
/** Terminal cells `text` takes (remembered). */
export function cachedWidth(text: string): number {
  return widths.get(text) ?? widths.set(text, stringWidth(text));
}

export function cellWidth(value: string): number {
  if (value.length === 1) {
    const c = value.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  return Math.max(1, cachedWidth(value));
}

const slices = new BoundedCache<string, string>((text) => text.length * 2);
/** Columns `from` to `to` of a line, its escape codes kept (remembered). */
function cachedSlice(line: string, from: number, to: number): string {
  const key = `${from}:${to}:${line}`;
  return slices.get(key) ?? slices.set(key, sliceAnsi(line, from, to));
}

/** Escape codes to go from one style to another, per pair of shared style lists. */
const transitions = new WeakMap<AnsiCode[], Map<AnsiCode[], string>>();
export function transition(from: AnsiCode[], to: AnsiCode[]): string {
  if (from === to) return "";
  let byTarget = transitions.get(from);
  if (!byTarget) transitions.set(from, (byTarget = new Map()));
  let codes = byTarget.get(to);
  if (codes === undefined) {
    codes = ansiCodesToString(diffAnsiCodes(from, to));
    byTarget.set(to, codes);
  }
  return codes;
}

/**
 * One row of cells as text: each cell's characters, with escape codes only where the style
 * changes. The pieces are gathered in `parts` (given, emptied here) and joined once: appending
 * them one by one made a string object per cell, a good part of what a key allocated.
 */
function rowToString(row: (StyledChar | undefined)[], parts: string[]): string {
  let previous: AnsiCode[] = NO_STYLES;
  for (const cell of row) {
    if (cell === undefined) continue;
    if (cell.styles !== previous) parts.push(transition(previous, cell.styles));
    parts.push(cell.value);
    previous = cell.styles;
  }
  parts.push(transition(previous, NO_STYLES));
  const joined = parts.join("");
  parts.length = 0;
  return joined.trimEnd();
}

/**
 * The right half of a wide character, one per style list: painted afresh each frame, a new
 * object there made a row holding a wide character differ from the same row of the frame
 * before, and be joined again at every frame.
 */
const rightHalves = new WeakMap<AnsiCode[], StyledChar>();
function rightHalf(styles: AnsiCode[]): StyledChar {
  let cell = rightHalves.get(styles);
  if (cell === undefined) rightHalves.set(styles, (cell = { type: "char", value: "", fullWidth: false, styles }));
  return cell;
}

type Row = (StyledChar | undefined)[];

/**
 * The rows of the last frame composed (their cells and text) and spare rows to compose the next
 * one in. Terminal-wide: the frames of one terminal; a frame composed for something else (a
 * test's second screen) only finds fewer rows to take.
 */
const frames: { width: number; cells: Row[]; text: string[]; spare: Row[]; composed: Map<string, Row>; parts: string[] } = {
  width: -1,
  cells: [],
  text: [],
  spare: [],
  composed: new Map(),
  parts: [],
};

/**
 * The cells of a row the last frame joined into `text` (a row that changed), by column, as
 * painted: the frame writer takes a changed line's cells from here instead of parsing its text
 * again (line-grid.ts, composedGrid). Undefined for any other text.
 */
export function composedRow(text: string): readonly StyledChar[] | undefined {
  return frames.composed.get(text) as StyledChar[] | undefined;
}

function sameRow(a: Row, b: Row): boolean {
  if (a.length !== b.length) return false;
  for (let x = 0; x < a.length; x++) if (a[x] !== b[x]) return false;
  return true;
}

export default class Output {
  readonly width: number;
  readonly height: number;
  private readonly operations: Operation[] = [];

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: "write", x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: "clip", clip });
  }

  unclip(): void {
    this.operations.push({ type: "unclip" });
  }

  /** Where the operations recorded from now on start (output-memo.ts). */
  mark(): number {
    return this.operations.length;
  }

  /** The operations recorded since `mark`. */
  since(mark: number): readonly Operation[] {
    return this.operations.slice(mark);
  }

  /** Records operations given before, as they were (the same objects, with the work kept on them). */
  replay(ops: readonly Operation[]): void {
    for (const op of ops) this.operations.push(op);
  }

  get(): { output: string; height: number } {
    const before = frames.width === this.width ? frames : undefined;
    const rows: Row[] = [];
    for (let y = 0; y < this.height; y++) {
      const spare = before?.spare[y];
      if (spare) spare.length = this.width;
      rows.push(spare ? spare.fill(BLANK) : new Array<StyledChar>(this.width).fill(BLANK));
    }
    const clips: Clip[] = [];
    for (const op of this.operations) {
      if (op.type === "clip") clips.push(op.clip);
      else if (op.type === "unclip") clips.pop();
      else this.paint(rows, op, clips.at(-1));
    }
    const composed = new Map<string, Row>();
    const text = rows.map((row, y) => {
      const was = before?.cells[y];
      if (was && sameRow(row, was)) return before.text[y]!;
      const joined = rowToString(row, frames.parts);
      // A copy: the row is filled again two frames on, and the writer may be handed this frame later.
      // Only a row of the frame's width is full: one written past it (a frame composed at no width,
      // for a terminal that reports no size) grew with holes, and its text is parsed instead.
      if (row.length === this.width) composed.set(joined, row.slice());
      return joined;
    });
    frames.composed = composed;
    // This frame's rows are compared with by the next one; the last frame's are filled again for it.
    frames.spare = before ? before.cells : [];
    frames.width = this.width;
    frames.cells = rows;
    frames.text = text;
    return { output: text.join("\n"), height: rows.length };
  }

  /** Places one write's lines into the rows, cut to the clip region when there is one. */
  private paint(rows: (StyledChar | undefined)[][], op: Extract<Operation, { type: "write" }>, clip: Clip | undefined): void {
    let placed = op.placed;
    if (placed === undefined || !sameClip(placed.clip, clip)) op.placed = placed = place(op, clip);
    // As in Ink, a line that falls outside the rows does not move the next one down.
    let row = placed.y;
    for (const cells of placed.lines) {
      const target = rows[row];
      if (!target) continue;
      let column = placed.x;
      for (const cell of cells) {
        target[column] = cell;
        const w = cellWidth(cell.value);
        for (let k = 1; k < w; k++) target[column + k] = rightHalf(cell.styles);
        column += w;
      }
      row++;
    }
  }
}

/** Where one write's lines go and their cells, cut to the clip region when there is one. */
function place(op: Extract<Operation, { type: "write" }>, clip: Clip | undefined): Placed {
  let { x, y } = op;
  let lines = op.text.split("\n");
  const nothing: Placed = { clip, x, y, lines: [] };
  if (clip) {
    const cutX = typeof clip.x1 === "number" && typeof clip.x2 === "number";
    const cutY = typeof clip.y1 === "number" && typeof clip.y2 === "number";
    if (cutX) {
      let widest = 0;
      for (const line of lines) widest = Math.max(widest, cachedWidth(line));
      if (x + widest < clip.x1! || x > clip.x2!) return nothing;
    }
    if (cutY && (y + lines.length < clip.y1! || y > clip.y2!)) return nothing;
    if (cutX) {
      const left = x < clip.x1! ? clip.x1! - x : 0;
      lines = lines.map((line) => {
        const w = cachedWidth(line);
        const right = x + w > clip.x2! ? clip.x2! - x : w;
        return cachedSlice(line, left, right);
      });
      if (x < clip.x1!) x = clip.x1!;
    }
    if (cutY) {
      const top = y < clip.y1! ? clip.y1! - y : 0;
      const bottom = y + lines.length > clip.y2! ? clip.y2! - y : lines.length;
      lines = lines.slice(top, bottom);
      if (y < clip.y1!) y = clip.y1!;
    }
  }
  return {
    clip,
    x,
    y,
    lines: lines.map((original, index) => {
      let line = original;
      for (const transform of op.transformers) line = transform(line, index);
      return cellsOf(line);
    }),
  };
}
