/**
 * Reading an answer's body: decoded as it streams when the server compressed it
 * (Content-Encoding gzip, deflate or br, several applied in order), as it is otherwise.
 * node:zlib loads only when an answer is compressed.
 */
import type { Readable } from "node:stream";
import { growingCollector } from "./mapped-buffer.js";

/** What the client asks for: only what `readBody` decodes. */
export const ACCEPT_ENCODING = "gzip, deflate, br";

/** The encoding was not one the client asked for. */
export class UnknownEncodingError extends Error {
  readonly code = "Z_UNKNOWN_ENCODING";
  constructor(encoding: string) {
    super(`the server compressed its answer with "${encoding}", which was not asked for`);
    this.name = "UnknownEncodingError";
  }
}

/** The compressed body is not what its Content-Encoding says (corrupt or cut short). */
export class CorruptBodyError extends Error {
  readonly code = "Z_CORRUPT_BODY";
  constructor(cause: Error) {
    super(`the compressed answer could not be decoded: ${cause.message}`, { cause });
    this.name = "CorruptBodyError";
  }
}

function encodings(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(",") : (header ?? "");
  return text
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "" && s !== "identity");
}

type Body = Readable & { text(): Promise<string>; arrayBuffer?(): Promise<ArrayBuffer> };

/** What an answer may cost before it is abandoned. */
export interface BodyLimits {
  /** Bytes, compressed and decoded alike. */
  maxBytes: number;
  /** An answer that brings fewer than `stallBytes` in any `stallMs` is abandoned (a server that trickles). */
  stallBytes: number;
  stallMs: number;
}

/** Any answer: far more than the register of a big organization (13 MB for 20,000 people). */
export const DEFAULT_LIMITS: BodyLimits = { maxBytes: 64 * 1024 * 1024, stallBytes: 1024, stallMs: 15_000 };

/** The answer is larger than the client takes (a compression bomb, a server gone wrong): it was cut off. */
export class AnswerTooLargeError extends Error {
  readonly code = "Z_TOO_LARGE";
  constructor(readonly maxBytes: number, compressed: boolean) {
    super(`answer over ${Math.round(maxBytes / 1048576)} MiB${compressed ? " once decompressed" : ""}, cut off`);
    this.name = "AnswerTooLargeError";
  }
}

/** The answer came too slowly to be of use (less than `stallBytes` in `stallMs`): abandoned. */
export class StalledAnswerError extends Error {
  readonly code = "Z_STALLED";
  constructor(limits: BodyLimits) {
    super(`answer too slow (under ${limits.stallBytes} bytes in ${limits.stallMs / 1000} s), abandoned`);
    this.name = "StalledAnswerError";
  }
}

/** The body as text; a compressed body that cannot be decoded throws the decoder's error (code Z_…). */
export async function readBody(body: Body, contentEncoding: string | string[] | undefined, limits = DEFAULT_LIMITS): Promise<string> {
  return (await readBodyBytes(body, contentEncoding, limits)).toString("utf8");
}

/** Where a body's decoded bytes go as they arrive, and what it makes of them once all are in. */
export interface BodySink<T> {
  add(chunk: Buffer): void;
  result(): T;
}

/**
 * The body as bytes, decoded as `readBody` does; within `limits` or thrown away (AnswerTooLargeError,
 * StalledAnswerError). With `head`, its first bytes are shown to that as they arrive.
 */
export function readBodyBytes(body: Body, contentEncoding: string | string[] | undefined, limits = DEFAULT_LIMITS, head?: BodyHead): Promise<Buffer> {
  return readBodyInto(body, contentEncoding, head ? head.feeding(growingCollector()) : growingCollector(), limits);
}

/** How much of a body's beginning a look at it is given, at most. */
export const HEAD_LOOK_BYTES = 64 * 1024;

/**
 * The first decoded bytes of a body (up to HEAD_LOOK_BYTES) as they arrive, for a look at the first
 * members of a large answer before the rest is in (the register's queue, for its first events poll).
 * The look may be given before the body comes or while it does (its request was sent ahead of the
 * code that looks): it is shown the bytes so far at once, then again after each piece, until it
 * answers true (it has seen what it wanted), the limit is reached or it throws.
 */
export class BodyHead {
  private head = Buffer.alloc(0);
  private look: ((head: Buffer) => boolean) | undefined;
  /** No more looking: the look is done, or the bytes reached the limit and were shown. */
  private over = false;

  /** A sink that hands each piece to `into` and keeps the beginning here. */
  feeding<T>(into: BodySink<T>): BodySink<T> {
    return {
      add: (chunk) => {
        into.add(chunk);
        if (this.over || this.head.length >= HEAD_LOOK_BYTES) return;
        this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_LOOK_BYTES - this.head.length)]);
        this.show();
      },
      result: () => into.result(),
    };
  }

  watch(look: (head: Buffer) => boolean): void {
    if (this.over) return;
    this.look = look;
    this.show();
  }

  private show(): void {
    if (!this.look || this.head.length === 0) return;
    let done: boolean;
    try {
      done = this.look(this.head);
    } catch {
      done = true; // a look that fails is not asked again; the parse decides
    }
    if (done || this.head.length >= HEAD_LOOK_BYTES) {
      this.over = true;
      this.look = undefined;
      this.head = Buffer.alloc(0);
    }
  }
}

/** The body's decoded bytes handed to `into` as they arrive, within `limits` as `readBodyBytes`; then `into`'s result. */
export async function readBodyInto<T>(body: Body, contentEncoding: string | string[] | undefined, into: BodySink<T>, limits = DEFAULT_LIMITS): Promise<T> {
  const applied = encodings(contentEncoding);
  const unknown = applied.find((name) => !["gzip", "x-gzip", "deflate", "br"].includes(name));
  if (unknown) {
    body.once("error", () => undefined); // the abort it reports is ours
    body.destroy();
    throw new UnknownEncodingError(unknown);
  }
  if (applied.length === 0) return gather(body, into, limits);
  const zlib = await import("node:zlib");
  const { pipeline } = await import("node:stream/promises");
  const { Writable } = await import("node:stream");
  const decoders = applied.reverse().map((name) =>
    name === "deflate" ? zlib.createInflate() : name === "br" ? zlib.createBrotliDecompress() : zlib.createGunzip(),
  );
  // Decoded as it arrives: by the last byte only its own piece is left to decode (a 2.7 MB
  // register took ~15 ms to decode once whole), and the compressed body is never kept.
  let decoded = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      decoded += chunk.length;
      if (decoded > limits.maxBytes) return done(new AnswerTooLargeError(limits.maxBytes, true));
      into.add(chunk);
      done();
    },
  });
  let broken: unknown;
  for (const decoder of decoders) decoder.once("error", (err) => (broken ??= err));
  try {
    await pipeline([body, watched(body, limits) as unknown as NodeJS.ReadWriteStream, ...decoders, sink]);
  } catch (err) {
    if (err instanceof AnswerTooLargeError || err instanceof StalledAnswerError) throw err; // the decoders are ended with it too
    if (err === broken) throw new CorruptBodyError(err as Error);
    throw err;
  }
  return into.result();
}

/**
 * The compressed bytes on their way to the decoders, within the limits: more than `maxBytes`
 * ends the answer (AnswerTooLargeError), fewer than `stallBytes` in `stallMs` too (StalledAnswerError).
 */
function watched(stream: Readable, limits: BodyLimits) {
  return async function* (source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    let received = 0;
    let checked = 0;
    let stalled = false;
    const watch = setInterval(() => {
      if (received - checked < limits.stallBytes) {
        stalled = true;
        stream.destroy(new StalledAnswerError(limits));
      }
      checked = received;
    }, limits.stallMs);
    watch.unref();
    try {
      for await (const chunk of source) {
        received += chunk.length;
        if (received > limits.maxBytes) throw new AnswerTooLargeError(limits.maxBytes, false);
        yield chunk;
      }
    } catch (err) {
      throw stalled ? new StalledAnswerError(limits) : err;
    } finally {
      clearInterval(watch);
    }
  };
}

/** A stream's bytes handed to `into`, within the limits. */
async function gather<T>(stream: Readable, into: BodySink<T>, limits: BodyLimits): Promise<T> {
  let received = 0;
  let checked = 0;
  const watch = setInterval(() => {
    if (received - checked < limits.stallBytes) stream.destroy(new StalledAnswerError(limits));
    checked = received;
  }, limits.stallMs);
  watch.unref();
  try {
    for await (const chunk of stream) {
      received += (chunk as Buffer).length;
      if (received > limits.maxBytes) {
        stream.once("error", () => undefined);
        stream.destroy();
        throw new AnswerTooLargeError(limits.maxBytes, false);
      }
      into.add(chunk as Buffer);
    }
  } finally {
    clearInterval(watch);
  }
  return into.result();
}

/** An answer's JSON: undefined when empty; bytes through `parseBytes` when given. Throws as JSON.parse does. */
export function parseReply(body: string | Buffer, parseBytes?: (bytes: Buffer) => unknown): unknown {
  if (body.length === 0) return undefined;
  if (typeof body === "string") return JSON.parse(body);
  return parseBytes ? parseBytes(body) : JSON.parse(body.toString("utf8"));
}
