/**
 * Finding where JSON values end in bytes without parsing them: the few structural bytes are
 * ASCII, and inside a string a quote is escaped, so a value's extent can be found byte by byte
 * (a string's end natively). Used to cut a large answer into parts that `JSON.parse` then reads,
 * each part a whole value; the parse, not these, decides whether a part is well-formed.
 */

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** A value runs past the bytes there are: more must come (or, once they have all come, it is cut short). */
export const MORE = -1;

/** The bytes cannot be JSON here, whatever follows. */
export class NotJson extends SyntaxError {
  constructor(at: number) {
    super(`the answer is not well-formed JSON (at byte ${at})`);
  }
}

export function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function skipSpace(b: Uint8Array, i: number): number {
  while (isSpace(b[i])) i++;
  return i;
}

/** Just past the string whose opening quote is at `i`; MORE when it does not close within `b`. */
export function stringEnd(b: Buffer, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, from);
    if (q < 0) return MORE;
    let slashes = 0;
    while (b[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/**
 * Just past the value starting at `i` (no space before it); MORE when it runs past `b`. A number
 * or literal that reaches the end of `b` may go on in bytes still to come: MORE unless `whole`
 * (`b` is all there is).
 */
export function valueEnd(b: Buffer, i: number, whole: boolean): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    let j = i;
    while (j < b.length && b[j] !== COMMA && b[j] !== CLOSE_OBJECT && b[j] !== CLOSE_ARRAY && !isSpace(b[j])) j++;
    if (j === i) throw new NotJson(i);
    return j === b.length && !whole ? MORE : j;
  }
  let depth = 0;
  for (let j = i; j < b.length; j++) {
    const x = b[j];
    if (x === QUOTE) {
      const end = stringEnd(b, j);
      if (end === MORE) return MORE;
      j = end - 1;
    } else if (x === OPEN_OBJECT || x === OPEN_ARRAY) depth++;
    else if (x === CLOSE_OBJECT || x === CLOSE_ARRAY) {
      if (--depth === 0) return j + 1;
    }
  }
  return MORE;
}

/**
 * The object member whose name's opening quote should be at `i`: its name, and where its value
 * starts (space skipped); MORE when the bytes end first. Bytes that cannot be a member throw NotJson.
 */
export function memberAt(b: Buffer, i: number): { name: string; valueAt: number } | typeof MORE {
  if (b[i] !== QUOTE) throw new NotJson(i);
  const nameEnd = stringEnd(b, i);
  if (nameEnd === MORE) return MORE;
  const name = parseSlice(b, i, nameEnd) as string;
  const colon = skipSpace(b, nameEnd);
  if (colon === b.length) return MORE;
  if (b[colon] !== COLON) throw new NotJson(colon);
  const valueAt = skipSpace(b, colon + 1);
  return valueAt === b.length ? MORE : { name, valueAt };
}

/** The JSON text of bytes `from`..`to` of `b`, parsed; throws as JSON.parse does. */
export function parseSlice(b: Buffer, from: number, to: number): unknown {
  return JSON.parse(b.toString("utf8", from, to));
}
