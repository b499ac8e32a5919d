/**
 * Markdown tables, drawn with box-drawing lines (ASCII ones without UTF-8: glyphs.ts) and measured with termchat's one width function
 * (string-width.ts), in the bundle and in the tests alike. Columns get their natural width when
 * the table fits; else the widest columns give up cells (down to a floor) and their text wraps
 * at word boundaries. A table that still does not fit is cut by the caller (NO_WRAP lines).
 */
import { wrapAnsi } from "./wrap-ansi.js";
import { glyphs } from "./glyphs.js";
import stringWidth from "./string-width.js";

export type Align = "left" | "right" | "center" | null;


/** A column is never narrower than this (padding included); shrinking stops at SHRINK_FLOOR. */
const MIN_COLUMN = 3;
const SHRINK_FLOOR = 6;

function linesOf(cell: string): string[] {
  return cell.split("\n");
}

/**
 * Each column's width in cells, one space of padding on each side included: its widest line,
 * then, while the table is wider than `width`, one cell off the widest column at a time.
 */
export function columnWidths(rows: ReadonlyArray<ReadonlyArray<string>>, columns: number, width: number): number[] {
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max(MIN_COLUMN, ...rows.map((r) => Math.max(0, ...linesOf(r[i] ?? "").map((l) => stringWidth(l))) + 2)),
  );
  const available = width - (columns + 1);
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > available) {
    let widest = 0;
    for (let i = 1; i < columns; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= SHRINK_FLOOR) break;
    widths[widest]!--;
    total--;
  }
  return widths;
}

function pad(text: string, width: number, align: Align): string {
  const room = Math.max(0, width - stringWidth(text));
  if (align === "right") return " ".repeat(room) + text;
  if (align === "center") return " ".repeat(Math.floor(room / 2)) + text + " ".repeat(room - Math.floor(room / 2));
  return text + " ".repeat(room);
}

/** One table row as text lines: each cell wrapped to its column, the row as tall as its tallest cell. */
function rowLines(cells: ReadonlyArray<string>, widths: number[], align: ReadonlyArray<Align>): string[] {
  const wrapped = widths.map((w, i) => linesOf(cells[i] ?? "").flatMap((l) => wrapAnsi(l, Math.max(1, w - 2)).split("\n")));
  const height = Math.max(1, ...wrapped.map((c) => c.length));
  const out: string[] = [];
  const VERTICAL = glyphs().table.vertical;
  for (let y = 0; y < height; y++) {
    out.push(VERTICAL + wrapped.map((c, i) => ` ${pad(c[y] ?? "", widths[i]! - 2, align[i] ?? null)} `).join(VERTICAL) + VERTICAL);
  }
  return out;
}

function rule([left, junction, right]: readonly [string, string, string], widths: number[]): string {
  return left + widths.map((w) => glyphs().table.horizontal.repeat(w)).join(junction) + right;
}

/**
 * The lines of a table whose header cells are `head` and body `rows` (cell text may carry SGR
 * styles), at most `width` cells wide when the columns can shrink that far. A rule separates
 * every row, as a wrapped cell would otherwise run into the row below it.
 */
export function drawTable(head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>, align: ReadonlyArray<Align>, width: number): string[] {
  const columns = Math.max(head.length, ...rows.map((r) => r.length));
  const widths = columnWidths([head, ...rows], columns, width);
  const RULE = glyphs().table;
  const out = [rule(RULE.top, widths), ...rowLines(head, widths, align)];
  for (const row of rows) out.push(rule(RULE.middle, widths), ...rowLines(row, widths, align));
  out.push(rule(RULE.bottom, widths));
  return out;
}
