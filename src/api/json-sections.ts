/**
 * Parts of a large JSON answer already in memory: a few scalar members found without a parse
 * (peekScalars; leadingScalars, among the first members, from the first bytes to arrive), and an
 * array left in the bytes to be parsed a run at a time (parseDeferring).
 * An answer parsed while it arrives is json-stream.ts's.
 */
import { COMMA, MORE, NotJson, OPEN_ARRAY, OPEN_OBJECT, QUOTE, memberAt, parseSlice, skipSpace, valueEnd } from "./json-scan.js";
import { ArrayRuns, parseJsonInParts } from "./json-stream.js";

/**
 * The scalar members named `keys` of a large answer, found without parsing it: a member whose
 * `"key":` occurs once in the bytes (found natively; inside a string a quote is escaped, so the
 * pattern can only be a member's name), and whose value is a number, string, boolean or null.
 * A name found twice, nested as well, or written with a space before its colon, is left out: the
 * caller then waits for the parse. Being unsure of depth, the caller checks the parsed answer.
 */
export function peekScalars(bytes: Buffer, keys: readonly string[]): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  for (const key of keys) {
    const pattern = `${JSON.stringify(key)}:`;
    const at = bytes.indexOf(pattern);
    if (at < 0 || bytes.indexOf(pattern, at + 1) >= 0) continue;
    const start = skipSpace(bytes, at + Buffer.byteLength(pattern));
    if (start === bytes.length || bytes[start] === OPEN_OBJECT || bytes[start] === OPEN_ARRAY) continue;
    try {
      const end = valueEnd(bytes, start, true);
      if (end !== MORE) found[key] = parseSlice(bytes, start, end);
    } catch {
      // not a value where the name says: left to the parse
    }
  }
  return found;
}

/**
 * The scalar members named `keys` among an object's first members, from the first bytes of it
 * to arrive: the members are read in order, at the top level only, up to the first whose value
 * is an object or an array (or up to the bytes there are). `more` says whether bytes still to
 * come could add to what was found: false once a nested value, the object's end or bytes that
 * are not JSON stop the reading. A name given twice counts as its last value, as in a parse;
 * the caller checks the parsed answer all the same.
 */
export function leadingScalars(head: Buffer, keys: readonly string[]): { found: Record<string, unknown>; more: boolean } {
  const found: Record<string, unknown> = {};
  let i = skipSpace(head, 0);
  if (i === head.length) return { found, more: true };
  if (head[i] !== OPEN_OBJECT) return { found, more: false };
  i = skipSpace(head, i + 1);
  try {
    for (;;) {
      if (i === head.length) return { found, more: true };
      const member = memberAt(head, i);
      if (member === MORE) return { found, more: true };
      const { name, valueAt } = member;
      if (head[valueAt] === OPEN_OBJECT || head[valueAt] === OPEN_ARRAY) return { found, more: false };
      const end = valueEnd(head, valueAt, false);
      if (end === MORE) return { found, more: true };
      if (keys.includes(name)) found[name] = parseSlice(head, valueAt, end);
      i = skipSpace(head, end);
      if (i === head.length) return { found, more: true };
      if (head[i] !== COMMA) return { found, more: false };
      i = skipSpace(head, i + 1);
    }
  } catch {
    // not JSON where a member should be: left to the parse
    return { found, more: false };
  }
}

/**
 * An array member of an answer, left in the answer's bytes: its elements are parsed a run at a
 * time as `runs()` is read, so that a caller can let other work in between (a batch of 100,000
 * events takes a second to parse, check and apply).
 */
export class DeferredArray {
  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
  ) {}

  /** The elements, a run of about ARRAY_RUN_BYTES at a time; a malformed array throws a SyntaxError where it breaks. */
  *runs(): Generator<unknown[], void> {
    const runs = new ArrayRuns(this.start);
    for (;;) {
      const run = runs.next(this.bytes, true);
      if (run === undefined || run === MORE) return;
      yield run;
    }
  }
}

/**
 * An answer parsed up to its member `key`, when that member is an array and the members before it
 * say `"result": "success"`: the array is a DeferredArray, and the members after it are not read.
 * Any other answer is parsed whole (as `parseJsonInParts`).
 */
export function parseDeferring(bytes: Buffer, key: string): unknown {
  const out: Record<string, unknown> = {};
  try {
    let i = skipSpace(bytes, 0);
    if (bytes[i] !== OPEN_OBJECT) throw new NotJson(i);
    i = skipSpace(bytes, i + 1);
    while (bytes[i] === QUOTE) {
      const member = memberAt(bytes, i);
      if (member === MORE) break;
      const { name, valueAt: start } = member;
      if (name === key && bytes[start] === OPEN_ARRAY && out["result"] === "success") {
        out[name] = new DeferredArray(bytes, start);
        return out;
      }
      if (name === "__proto__") break; // rare: the whole parse below keeps it as JSON.parse does
      const end = valueEnd(bytes, start, true);
      if (end === MORE) break;
      out[name] = parseSlice(bytes, start, end);
      i = skipSpace(bytes, end);
      if (bytes[i] !== COMMA) break;
      i = skipSpace(bytes, i + 1);
    }
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  return parseJsonInParts(bytes);
}
