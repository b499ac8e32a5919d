/**
 * The server's lossless WebP encoder, read back by libwebp (the client's WebP decoder): every
 * pixel exactly as given, alpha included, at sizes that are not multiples of anything, for flat
 * images (codes of one symbol, no bits per pixel) and noisy ones (full Huffman codes).
 */
import { describe, expect, it } from "vitest";
import { decodeImage } from "../../src/render/images/decode.js";
import { encodeWebp } from "../../src/server/webp-lossless.js";

const noise = (i: number) => (((i * 2654435761) >>> 0) >>> 13) & 255;

describe("the server's WebP encoder", () => {
  for (const [name, w, h, pixel] of [
    ["noise with alpha", 37, 23, (i: number) => [noise(i), noise(i + 7), noise(i + 13), noise(i + 29)]],
    ["a gradient", 300, 7, (i: number) => [i % 300, 100, 255 - (i % 256), 255]],
    ["one colour", 513, 2, () => [12, 200, 90, 255]],
    ["one pixel", 1, 1, () => [1, 2, 3, 4]],
  ] as const) {
    it(`${name}: decoded by libwebp exactly`, async () => {
      const rgba = new Uint8Array(w * h * 4);
      for (let i = 0; i < w * h; i++) rgba.set(pixel(i), i * 4);
      const file = encodeWebp(w, h, rgba);
      const out = await decodeImage(file);
      expect([out.source.kind, out.width, out.height]).toEqual(["webp", w, h]);
      expect(Buffer.from(out.data).equals(Buffer.from(rgba))).toBe(true);
      if (name === "one colour") expect(file.length).toBeLessThan(100);
    });
  }
});
