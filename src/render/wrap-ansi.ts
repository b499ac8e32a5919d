/**
 * Hard wrapping of text with SGR codes and OSC 8 links, as wrap-ansi 9.0.2 does it with
 * `{ hard: true }` (long words broken by grapheme cluster, as the Ink patch makes it break them),
 * to the same output, in time linear in the line (the wrapping of message bodies and table cells).
 *
 * wrap-ansi builds its result one character at a time (`out += ch`) and, at every escape
 * character, searches the rest of the line for the code it starts with (`rest.slice(i)` and a new
 * regular expression). A message's paragraph of 10,000 characters styled every few characters
 * (emphasis runs, emoji, mentions) cost tens of milliseconds and left ropes of thousands of
 * one-character strings for the collector; and it measured the row again for every word. Here
 * the same steps are taken with pieces joined once, the escape state read by one search whose
 * answer serves every escape before its match, and a row's width carried along where adding up
 * gives what measuring gives (see Rows).
 * render-wrap-ansi.test.ts compares the two on random styled text.
 */
import stripAnsi from "strip-ansi";
import { graphemes, perCodePoint } from "./graphemes.js";
import stringWidth from "./string-width.js";

export interface WrapOptions {
  /** Drop spaces at the start and end of rows (wrap-ansi's default); off keeps them. */
  trim?: boolean;
}

// The SGR codes wrap-ansi closes at a row's end and opens again on the next (ansi-styles' pairs).
const CLOSE_OF = new Map<number, number>([
  [1, 22], [2, 22], [3, 23], [4, 24], [53, 55], [7, 27], [8, 28], [9, 29],
  ...[30, 31, 32, 33, 34, 35, 36, 37, 90, 91, 92, 93, 94, 95, 96, 97].map((c): [number, number] => [c, 39]),
  ...[40, 41, 42, 43, 44, 45, 46, 47, 100, 101, 102, 103, 104, 105, 106, 107].map((c): [number, number] => [c, 49]),
]);
const END_CODE = 39;
const LINK = "]8;;";
const isEscape = (unit: number) => unit === 0x1b || unit === 0x9b;

/** Wrap `text` (its own line breaks kept) to at most `columns` cells a row. */
export function wrapAnsi(text: string, columns: number, options: WrapOptions = {}): string {
  return String(text)
    .normalize()
    .replaceAll("\r\n", "\n")
    .split("\n")
    .map((line) => wrapOne(line, columns, options.trim !== false))
    .join("\n");
}

/** The rows of one line, joined, with codes closed and opened again around each break. */
function wrapOne(line: string, columns: number, trim: boolean): string {
  if (trim && line.trim() === "") return "";
  const words = line.split(" ");
  const text = line.replace(WHOLE_ESCAPES_RE, "");
  const rows = new Rows(!/[\u001b\u0080-\u009f]/.test(text) && perCodePoint(text));
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const length = stringWidth(word);
    if (trim) rows.trimStart();
    let rowLength = rows.width();
    if (index !== 0) {
      if (rowLength >= columns && !trim) {
        rows.newRow();
        rowLength = 0;
      }
      if (rowLength > 0 || !trim) {
        rows.append(" ", 1);
        rowLength++;
      }
    }
    if (length > columns) {
      const remaining = columns - rowLength;
      const breaksStartingThisLine = 1 + Math.floor((length - remaining - 1) / columns);
      const breaksStartingNextLine = Math.floor((length - 1) / columns);
      if (breaksStartingNextLine < breaksStartingThisLine) rows.newRow();
      rows.breakWord(word, columns);
      continue;
    }
    if (rowLength + length > columns && rowLength > 0 && length > 0) rows.newRow();
    rows.append(word, length);
  }
  let out = rows.done();
  if (trim) out = out.map(trimSpacesRight);
  return reopenAcrossBreaks(out.join("\n"));
}

// SGR codes and OSC 8 links as the renderer writes them: whole, with no space inside.
// eslint-disable-next-line no-control-regex
const WHOLE_ESCAPES_RE = /\u001b\[[0-9;]*m|\u001b\]8;;[^\u0000-\u0020\u007f-\u009f]*\u0007/g;

/**
 * The rows being filled; the last one kept as pieces, joined when it is read whole. In a line
 * whose escapes are all whole (none cut by a space, no other escape character) and whose every
 * other code point is a cluster of its own (graphemes.ts), a row is as wide as its pieces added up, so its width is
 * carried along; in any other line it is measured again, as wrap-ansi does, for every word.
 */
class Rows {
  private readonly full: string[] = [];
  private pieces: string[] = [];
  private cells: number | undefined = 0;

  constructor(private readonly additive: boolean) {}

  /** The last row as one string. */
  private last(): string {
    if (this.pieces.length > 1) this.pieces = [this.pieces.join("")];
    return this.pieces[0] ?? "";
  }

  width(): number {
    this.cells ??= stringWidth(this.last());
    return this.cells;
  }

  trimStart(): void {
    const row = this.last();
    const trimmed = row.trimStart();
    if (trimmed !== row) {
      this.pieces = [trimmed];
      this.cells = undefined;
    }
  }

  newRow(): void {
    this.full.push(this.last());
    this.pieces = [];
    this.cells = 0;
  }

  /** Appends `text`, `cells` wide. */
  append(text: string, cells: number): void {
    if (text === "") return;
    this.pieces.push(text);
    this.cells = this.additive && this.cells !== undefined ? this.cells + cells : undefined;
  }

  /** wrap-ansi's `wrapWord`: a word longer than the row, broken by cluster; escapes take no cells. */
  breakWord(word: string, columns: number): void {
    // In an additive line every code point is a cluster of its own.
    const characters = this.additive ? Array.from(word) : Array.from(graphemes(word), (s) => s.segment);
    let cut = false; // an escape cut across rows (it would show): measure the row again
    let insideEscape = false;
    let insideLink = false;
    let visible = stringWidth(stripAnsi(this.last()));
    for (let index = 0; index < characters.length; index++) {
      const character = characters[index]!;
      const characterLength = stringWidth(character);
      if (visible + characterLength <= columns) {
        this.pieces.push(character);
      } else {
        this.full.push(this.last());
        this.pieces = [character];
        visible = 0;
        cut ||= insideEscape || character === "\u001b" || character === "\u009b";
      }
      if (isEscape(character.charCodeAt(0)) && character.length === 1) {
        insideEscape = true;
        insideLink = characters.slice(index + 1, index + 1 + LINK.length).join("") === LINK;
      }
      if (insideEscape) {
        if (insideLink) {
          if (character === "\u0007") insideEscape = insideLink = false;
        } else if (character === "m") {
          insideEscape = false;
        }
        continue;
      }
      visible += characterLength;
      if (visible === columns && index < characters.length - 1) {
        this.full.push(this.last());
        this.pieces = [];
        visible = 0;
      }
    }
    // A last row of nothing but escapes goes back onto the row before.
    const tail = this.last();
    if (!visible && tail.length > 0 && this.full.length > 0) {
      this.pieces = [this.full.pop()! + tail];
      cut = true;
    }
    this.cells = this.additive && !cut ? visible : undefined;
  }

  done(): string[] {
    this.full.push(this.last());
    return this.full;
  }
}

/** wrap-ansi's right trim: spaces after the last word of visible width go (escapes between them are kept). */
function trimSpacesRight(row: string): string {
  const space = row.lastIndexOf(" ");
  if (space === -1 || stringWidth(row.slice(space + 1)) > 0) return row;
  const words = row.split(" ");
  let last = words.length;
  while (last > 0 && stringWidth(words[last - 1]) === 0) last--;
  if (last === words.length) return row;
  return words.slice(0, last).join(" ") + words.slice(last).join("");
}

// The code an escape starts (SGR with one number, or an OSC 8 link up to its BEL), as wrap-ansi
// reads it: the first such code at or after the escape, wherever it is.
const CODE_RE = /(?:\[(?<code>\d+)m|\]8;;(?<uri>.*)\u0007)/g;

/**
 * wrap-ansi's last pass: before each line break, the open colour and link are closed; after it
 * (unless another break follows), they are opened again. The state is that of the last escape
 * before the break, read as wrap-ansi reads it.
 */
function reopenAcrossBreaks(text: string): string {
  if (!text.includes("\n")) return text;
  const parts: string[] = [];
  let from = 0;
  let code: number | undefined;
  let url: string | undefined;
  let found: RegExpExecArray | null | undefined;
  let foundFrom = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (isEscape(unit)) {
      // One search serves every escape up to the code it found.
      if (found === undefined || (found !== null && found.index < i) || (found === null && foundFrom > i)) {
        CODE_RE.lastIndex = i;
        found = CODE_RE.exec(text);
        foundFrom = i;
      }
      const groups = found?.groups;
      if (groups?.["code"] !== undefined) {
        const n = Number.parseFloat(groups["code"]);
        code = n === END_CODE ? undefined : n;
      } else if (groups?.["uri"] !== undefined) {
        url = groups["uri"].length === 0 ? undefined : groups["uri"];
      }
    } else if (unit === 0x0a) {
      const close = code === undefined ? undefined : CLOSE_OF.get(code);
      if (i > 0) {
        // Closed before the break.
        parts.push(text.slice(from, i));
        from = i;
        if (url) parts.push(`\u001b${LINK}\u0007`);
        if (code && close) parts.push(`\u001b[${close}m`);
      }
      if (text.charCodeAt(i + 1) !== 0x0a) {
        // Opened again after it.
        parts.push(text.slice(from, i + 1));
        from = i + 1;
        if (code && close) parts.push(`\u001b[${code}m`);
        if (url) parts.push(`\u001b${LINK}${url}\u0007`);
      }
    }
  }
  parts.push(text.slice(from));
  return parts.join("");
}
