/**
 * A large JSON answer parsed a part at a time from its bytes: each member of the top-level
 * object on its own, and a long array a run of elements at a time. The answer is never one
 * string (a register of a big organization is 10 MB of bytes, twice that as a string once a
 * single character outside ASCII makes the whole of it two bytes a character) and never one
 * parsed tree beside that string; each part's text is dropped once parsed. The result is what
 * `JSON.parse` of the whole would give; anything the splitter does not follow is handed to
 * `JSON.parse` whole, which then succeeds or fails as it would have.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Arrays longer than this many bytes are parsed in runs of elements of about this size. */
export const ARRAY_RUN_BYTES = 64 * 1024;

class Unfollowed extends Error {}

function isSpace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(b: Buffer, i: number): number {
  while (isSpace(b[i])) i++;
  return i;
}

/** Just past the string whose opening quote is at `i`. */
function skipString(b: Buffer, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = b.indexOf(QUOTE, from);
    if (q < 0) throw new Unfollowed();
    let slashes = 0;
    while (b[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Just past the value starting at `i` (no space before it). */
function skipValue(b: Buffer, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    let j = i;
    while (j < b.length && b[j] !== COMMA && b[j] !== CLOSE_OBJECT && b[j] !== CLOSE_ARRAY && !isSpace(b[j])) j++;
    if (j === i) throw new Unfollowed();
    return j;
  }
  let depth = 0;
  for (let j = i; j < b.length; j++) {
    const x = b[j];
    if (x === QUOTE) j = skipString(b, j) - 1;
    else if (x === OPEN_OBJECT || x === OPEN_ARRAY) depth++;
    else if (x === CLOSE_OBJECT || x === CLOSE_ARRAY) {
      if (--depth === 0) return j + 1;
    }
  }
  throw new Unfollowed();
}

const SEPARATOR = Buffer.from("},{");

/**
 * The array whose `[` is at `start`, a run of elements at a time; returns just past its `]`.
 * Its first run is read element by element (a short array ends there); past that, runs are cut
 * where one object ends and the next begins (`},{`, found natively). A cut inside a string or a
 * nested array leaves its run unparsable, never wrongly parsed (an unclosed string or bracket),
 * and the rest is then read element by element.
 */
function* arrayRuns(b: Buffer, start: number, each?: (element: unknown) => unknown): Generator<unknown[], number> {
  const take = (from: number, to: number): unknown[] => {
    const run = JSON.parse(`[${b.toString("utf8", from, to)}]`) as unknown[];
    return each ? run.map(each) : run;
  };
  let i = skipSpace(b, start + 1);
  if (b[i] === CLOSE_ARRAY) return i + 1;
  let runStart = i;
  let quick = false;
  for (;;) {
    if (quick) {
      const cut = b.indexOf(SEPARATOR, runStart + ARRAY_RUN_BYTES);
      let run: unknown[] | undefined;
      if (cut >= 0) {
        try {
          run = take(runStart, cut + 1);
        } catch {
          // not a cut between elements: go on element by element
        }
      }
      if (run) {
        runStart = i = cut + 2;
        yield run;
        continue;
      }
      quick = false;
    }
    const after = skipValue(b, i);
    i = skipSpace(b, after);
    const last = b[i] === CLOSE_ARRAY;
    if (!last && b[i] !== COMMA) throw new Unfollowed();
    if (last || after - runStart >= ARRAY_RUN_BYTES) {
      const run = take(runStart, after);
      runStart = skipSpace(b, i + 1);
      quick = true;
      yield run;
    }
    if (last) return i + 1;
    i = skipSpace(b, i + 1);
  }
}

function parseArray(b: Buffer, start: number, each?: (element: unknown) => unknown): [unknown[], number] {
  const out: unknown[] = [];
  const runs = arrayRuns(b, start, each);
  for (;;) {
    const next = runs.next();
    if (next.done) return [out, next.value];
    for (const x of next.value) out.push(x);
  }
}

function parseObject(b: Buffer, elements: ElementForms): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let i = skipSpace(b, 0);
  if (b[i] !== OPEN_OBJECT) throw new Unfollowed();
  i = skipSpace(b, i + 1);
  if (b[i] === CLOSE_OBJECT) i++;
  else {
    for (;;) {
      if (b[i] !== QUOTE) throw new Unfollowed();
      const keyEnd = skipString(b, i);
      const key = JSON.parse(b.toString("utf8", i, keyEnd)) as string;
      i = skipSpace(b, keyEnd);
      if (b[i] !== COLON) throw new Unfollowed();
      const start = skipSpace(b, i + 1);
      let end: number;
      let value: unknown;
      if (b[start] === OPEN_ARRAY) [value, end] = parseArray(b, start, Object.hasOwn(elements, key) ? elements[key] : undefined);
      else value = JSON.parse(b.toString("utf8", start, (end = skipValue(b, start))));
      // As JSON.parse: a member named __proto__ is a member, not the prototype.
      if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      i = skipSpace(b, end);
      if (b[i] === CLOSE_OBJECT) {
        i++;
        break;
      }
      if (b[i] !== COMMA) throw new Unfollowed();
      i = skipSpace(b, i + 1);
    }
  }
  if (skipSpace(b, i) !== b.length) throw new Unfollowed();
  return out;
}

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
    if (bytes[start] === OPEN_OBJECT || bytes[start] === OPEN_ARRAY) continue;
    try {
      found[key] = JSON.parse(bytes.toString("utf8", start, skipValue(bytes, start)));
    } catch {
      // not a value where the name says: left to the parse
    }
  }
  return found;
}

/** Per member of the top-level object holding an array: the form each element is kept in, as it is parsed. */
export type ElementForms = Record<string, (element: unknown) => unknown>;

/**
 * The JSON in `bytes` (UTF-8), parsed a part at a time when it is an object; throws as JSON.parse
 * does. The elements of the arrays named in `elements` are turned into their form as each run is
 * parsed (on the rare answer the splitter does not follow, they come as parsed).
 */
export function parseJsonInParts(bytes: Buffer, elements: ElementForms = {}): unknown {
  try {
    return parseObject(bytes, elements);
  } catch (err) {
    if (!(err instanceof Unfollowed) && !(err instanceof SyntaxError)) throw err;
    return JSON.parse(bytes.toString("utf8"));
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
    try {
      yield* arrayRuns(this.bytes, this.start);
    } catch (err) {
      if (err instanceof Unfollowed) throw new SyntaxError("the answer is not well-formed JSON");
      throw err;
    }
  }
}

/**
 * An answer parsed up to its member `key`, when that member is an array and the members before it
 * say `"result": "success"`: the array is a DeferredArray, and the members after it are not read.
 * Any other answer is parsed whole (as `parseJsonInParts`).
 */
export function parseDeferring(bytes: Buffer, key: string): unknown {
  try {
    const out: Record<string, unknown> = {};
    let i = skipSpace(bytes, 0);
    if (bytes[i] !== OPEN_OBJECT) throw new Unfollowed();
    i = skipSpace(bytes, i + 1);
    while (bytes[i] === QUOTE) {
      const keyEnd = skipString(bytes, i);
      const name = JSON.parse(bytes.toString("utf8", i, keyEnd)) as string;
      i = skipSpace(bytes, keyEnd);
      if (bytes[i] !== COLON) throw new Unfollowed();
      const start = skipSpace(bytes, i + 1);
      if (name === key && bytes[start] === OPEN_ARRAY && out["result"] === "success") {
        out[name] = new DeferredArray(bytes, start);
        return out;
      }
      if (name === "__proto__") break; // rare: the whole parse below keeps it as JSON.parse does
      const end = skipValue(bytes, start);
      out[name] = JSON.parse(bytes.toString("utf8", start, end));
      i = skipSpace(bytes, end);
      if (bytes[i] !== COMMA) break;
      i = skipSpace(bytes, i + 1);
    }
  } catch (err) {
    if (!(err instanceof Unfollowed) && !(err instanceof SyntaxError)) throw err;
  }
  return parseJsonInParts(bytes);
}
