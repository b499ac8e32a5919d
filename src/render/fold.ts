/**
 * Text folded for matching what a person types against names: lower case,
 * accents dropped ("José" ~ "jose"), compatibility forms unified (full-width
 * "ＡＢＣ" ~ "abc", the "ﬁ" ligature ~ "fi"), and the few Latin letters that
 * Unicode does not decompose spelled out ("ø" ~ "o", "ß" ~ "ss", "æ" ~ "ae").
 * Wide characters (CJK, emoji) stay as they are: they match themselves.
 *
 * `foldWithMap` also says where each folded character came from, so matched
 * positions can be shown on the original text.
 */

const SPECIAL: Readonly<Record<string, string>> = {
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  Æ: "ae",
  œ: "oe",
  Œ: "oe",
  ø: "o",
  Ø: "o",
  ł: "l",
  Ł: "l",
  đ: "d",
  Đ: "d",
  ð: "d",
  Ð: "d",
  þ: "th",
  Þ: "th",
  ı: "i",
};

const MARKS = /\p{M}/gu;

/** Whether every unit is printable ASCII or a space: the fast path (lower case only). */
function isPlainAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7e) return false;
  return true;
}

/** One code point, folded (possibly to several characters, or none for a lone combining mark). */
function foldCodePoint(ch: string): string {
  const special = SPECIAL[ch];
  if (special !== undefined) return special;
  const cp = ch.codePointAt(0) as number;
  if (cp < 0x80) return ch.toLowerCase();
  return ch.normalize("NFKD").replace(MARKS, "").toLowerCase();
}

export function fold(s: string): string {
  if (isPlainAscii(s)) return s.toLowerCase();
  let out = "";
  for (const ch of s) out += foldCodePoint(ch);
  return out;
}

export interface FoldedText {
  text: string;
  /** For each folded character, the index (UTF-16) of the original character it came from; one more entry: the original's length. */
  source: number[];
}

export function foldWithMap(s: string): FoldedText {
  const source: number[] = [];
  let text = "";
  if (isPlainAscii(s)) {
    for (let i = 0; i <= s.length; i++) source.push(i);
    return { text: s.toLowerCase(), source };
  }
  let at = 0;
  for (const ch of s) {
    const f = foldCodePoint(ch);
    for (let k = 0; k < f.length; k++) source.push(at);
    text += f;
    at += ch.length;
  }
  source.push(s.length);
  return { text, source };
}
