/**
 * An answer's body read as bytes: gzip decoded into one buffer of the size its trailer says,
 * and the same bytes whatever the trailer claims; other encodings and plain bodies unchanged.
 */
import { Readable } from "node:stream";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { collector, CorruptBodyError, readBody, readBodyBytes } from "../../src/api/body.js";

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

  it("the collector fills one buffer while the chunks fit, and joins chunks past it", () => {
    const fits = collector(6);
    fits.add(Buffer.from("abc"));
    fits.add(Buffer.from("def"));
    expect(fits.result().toString()).toBe("abcdef");
    const over = collector(4);
    over.add(Buffer.from("abc"));
    over.add(Buffer.from("def"));
    expect(over.result().toString()).toBe("abcdef");
    const short = collector(100_000);
    short.add(Buffer.from("xy"));
    expect(short.result().toString()).toBe("xy");
    expect(short.result().buffer.byteLength).toBeLessThan(100_000);
    const none = collector(0);
    none.add(Buffer.from("z"));
    expect(none.result().toString()).toBe("z");
  });
});
