// Tables drawn with box-drawing lines, each column as wide as its widest cell, narrowed (widest
// column first) until the table fits the width; cells wrap at word boundaries inside their column.
// Our own rather than cli-table3's: that one measured every cell again for each step of its
// layout (a 1,600-row table of a 10,000-character message took over 100 ms), and we already have
// the width function and the wrapping the rest of the message uses.
import { displayWidth, wrapCell } from "./wrap.js";

export type Align = "left" | "center" | "right" | null;

const H = "─";

/** Columns are never narrowed below this many cells (padding included). */
const MIN_COLUMN = 6;

/** The table's lines: `head` and `rows` hold rendered cells (SGR allowed, `\n` for line breaks). */
export function drawTable(head: string[], rows: string[][], width: number, align: readonly Align[] = []): string[] {
  const cols = head.length;
  const all = [head, ...rows];
  const widths = Array.from({ length: cols }, (_, i) => {
    let widest = 1;
    for (const r of all) for (const line of (r[i] ?? "").split("\n")) widest = Math.max(widest, displayWidth(line));
    return widest + 2; // a space each side
  });
  narrow(widths, width - (cols + 1));
  const rule = (left: string, mid: string, right: string) => left + widths.map((w) => H.repeat(w)).join(mid) + right;
  const out = [rule("┌", "┬", "┐")];
  all.forEach((row, r) => {
    if (r > 0) out.push(rule("├", "┼", "┤"));
    out.push(...rowLines(row, widths, align));
  });
  out.push(rule("└", "┴", "┘"));
  return out;
}

/** Takes a cell from the widest column, one at a time, until the columns fit `available` (or all are at the minimum). */
function narrow(widths: number[], available: number): void {
  let total = widths.reduce((a, b) => a + b, 0);
  // Columns at the minimum drop out; the rest lose cells together down to the next widest one's
  // size, so a table with thousands of columns costs one pass per distinct width, not per cell.
  while (total > available) {
    const sorted = [...new Set(widths.filter((w) => w > MIN_COLUMN))].sort((a, b) => b - a);
    const top = sorted[0];
    if (top === undefined) return;
    const next = Math.max(sorted[1] ?? MIN_COLUMN, MIN_COLUMN);
    const atTop = widths.filter((w) => w === top).length;
    const cut = Math.min(top - next, Math.ceil((total - available) / atTop));
    let left = total - available;
    for (let i = 0; i < widths.length && left > 0; i++) {
      if (widths[i] !== top) continue;
      const take = Math.min(cut, left);
      widths[i] = top - take;
      total -= take;
      left -= take;
    }
  }
}

/** One table row: its cells wrapped to their columns, padded, side by side. */
function rowLines(row: string[], widths: number[], align: readonly Align[]): string[] {
  const cells = widths.map((w, i) => wrapCell(row[i] ?? "", w - 2));
  const height = Math.max(1, ...cells.map((c) => c.length));
  const lines: string[] = [];
  for (let l = 0; l < height; l++) {
    const parts = widths.map((w, i) => pad(cells[i]![l] ?? "", w - 2, align[i] ?? null));
    lines.push(`│ ${parts.join(" │ ")} │`);
  }
  return lines;
}

function pad(text: string, width: number, align: Align): string {
  const room = Math.max(0, width - displayWidth(text));
  if (align === "right") return " ".repeat(room) + text;
  if (align === "center") return " ".repeat(Math.floor(room / 2)) + text + " ".repeat(Math.ceil(room / 2));
  return text + " ".repeat(room);
}
