// Full-text search for the `search` narrow operator: bare words match
// case-insensitively at the start of a word (so "deplo" finds "deploys"),
// "quoted phrases" match as case-insensitive substrings; the topic counts as
// part of the text. Highlighting wraps matches in rendered HTML (outside tags
// and entities) with <span class="highlight">.

import { escapeHtml } from "./escape-html.js";

export interface SearchQuery {
  /** Lower-cased word prefixes (the words of phrases included). */
  words: string[];
  /** Lower-cased phrases. */
  phrases: string[];
}

const WORD = /[\p{L}\p{N}_]+/gu;

function tokens(text: string): string[] {
  return Array.from(text.toLowerCase().matchAll(WORD), (m) => m[0]);
}

export function parseSearch(operand: string): SearchQuery {
  const words: string[] = [];
  const phrases: string[] = [];
  for (const m of operand.matchAll(/"([^"]+)"|(\S+)/g)) {
    if (m[1] !== undefined) {
      const phrase = m[1].trim().toLowerCase();
      if (phrase !== "") phrases.push(phrase);
      words.push(...tokens(m[1]));
    } else {
      words.push(...tokens(m[2]!));
    }
  }
  return { words: [...new Set(words)], phrases: [...new Set(phrases)] };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export interface SearchMatcher {
  /** Whether every word and every phrase occurs in the topic or content. */
  all(topic: string, content: string): boolean;
  /** Whether any phrase occurs (used for negated search). */
  anyPhrase(topic: string, content: string): boolean;
  /** Whether every word occurs. */
  allWords(topic: string, content: string): boolean;
}

export function searchMatcher(query: SearchQuery): SearchMatcher {
  const wordRes = query.words.map((w) => new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(w)}`, "u"));
  const hay = (topic: string, content: string) => `${topic}\n${content}`.toLowerCase();
  const allWords = (text: string) => wordRes.every((re) => re.test(text));
  const phrasesIn = (text: string) => query.phrases.filter((p) => text.includes(p)).length;
  return {
    all(topic, content) {
      const text = hay(topic, content);
      return allWords(text) && phrasesIn(text) === query.phrases.length;
    },
    anyPhrase(topic, content) {
      return query.phrases.length > 0 && phrasesIn(hay(topic, content)) > 0;
    },
    allWords(topic, content) {
      return allWords(hay(topic, content));
    },
  };
}

const HIGHLIGHT_START = '<span class="highlight">';
const HIGHLIGHT_END = "</span>";

/** Ranges [start, end) of one text node (HTML-escaped text, no tags) to highlight. */
function matchRanges(text: string, query: SearchQuery): [number, number][] {
  const lower = text.toLowerCase();
  const ranges: [number, number][] = [];
  for (const phrase of query.phrases) {
    const needle = escapeHtml(phrase).toLowerCase();
    let from = 0;
    for (let i = lower.indexOf(needle, from); i >= 0 && needle !== ""; i = lower.indexOf(needle, from)) {
      ranges.push([i, i + needle.length]);
      from = i + needle.length;
    }
  }
  if (query.words.length > 0) {
    for (const m of lower.matchAll(WORD)) {
      const start = m.index;
      const end = start + m[0].length;
      // Skip the names inside character references such as &amp; and &#39;.
      const inEntity =
        text[end] === ";" && (text[start - 1] === "&" || (text[start - 1] === "#" && text[start - 2] === "&"));
      if (inEntity) continue;
      if (query.words.some((w) => m[0].startsWith(w))) ranges.push([start, end]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

function highlightText(text: string, query: SearchQuery): string {
  const ranges = matchRanges(text, query);
  if (ranges.length === 0) return text;
  let out = "";
  let pos = 0;
  for (const [start, end] of ranges) {
    out += text.slice(pos, start) + HIGHLIGHT_START + text.slice(start, end) + HIGHLIGHT_END;
    pos = end;
  }
  return out + text.slice(pos);
}

/** Highlights the matches of the queries in HTML, never inside tags. */
export function highlightHtml(html: string, queries: SearchQuery[]): string {
  const query: SearchQuery = {
    words: [...new Set(queries.flatMap((q) => q.words))],
    phrases: [...new Set(queries.flatMap((q) => q.phrases))],
  };
  if (query.words.length === 0 && query.phrases.length === 0) return html;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith("<") ? part : highlightText(part, query)))
    .join("");
}
