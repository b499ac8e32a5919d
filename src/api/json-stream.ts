/**
 * A large JSON answer parsed while it arrives. Each member of the top-level object is parsed on
 * its own once its bytes are in, and a long array a run of elements at a time, each element
 * turned into the form it is kept in as its run is parsed: the answer is never held whole, as
 * bytes, as a string or as a parsed tree. Only the bytes of the part not yet complete are kept
 * (a run of an array is about ARRAY_RUN_BYTES). The result is what `JSON.parse` of the whole
 * would give; a body that is not JSON fails with a SyntaxError as it would.
 */
import { CLOSE_ARRAY, CLOSE_OBJECT, COMMA, MORE, NotJson, OPEN_ARRAY, OPEN_OBJECT, memberAt, parseSlice, skipSpace, valueEnd } from "./json-scan.js";
import { growingCollector, largeBuffer } from "./mapped-buffer.js";

/** Arrays are parsed in runs of elements of about this many bytes. */
export const ARRAY_RUN_BYTES = 64 * 1024;

const SEPARATOR = Buffer.from("},{");

/** Per member of the top-level object holding an array: the form each element is kept in, as it is parsed. */
export type ElementForms = Record<string, (element: unknown) => unknown>;

/**
 * One array's elements, a run at a time, from bytes that may still be arriving. The first run
 * is read element by element (a short array ends there); past that, runs are cut where one
 * object ends and the next begins (`},{`, found natively). A cut inside a string or a nested
 * value leaves its run unparsable, never wrongly parsed (an unclosed string or bracket), and
 * the run is then read element by element.
 */
export class ArrayRuns {
  private runStart: number;
  private scanAt: number;
  private quick = false;
  private first = true;
  /** Just past the array's `]`, once it is read. */
  end: number | undefined;

  /** The array whose `[` is at `open`. */
  constructor(open: number) {
    this.runStart = this.scanAt = open + 1;
  }

  /** The first byte still needed. */
  get needed(): number {
    return this.end ?? this.runStart;
  }

  /** The bytes before `n` were dropped: positions move down by `n`. */
  shift(n: number): void {
    this.runStart -= n;
    this.scanAt -= n;
    if (this.end !== undefined) this.end -= n;
  }

  /**
   * The next run of elements, parsed; undefined once the array has ended; MORE when the bytes
   * in `b` do not complete a run yet. `whole`: `b` is all there is (then never MORE).
   */
  next(b: Buffer, whole: boolean): unknown[] | typeof MORE | undefined {
    if (this.end !== undefined) return undefined;
    for (;;) {
      if (this.quick) {
        const cut = b.indexOf(SEPARATOR, this.runStart + ARRAY_RUN_BYTES);
        // No cut yet: wait for more, unless the array holds no objects to cut between.
        if (cut < 0 && !whole && b.length - this.runStart < 4 * ARRAY_RUN_BYTES) return MORE;
        const run = cut < 0 ? undefined : parseRunOrNot(b, this.runStart, cut + 1);
        if (run) {
          this.runStart = this.scanAt = cut + 2;
          return run;
        }
        this.quick = false;
      }
      const i = skipSpace(b, this.scanAt);
      if (i === b.length) return cutShort(whole, i);
      if (this.first && b[i] === CLOSE_ARRAY) {
        this.end = i + 1;
        return [];
      }
      const after = valueEnd(b, i, whole);
      if (after === MORE) return cutShort(whole, b.length);
      const j = skipSpace(b, after);
      if (j === b.length) return cutShort(whole, j);
      this.first = false;
      if (b[j] === CLOSE_ARRAY) {
        this.end = j + 1;
        return parseRun(b, this.runStart, after);
      }
      if (b[j] !== COMMA) throw new NotJson(j);
      this.scanAt = j + 1;
      if (after - this.runStart >= ARRAY_RUN_BYTES) {
        const run = parseRun(b, this.runStart, after);
        this.runStart = this.scanAt;
        this.quick = true;
        return run;
      }
    }
  }
}

function cutShort(whole: boolean, at: number): typeof MORE {
  if (whole) throw new NotJson(at);
  return MORE;
}

function parseRun(b: Buffer, from: number, to: number): unknown[] {
  return JSON.parse(`[${b.toString("utf8", from, to)}]`) as unknown[];
}

function parseRunOrNot(b: Buffer, from: number, to: number): unknown[] | undefined {
  try {
    return parseRun(b, from, to);
  } catch {
    return undefined; // not a cut between elements
  }
}

type State = "start" | "first" | "member" | "next" | "array" | "after";

/**
 * A JSON answer taken as its bytes arrive (`add`), parsed in parts as they complete; `result()`
 * once all are in. An answer whose top level is not an object is gathered and parsed whole.
 */
export class JsonInParts {
  private store: Buffer = Buffer.alloc(0);
  /** `store` is the caller's chunk: never written to. */
  private borrowed = false;
  private from = 0;
  private to = 0;
  private received = 0;
  private state: State = "start";
  private readonly out: Record<string, unknown> = {};
  private array: { key: string; items: unknown[]; runs: ArrayRuns; form?: (element: unknown) => unknown } | undefined;
  private whole: ReturnType<typeof growingCollector> | undefined;
  private failure: SyntaxError | undefined;
  /** A member's value is incomplete: it is looked at again once this many bytes are in. */
  private waitUntil = 0;

  /** `elements`: the arrays whose elements are turned into their form as each run is parsed. */
  constructor(private readonly elements: ElementForms = {}) {}

  add(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.whole) return this.whole.add(chunk);
    if (this.failure || chunk.length === 0) return;
    this.append(chunk);
    if (this.to >= this.waitUntil) this.advance(false);
  }

  /** How many bytes are kept for parts not yet complete (the storage they sit in). */
  get keptBytes(): number {
    return this.store.length;
  }

  /** The parsed answer: undefined when the body was empty; throws a SyntaxError when it is not JSON. */
  result(): unknown {
    if (this.received === 0) return undefined;
    if (this.whole) return JSON.parse(this.whole.result().toString("utf8"));
    if (!this.failure) this.advance(true);
    if (this.failure) throw this.failure;
    return this.out;
  }

  private advance(whole: boolean): void {
    try {
      this.step(this.store.subarray(0, this.to), whole);
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
      this.failure = err;
      this.store = Buffer.alloc(0);
      this.from = this.to = 0;
    }
  }

  private step(b: Buffer, whole: boolean): void {
    for (;;) {
      if (this.state === "array") {
        const a = this.array!;
        const run = a.runs.next(b, whole);
        this.from = a.runs.needed;
        if (run === MORE) return;
        if (run === undefined) {
          this.set(a.key, a.items);
          this.array = undefined;
          this.state = "next";
          continue;
        }
        for (const x of run) a.items.push(a.form ? a.form(x) : x);
        continue;
      }
      const i = skipSpace(b, this.from);
      if (i === b.length) {
        if (whole && this.state !== "after") throw new NotJson(i);
        return;
      }
      if (this.state === "first") {
        if (b[i] === CLOSE_OBJECT) {
          this.from = i + 1;
          this.state = "after";
          continue;
        }
        this.state = "member";
      }
      if (this.state === "start") {
        if (b[i] !== OPEN_OBJECT) return this.gatherWhole();
        this.from = i + 1;
        this.state = "first";
      } else if (this.state === "member") {
        if (!this.member(b, i, whole)) {
          if (whole) throw new NotJson(b.length);
          this.waitUntil = this.to + (this.to - this.from);
          return;
        }
      } else if (this.state === "next" && (b[i] === COMMA || b[i] === CLOSE_OBJECT)) {
        this.from = i + 1;
        this.state = b[i] === COMMA ? "member" : "after";
      } else throw new NotJson(i);
    }
  }

  /** Reads the member starting at `i`; false when its bytes are not all in yet. */
  private member(b: Buffer, i: number, whole: boolean): boolean {
    const m = memberAt(b, i);
    if (m === MORE) return false;
    const { name: key, valueAt: start } = m;
    if (b[start] === OPEN_ARRAY && Object.hasOwn(this.elements, key)) {
      this.array = { key, items: [], runs: new ArrayRuns(start), form: this.elements[key] };
      this.from = start;
      this.state = "array";
      return true;
    }
    const end = valueEnd(b, start, whole);
    if (end === MORE) return false;
    this.set(key, parseSlice(b, start, end));
    this.from = end;
    this.state = "next";
    return true;
  }

  private set(key: string, value: unknown): void {
    // As JSON.parse: a member named __proto__ is a member, not the prototype.
    if (key === "__proto__") Object.defineProperty(this.out, key, { value, enumerable: true, writable: true, configurable: true });
    else this.out[key] = value;
  }

  /** The top level is not an object: the bytes are gathered and parsed whole at the end. */
  private gatherWhole(): void {
    this.whole = growingCollector();
    this.whole.add(this.store.subarray(this.from, this.to));
    this.store = Buffer.alloc(0);
    this.from = this.to = 0;
  }

  /** Appends `chunk` to the bytes kept, dropping those already parsed. */
  private append(chunk: Buffer): void {
    const pending = this.to - this.from;
    if (pending === 0) {
      // Nothing kept: the chunk itself is read, and only what is left of it is copied later.
      this.shift(this.from);
      this.store = chunk;
      this.borrowed = true;
      this.to = chunk.length;
      return;
    }
    if (this.borrowed || this.to + chunk.length > this.store.length) {
      const need = pending + chunk.length;
      const into = !this.borrowed && need <= this.store.length ? this.store : largeBuffer(Math.max(2 * need, ARRAY_RUN_BYTES));
      this.store.copy(into, 0, this.from, this.to);
      this.shift(this.from);
      this.store = into;
      this.borrowed = false;
    }
    this.to += chunk.copy(this.store, this.to);
  }

  private shift(n: number): void {
    if (n === 0) return;
    this.from -= n;
    this.to -= n;
    this.waitUntil = Math.max(0, this.waitUntil - n);
    this.array?.runs.shift(n);
  }
}

/** The JSON in `bytes` (UTF-8), parsed in parts when it is an object; throws as JSON.parse does. */
export function parseJsonInParts(bytes: Buffer, elements: ElementForms = {}): unknown {
  if (bytes.length === 0) throw new NotJson(0);
  const parts = new JsonInParts(elements);
  parts.add(bytes);
  return parts.result();
}
