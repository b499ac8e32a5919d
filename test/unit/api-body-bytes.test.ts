/**
 * An answer's body read as bytes: a compressed one decoded as it arrives into one buffer that
 * grows, the same bytes whatever the gzip trailer claims; other encodings and plain bodies unchanged.
 */
import { Readable } from "node:stream";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AnswerTooLargeError, BodyHead, CorruptBodyError, DEFAULT_LIMITS, HEAD_LOOK_BYTES, readBody, readBodyBytes, StalledAnswerError } from "../../src/api/body.js";
import { growingCollector } from "../../src/api/mapped-buffer.js";
import { gzipBomb } from "../fixtures/hostile-content.js";

const text = JSON.stringify({ result: "success", users: Array.from({ length: 4000 }, (_, i) => ({ id: i, name: `Person ${i} — é` })) });
const plain = Buffer.from(text);

function body(bytes: Buffer) {
  const r = Readable.from([bytes.subarray(0, 100), bytes.subarray(100)]);
  return Object.assign(r, {
    text: async () => bytes.toString("utf8"),
    arrayBuffer: async () => {
      const parts: Buffer[] = [];
      for await (const c of r) parts.push(c as Buffer);
      const all = Buffer.concat(parts);
      return all.buffer.slice(all.byteOffset, all.byteOffset + all.length) as ArrayBuffer;
    },
  });
}

function withTrailer(gz: Buffer, size: number): Buffer {
  const copy = Buffer.from(gz);
  copy.writeUInt32LE(size >>> 0, copy.length - 4);
  return copy;
}

describe("bodies read as bytes", () => {
  it("decodes gzip, deflate, br and plain bodies to the same bytes", async () => {
    expect((await readBodyBytes(body(gzipSync(plain)), "gzip")).equals(plain)).toBe(true);
    expect((await readBodyBytes(body(deflateSync(plain)), "deflate")).equals(plain)).toBe(true);
    expect((await readBodyBytes(body(brotliCompressSync(plain)), "br")).equals(plain)).toBe(true);
    expect((await readBodyBytes(body(plain), undefined)).equals(plain)).toBe(true);
    expect(await readBody(body(gzipSync(plain)), "gzip")).toBe(text);
  });

  it("a body of several megabytes in 64 KiB chunks comes back byte for byte, plain and gzipped", async () => {
    const big = Buffer.concat(Array.from({ length: 40 }, () => plain)); // about 6 MB, past the mapped size
    const chunked = (bytes: Buffer) => {
      const parts: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += 65536) parts.push(bytes.subarray(at, at + 65536));
      return Object.assign(Readable.from(parts), { text: async () => bytes.toString("utf8") });
    };
    expect((await readBodyBytes(chunked(big), undefined)).equals(big)).toBe(true);
    expect((await readBodyBytes(chunked(gzipSync(big)), "gzip")).equals(big)).toBe(true);
    expect((await readBodyBytes(chunked(deflateSync(big)), "deflate")).equals(big)).toBe(true);
  });

  it("a gzip trailer that says the wrong size changes nothing in what is read", async () => {
    // The trailer's size is checked by the decoder: a wrong one is a corrupt body, as before.
    await expect(readBodyBytes(body(withTrailer(gzipSync(plain), plain.length - 10)), "gzip")).rejects.toBeInstanceOf(CorruptBodyError);
    await expect(readBodyBytes(body(withTrailer(gzipSync(plain), 10 * plain.length)), "gzip")).rejects.toBeInstanceOf(CorruptBodyError);
    // Two gzip members one after the other: the trailer gives the last one's size only.
    const twice = Buffer.concat([gzipSync(plain), gzipSync(Buffer.from("!"))]);
    expect((await readBodyBytes(body(twice), "gzip")).toString()).toBe(`${text}!`);
  });

  it("the collector gives back every byte in order, small or many megabytes, in chunks of any size", () => {
    const small = growingCollector();
    small.add(Buffer.from("abc"));
    small.add(Buffer.from("def"));
    expect(small.result().toString()).toBe("abcdef");
    const empty = growingCollector();
    expect(empty.result().length).toBe(0);
    // Past the mapped size, across several doublings, with chunks of uneven sizes.
    const big = Buffer.alloc(5_000_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7 + (i >> 13)) & 0xff;
    const many = growingCollector();
    for (let at = 0, n = 1; at < big.length; at += n, n = (n * 3 + 1) % 200_000 || 1) many.add(big.subarray(at, at + n));
    expect(many.result().equals(big)).toBe(true);
  });
});

describe("a look at a body's first bytes while it arrives", () => {
  /** A body in pieces of `size` bytes, each handed over on its own turn. */
  function pieces(bytes: Buffer, size: number) {
    return Readable.from((function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
    })());
  }

  it("is shown the decoded bytes so far after each piece until it has seen enough; the body is read whole all the same", async () => {
    const shown: number[] = [];
    const head = new BodyHead();
    head.watch((bytes) => {
      shown.push(bytes.length);
      expect(bytes.equals(plain.subarray(0, bytes.length))).toBe(true);
      return bytes.length >= 3000;
    });
    const read = await readBodyBytes(pieces(plain, 1000) as never, undefined, DEFAULT_LIMITS, head);
    expect(read.equals(plain)).toBe(true);
    expect(shown).toEqual([1000, 2000, 3000]);
  });

  it("a look given while the body arrives sees what came before it at once; a gzipped body is shown decoded", async () => {
    const head = new BodyHead();
    const gz = gzipSync(plain);
    const reading = readBodyBytes(pieces(gz, 64) as never, "gzip", DEFAULT_LIMITS, head);
    await new Promise((r) => setImmediate(r));
    const shown: string[] = [];
    head.watch((bytes) => (shown.push(bytes.toString("utf8", 0, 20)), true));
    expect((await reading).equals(plain)).toBe(true);
    expect(shown).toEqual([text.slice(0, 20)]);
  });

  it("is shown no more than the first HEAD_LOOK_BYTES, and a look that throws is not asked again", async () => {
    const big = Buffer.concat(Array.from({ length: 1 + Math.ceil((2 * HEAD_LOOK_BYTES) / plain.length) }, () => plain));
    const longest: number[] = [];
    const patient = new BodyHead();
    patient.watch((bytes) => (longest.push(bytes.length), false));
    const broken = new BodyHead();
    let asked = 0;
    broken.watch(() => {
      asked++;
      throw new Error("a look that fails");
    });
    expect((await readBodyBytes(pieces(big, 8192) as never, undefined, DEFAULT_LIMITS, patient)).equals(big)).toBe(true);
    expect(Math.max(...longest)).toBe(HEAD_LOOK_BYTES);
    expect((await readBodyBytes(pieces(big, 8192) as never, undefined, DEFAULT_LIMITS, broken)).equals(big)).toBe(true);
    expect(asked).toBe(1);
  });
});

describe("answers the client will not take", () => {
  it("a gzip answer that decompresses to more than 1 GiB is cut off at the limit", async () => {
    const bomb = gzipBomb(1100 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const err = await readBodyBytes(body(bomb), "gzip").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnswerTooLargeError);
    expect((err as Error).message).toBe("answer over 64 MiB once decompressed, cut off");
  });

  it("so is a brotli or deflate one, and a plain one, with the limit asked for", async () => {
    const limits = { ...DEFAULT_LIMITS, maxBytes: 1024 * 1024 };
    const big = Buffer.alloc(3 * 1024 * 1024, 0x20);
    for (const [packed, encoding] of [[brotliCompressSync(big), "br"], [deflateSync(big), "deflate"], [big, undefined]] as const) {
      await expect(readBodyBytes(body(packed), encoding, limits), String(encoding)).rejects.toBeInstanceOf(AnswerTooLargeError);
    }
    // At the limit exactly, it is read.
    expect((await readBodyBytes(body(gzipSync(big.subarray(0, 1024 * 1024))), "gzip", limits)).length).toBe(1024 * 1024);
  });

  it("an answer that trickles in is abandoned; a slow but steady one is read", async () => {
    const limits = { maxBytes: DEFAULT_LIMITS.maxBytes, stallBytes: 100, stallMs: 300 };
    const paced = (chunk: number, everyMs: number, total: number) =>
      Object.assign(
        Readable.from(
          (async function* () {
            for (let sent = 0; sent < total; sent += chunk) {
              await new Promise((r) => setTimeout(r, everyMs));
              yield Buffer.alloc(chunk, 0x61);
            }
          })(),
        ),
        { text: async () => "" },
      );
    const err = await readBodyBytes(paced(1, 20, 10_000), undefined, limits).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StalledAnswerError);
    expect((err as Error).message).toBe("answer too slow (under 100 bytes in 0.3 s), abandoned");
    expect((await readBodyBytes(paced(200, 50, 2000), undefined, limits)).length).toBe(2000);
    // A compressed answer is decoded as it comes: the same limits apply to its bytes on the way.
    const packed = gzipSync(Buffer.alloc(50_000, 0x62));
    const trickle = Object.assign(
      Readable.from(
        (async function* () {
          for (let at = 0; at < packed.length; at++) {
            await new Promise((r) => setTimeout(r, 20));
            yield packed.subarray(at, at + 1);
          }
        })(),
      ),
      { text: async () => "" },
    );
    const slow = await readBodyBytes(trickle, "gzip", limits).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(StalledAnswerError);
  });
});
