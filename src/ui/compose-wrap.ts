/**
 * The compose box's soft wrap: the text laid out in visual lines of a given
 * width, each line a range of the text, so the cursor (an offset in the
 * text) has a row and a column, and ↑/↓ move by visual lines. Nothing is
 * added to the text: a soft wrap is only where a line is drawn to end.
 *
 * Lines break after a run of spaces (the spaces stay at the end of the
 * upper line, as editors keep them); a word longer than the line is broken
 * between grapheme clusters. Widths are terminal cells (string-width: wide
 * characters and emoji take two). One space may hang past the width: the
 * box keeps a column free at the right for it and for the cursor after the
 * last character of a line.
 */
import { graphemes } from "../render/graphemes.js";
import stringWidth from "../render/string-width.js";

export interface VisualLine {
  /** Offsets in the text (UTF-16 units): the line is text.slice(start, end), without its line break. */
  start: number;
  end: number;
  /** The line ends at a line break or at the end of the text (else the text goes on on the next line). */
  hard: boolean;
}

/** The columns the text gets in a compose box `boxWidth` wide: its borders, and one column kept for the cursor. */
export function composeTextWidth(boxWidth: number): number {
  return Math.max(1, boxWidth - 3);
}

interface Cluster {
  at: number;
  len: number;
  width: number;
  space: boolean;
}

/**
 * The clusters of one line of text with their offsets and widths. The line
 * is segmented word by word: a space followed by a character below U+0300
 * (where no combining mark, joiner or selector is) always ends a cluster,
 * and short pieces keep ICU's segmenter, slow on long strings, for the words
 * that need it.
 */
function clustersOf(text: string, from: number, to: number): Cluster[] {
  const out: Cluster[] = [];
  let start = from;
  for (let i = from; i <= to; i++) {
    const cut = i === to || (text.charCodeAt(i) === 0x20 && (i + 1 >= to || text.charCodeAt(i + 1) < 0x300));
    if (!cut) continue;
    if (i > start) {
      for (const { segment, index } of graphemes(text.slice(start, i))) {
        out.push({ at: start + index, len: segment.length, width: stringWidth(segment), space: segment === " " });
      }
    }
    if (i < to) out.push({ at: i, len: 1, width: 1, space: true });
    start = i + 1;
  }
  return out;
}

/** Lays one line (no line breaks in it) out in visual lines. */
function wrapOne(text: string, from: number, to: number, width: number, out: VisualLine[]): void {
  const clusters = clustersOf(text, from, to);
  let start = from;
  let col = 0;
  // Where the line may end: after the last run of spaces on it (an offset), and the cluster index there.
  let breakAt = -1;
  let breakIndex = -1;
  for (let i = 0; i < clusters.length; i++) {
    const c = clusters[i]!;
    if (col + c.width <= width) {
      col += c.width;
      if (c.space && clusters[i + 1]?.space !== true) {
        breakAt = c.at + c.len;
        breakIndex = i + 1;
      }
      continue;
    }
    if (c.space && clusters[i - 1]?.space !== true) {
      // One space hangs in the kept column; the line ends after it.
      out.push({ start, end: c.at + c.len, hard: false });
      start = c.at + c.len;
      col = 0;
      breakAt = -1;
      continue;
    }
    if (breakAt > start) {
      // Back to the last break: the word goes whole to the next line.
      out.push({ start, end: breakAt, hard: false });
      start = breakAt;
      i = breakIndex - 1;
      col = 0;
      breakAt = -1;
      continue;
    }
    // A word longer than the line (or a cluster wider than it): broken here.
    if (c.at > start) out.push({ start, end: c.at, hard: false });
    start = c.at;
    col = c.width;
    breakAt = c.space ? c.at + c.len : -1;
    breakIndex = i + 1;
  }
  out.push({ start, end: to, hard: true });
}

/** The text in visual lines of `width` cells (at least one line, even for an empty text). */
export function layoutText(text: string, width: number): VisualLine[] {
  const w = Math.max(1, width);
  const out: VisualLine[] = [];
  let from = 0;
  for (;;) {
    const nl = text.indexOf("\n", from);
    const to = nl === -1 ? text.length : nl;
    wrapOne(text, from, to, w, out);
    if (nl === -1) return out;
    from = nl + 1;
  }
}

/**
 * The visual line the cursor is on. At the end of a soft-wrapped line the
 * cursor is at the start of the next one (they are the same offset).
 */
export function cursorRow(lines: VisualLine[], cursor: number): number {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (cursor < l.end || (cursor === l.end && l.hard)) return i;
  }
  return lines.length - 1;
}

/** The cursor's column on its visual line, in cells. */
export function cursorColumn(text: string, line: VisualLine, cursor: number): number {
  return stringWidth(text.slice(line.start, Math.max(line.start, cursor)));
}

/**
 * The offset on a visual line nearest to `column` cells without passing it,
 * on a cluster boundary. On a soft-wrapped line the last place is before its
 * last cluster: its end is the start of the next line.
 */
export function offsetAtColumn(text: string, line: VisualLine, column: number): number {
  let col = 0;
  let last = line.start;
  for (const c of clustersOf(text, line.start, line.end)) {
    if (col + c.width > column) return c.at;
    col += c.width;
    last = c.at;
    if (line.hard || c.at + c.len < line.end) last = c.at + c.len;
  }
  return line.hard ? line.end : last;
}

/**
 * ↑/↓ by visual lines, keeping the column the cursor had when the moves
 * began (`goal`), as editors do: through a short line and back to a long one,
 * the cursor comes back to its column. Returns undefined on the first line
 * (↑) or the last (↓).
 */
export function moveVisual(text: string, cursor: number, width: number, delta: -1 | 1, goal?: number): { cursor: number; goal: number } | undefined {
  const lines = layoutText(text, width);
  const row = cursorRow(lines, cursor);
  const target = lines[row + delta];
  if (!target) return undefined;
  const column = goal ?? cursorColumn(text, lines[row]!, cursor);
  return { cursor: offsetAtColumn(text, target, column), goal: column };
}
