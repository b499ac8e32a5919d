// Width-aware wrapping and truncation. Widths are terminal cells (string-width: emoji and CJK
// take two), and SGR colour codes in the text take none.
import { wrapAnsi } from "./wrap-ansi.js";
import { glyphs } from "./glyphs.js";
import { graphemes } from "./graphemes.js";
import stringWidth from "./string-width.js";

// eslint-disable-next-line no-control-regex
const SGR_RE = /(\x1b\[[0-9;]*m)/;

/** Cells the string takes on screen. */
export function displayWidth(s: string): number {
  return stringWidth(s);
}

/**
 * `s` cut to at most `width` cells, ending in `ellipsis` when something was cut. SGR codes are
 * kept (and closed with a reset when the cut removed part of a styled run).
 */
export function truncate(s: string, width: number, ellipsis = glyphs().ellipsis): string {
  if (width <= 0) return "";
  if (stringWidth(s) <= width) return s;
  const ellipsisWidth = stringWidth(ellipsis);
  if (ellipsisWidth > width) return truncate(ellipsis, width, "");
  const target = width - ellipsisWidth;
  let out = "";
  let used = 0;
  let styled = false;
  outer: for (const piece of s.split(SGR_RE)) {
    if (piece === "") continue;
    if (piece.startsWith("\x1b[")) {
      out += piece;
      styled = true;
      continue;
    }
    for (const { segment } of graphemes(piece)) {
      const w = stringWidth(segment);
      if (used + w > target) break outer;
      out += segment;
      used += w;
    }
  }
  return out + (styled ? "\x1b[0m" : "") + ellipsis;
}

// What starts a line and should be repeated (bars, indentation) or blanked (bullets) on the
// lines a long line wraps into: SGR codes, spaces, quote bars (the ASCII one is `>`), and one
// list marker.
// eslint-disable-next-line no-control-regex
const PREFIX_RE = /^(?:\x1b\[[0-9;]*m|[ \u00a0]|[▎│┃]|>(?= )|(?:[*•◦▪-]|\d{1,9}[.)])(?= ))+/;
const MARKER_RE = /(?:[*•◦▪-]|\d{1,9}[.)])(?= )/g;

/**
 * Wrap one line to `width` cells. Words are kept whole where they fit; longer words are
 * broken. Continuation lines repeat the line's indentation and quote bars, and align after a
 * list marker.
 */
export function wrapLine(line: string, width: number): string {
  if (width <= 0 || stringWidth(line) <= width) return line;
  const prefix = PREFIX_RE.exec(line)?.[0] ?? "";
  const prefixWidth = stringWidth(prefix);
  if (prefix === "" || width - prefixWidth < 8) {
    return wrapAnsi(line, width, { trim: prefix === "" });
  }
  const rest = line.slice(prefix.length);
  const cont = prefix.replace(MARKER_RE, (m) => " ".repeat(m.length));
  const lines = wrapAnsi(rest, width - prefixWidth).split("\n");
  return lines.map((l, i) => (i === 0 ? prefix : cont) + l).join("\n");
}

/** Wrap every line of `text` (see wrapLine). */
export function wrapText(text: string, width: number): string {
  if (width <= 0) return text;
  return text
    .split("\n")
    .map((l) => wrapLine(l, width))
    .join("\n");
}

/** A table cell's lines at `width` cells: its own line breaks kept, words wrapped, longer ones broken. */
export function wrapCell(text: string, width: number): string[] {
  const w = Math.max(1, width);
  return text.split("\n").flatMap((l) => (stringWidth(l) <= w ? [l] : wrapAnsi(l, w).split("\n")));
}
