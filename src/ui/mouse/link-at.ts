/**
 * The link under the pointer in a laid-out line. Where the terminal shows OSC 8 links the line
 * carries each link's address around its text; elsewhere the address is in the text (`text
 * (url)`, or a bare address), perhaps wrapped over several lines, so the word under the pointer
 * is matched with the message's own links (render/message-links.ts) to get the whole address.
 */
import { graphemes } from "../../render/graphemes.js";
import type { MessageLink } from "../../render/message-links.js";
import { displayWidth } from "../../render/wrap.js";

/** What is at a column of a line: the OSC 8 address around it, and the word (visible text between spaces). */
export interface AtColumn {
  href?: string;
  word: string;
}

// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\]8;[^;\x07\x1b]*;([^\x07\x1b]*)(?:\x07|\x1b\\)|\][^\x07\x1b]*(?:\x07|\x1b\\)|.)/y;

/** The visible cells of `text` (escape sequences read, not shown), each with the OSC 8 address it is inside. */
function cells(text: string): Array<{ ch: string; href?: string; from: number; to: number }> {
  const out: Array<{ ch: string; href?: string; from: number; to: number }> = [];
  let href: string | undefined;
  let col = 0;
  let i = 0;
  while (i < text.length) {
    const esc = text.indexOf("\x1b", i);
    const plainEnd = esc === -1 ? text.length : esc;
    for (const { segment } of graphemes(text.slice(i, plainEnd))) {
      const w = displayWidth(segment);
      out.push({ ch: segment, ...(href && { href }), from: col, to: col + Math.max(1, w) });
      col += w;
    }
    if (esc === -1) break;
    ESCAPE.lastIndex = esc;
    const m = ESCAPE.exec(text);
    if (!m) break;
    if (m[0].startsWith("\x1b]8;")) href = m[1] || undefined;
    i = esc + m[0].length;
  }
  return out;
}

export function atColumn(text: string, column: number): AtColumn | undefined {
  const row = cells(text);
  const at = row.findIndex((c) => column >= c.from && column < c.to);
  if (at === -1 || /^\s$/.test(row[at]!.ch)) return undefined;
  let a = at;
  let b = at;
  while (a > 0 && !/^\s$/.test(row[a - 1]!.ch)) a--;
  while (b + 1 < row.length && !/^\s$/.test(row[b + 1]!.ch)) b++;
  const word = row
    .slice(a, b + 1)
    .map((c) => c.ch)
    .join("");
  const href = row[at]!.href;
  return href ? { href, word } : { word };
}

/** Brackets and punctuation around an address in running text. */
const AROUND = /^[("'<[]+|[)"'>\].,;:!?]+$/g;

/**
 * The address a click at `column` of `text` means: the OSC 8 address there; else the message's
 * link whose address contains the word there (a wrapped address shows a piece per line); else
 * the word itself when it is a web address.
 */
export function linkAt(text: string, column: number, links: readonly MessageLink[]): string | undefined {
  const at = atColumn(text, column);
  if (!at) return undefined;
  if (at.href) return at.href;
  const word = at.word.replace(AROUND, "");
  // A piece of an address has a dot or a slash; a word of the link's text (or any other) opens nothing.
  if (word.length < 4 || !/[./]/.test(word)) return undefined;
  const link = links.find((l) => l.url.includes(word));
  if (link) return link.url;
  return /^https?:\/\/\S+$/.test(word) ? word : undefined;
}
