/**
 * Search highlights. The server marks the matched words of each result in
 * `match_content` / `match_subject` (HTML with `<span class="highlight">`).
 * We render messages from their Markdown source, so we take the highlighted
 * texts from that HTML (decoded and sanitized) and mark the same words in
 * our own rendered lines with inverse video (an attribute, not a colour:
 * it shows under NO_COLOR too). The HTML itself is never shown.
 */
import { glyphs } from "../render/glyphs.js";
import type { Message } from "../api/schemas/common.js";
import type { Narrow } from "../model/narrow.js";
import type { Store } from "../model/store.js";
import { sanitizeInline } from "../render/sanitize.js";
import { searchWords, type SearchTerm } from "./search-query.js";

export const HIGHLIGHT_ON = "\u001b[7m";
export const HIGHLIGHT_OFF = "\u001b[27m";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

/** The distinct texts the server highlighted, lower-cased, longest first. */
export function highlightedTexts(html: string | undefined): string[] {
  if (!html) return [];
  const out = new Set<string>();
  for (const m of html.matchAll(/<span class="highlight">([\s\S]*?)<\/span>/g)) {
    const text = sanitizeInline(decodeEntities(m[1]!.replace(/<[^>]*>/g, ""))).trim().toLowerCase();
    if (text) out.add(text);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// SGR and other CSI sequences, and OSC sequences (links), inside a pre-styled line.
// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/**
 * Marks every occurrence of the needles in a line that may hold escape
 * sequences: matched on the visible text (case-insensitively; a needle that
 * starts with a letter or digit only at the start of a word, as the server
 * matches), the marks inserted around it without splitting any sequence.
 */
export function markMatches(line: string, needles: readonly string[]): string {
  const words = needles.filter((n) => n !== "");
  if (words.length === 0 || line === "") return line;
  // The visible text, and for each of its characters the offset in `line`.
  let visible = "";
  const at: number[] = [];
  let last = 0;
  const addText = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      visible += line[i];
      at.push(i);
    }
  };
  for (const m of line.matchAll(ESCAPE)) {
    addText(last, m.index);
    last = m.index + m[0].length;
  }
  addText(last, line.length);
  at.push(line.length);
  const alternatives = words.map((w) => (/^[\p{L}\p{N}_]/u.test(w) ? `(?<![\\p{L}\\p{N}_])${escapeRegExp(w)}` : escapeRegExp(w)));
  const re = new RegExp(alternatives.join("|"), "giu");
  const ranges: Array<[number, number]> = [];
  for (const m of visible.matchAll(re)) {
    if (m[0] === "") continue;
    const start = m.index;
    const end = start + m[0].length;
    const prev = ranges[ranges.length - 1];
    if (prev && start <= prev[1]) prev[1] = Math.max(prev[1], end);
    else ranges.push([start, end]);
  }
  if (ranges.length === 0) return line;
  let out = "";
  let pos = 0;
  for (const [start, end] of ranges) {
    const from = at[start]!;
    const to = at[end - 1]! + 1;
    out += line.slice(pos, from) + HIGHLIGHT_ON + line.slice(from, to) + HIGHLIGHT_OFF;
    pos = to;
  }
  return out + line.slice(pos);
}

/** How one message's lines are highlighted (see message-layout's `highlight` option). */
export interface MessageHighlight {
  body?: (line: string) => string;
  /** For the recipient header `#channel › topic`: only the topic part is marked. */
  subject?: (line: string) => string;
}

/**
 * The highlighter for a search narrow: the server's highlights where the
 * fetch brought them, else (a message that arrived live) the query's words.
 */
export function searchHighlighter(store: Store, narrow: Narrow): ((m: Message) => MessageHighlight | undefined) | undefined {
  if (narrow.kind !== "search") return undefined;
  const matches = store.messages.list(narrow)?.matches;
  const fallback = searchWords((narrow.terms ?? [{ operator: "search", operand: narrow.query }]).map(toSearchTerm));
  return (m) => {
    const found = matches?.get(m.id);
    const body = found ? highlightedTexts(found.content) : fallback;
    const subject = found ? highlightedTexts(found.subject) : fallback;
    if (body.length === 0 && subject.length === 0) return undefined;
    return {
      body: body.length ? (line) => markMatches(line, body) : undefined,
      subject: subject.length
        ? (line) => {
            // The recipient header's separator (message-layout.ts), in the glyphs in use.
            const sep = ` ${glyphs().prompt} `;
            const i = line.indexOf(sep);
            return i < 0 ? line : line.slice(0, i + sep.length) + markMatches(line.slice(i + sep.length), subject);
          }
        : undefined,
    };
  };
}

function toSearchTerm(t: { operator: string; operand: unknown; negated?: boolean }): SearchTerm {
  return { operator: t.operator, operand: typeof t.operand === "string" ? t.operand : String(t.operand), negated: t.negated };
}
