// The single choke point for every server-provided string on its way to the terminal.
//
// Ink strips CSI sequences itself but passes OSC (window title, OSC 52 clipboard writes,
// OSC 8 links), SGR colours, BEL, CR and BS straight through, so a message, a user name or a
// topic could rewrite the screen, the title or the clipboard. `sanitize` removes every escape
// sequence and every control character, and the bidi controls that could reorder what the
// rest of the line shows.
//
// Strings shown inline also get their emoji written as `:name:` when the terminal's font has
// no emoji (glyphs.ts); that is the only change to what the server wrote.
import { presentEmoji } from "./glyphs.js";

export interface SanitizeOptions {
  /** Keep line breaks (`\n`; `\r\n`, a lone `\r`, U+2028/U+2029 become `\n`). Default false: each becomes a space. */
  multiline?: boolean;
  /** Columns per tab stop when expanding `\t`. Default 4; in single-line mode a tab is one space. */
  tabWidth?: number;
}

// One alternation, tried left to right at each position:
//  1. CSI, 7-bit (`ESC [`) or 8-bit (U+009B): parameter bytes, intermediate bytes, final byte.
//  2. Control strings — OSC (`ESC ]`, U+009D), DCS (`ESC P`, U+0090), SOS (`ESC X`, U+0098),
//     PM (`ESC ^`, U+009E), APC (`ESC _`, U+009F) — up to BEL or ST (`ESC \`, U+009C); a string
//     that is never terminated runs to the next ESC or to the end, as a terminal would swallow it.
//  3. Any other ESC sequence: intermediates then one final byte (`ESC c`, `ESC ( B`, `ESC 7`…),
//     or a lone ESC.
//  4. Line breaks: `\r\n`, `\r`, `\n`, U+2028, U+2029.
//  5. Everything else that must go: C0 controls (a tab is kept here and expanded afterwards),
//     DEL, C1 controls, bidi embeddings/overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
const STRIP_RE =
  // eslint-disable-next-line no-control-regex
  /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^]*?(?:\x07|\x9c|\x1b\\|(?=\x1b)|$)|\x1b[\x20-\x2f]*[\x30-\x7e]?|\r\n?|[\n\u2028\u2029]|[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

// Cheap pre-check: a string without any of these characters is returned as it is.
// eslint-disable-next-line no-control-regex
const SUSPECT_RE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const isLineBreak = (m: string): boolean =>
  m === "\n" || m === "\r" || m === "\r\n" || m === "\u2028" || m === "\u2029";

/**
 * Remove every terminal escape sequence and control character from `s`.
 * Keeps `\n` only with `multiline: true` (otherwise a line break becomes a space) and expands
 * `\t` to spaces. Visible text is kept.
 */
export function sanitize(s: string, opts?: SanitizeOptions): string {
  if (!SUSPECT_RE.test(s)) return s;
  const multiline = opts?.multiline === true;
  const newline = multiline ? "\n" : " ";
  let hasTab = false;
  const out = s.replace(STRIP_RE, (m) => {
    if (m === "\t") {
      hasTab = true;
      return "\t";
    }
    return isLineBreak(m) ? newline : "";
  });
  if (!hasTab) return out;
  if (!multiline) return out.replace(/\t/g, " ");
  return expandTabs(out, Math.max(1, opts?.tabWidth ?? 4));
}

// Tabs are expanded after the strip pass, so tab stops are computed on the cleaned text.
function expandTabs(s: string, tabWidth: number): string {
  let out = "";
  let column = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) {
      column = 0;
    } else if (c === 9) {
      out += s.slice(start, i);
      const n = tabWidth - (column % tabWidth);
      out += " ".repeat(n);
      column += n;
      start = i + 1;
    } else if (c < 0xdc00 || c > 0xdfff) {
      column++; // counts code points, not cells: close enough for tab stops
    }
  }
  return out + s.slice(start);
}

/**
 * For names, topics, statuses and other one-line strings shown on screen: sanitized, with
 * every run of whitespace collapsed to one space and the ends trimmed, and emoji as text when
 * the terminal shows them so (`keepEmoji` for what leaves the screen: the clipboard, desktop
 * notifications).
 */
export function sanitizeInline(s: string, opts?: { keepEmoji?: boolean }): string {
  const clean = sanitize(s).replace(/\s+/g, " ").trim();
  return opts?.keepEmoji ? clean : presentEmoji(clean);
}
