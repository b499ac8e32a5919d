/**
 * Reading an image's header before any pixel, and the budget's verdict on
 * it: what fits is decoded row by row into the size drawn, what would not
 * (by pixels, or by what the decoder would have to hold) is refused with its
 * size named.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ImageTooLargeError, MAX_PREVIEW_PIXELS, planDecode, WORKING_BYTES } from "../../src/render/images/budget.js";
import { decodeImage } from "../../src/render/images/decode.js";
import { readImageHeader, sniff, type ImageHeader } from "../../src/render/images/header.js";
import { ImageFormatError } from "../../src/render/images/pixels.js";
import { writePng } from "../fixtures/images/png-writer.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url));

/** Just a PNG's signature and IHDR chunk, declaring any size (a few dozen bytes). */
function pngHeader(width: number, height: number, colorType = 6, interlace = 0): Buffer {
  const file = Buffer.from(writePng({ width: 1, height: 1, colorType: 6, bitDepth: 8, sample: () => [0, 0, 0, 0] }));
  file.writeUInt32BE(width, 16);
  file.writeUInt32BE(height, 20);
  file[25] = colorType;
  file[28] = interlace;
  return file;
}

/** A lossy WebP's VP8 chunk inside a VP8X container that declares `width`×`height` (1-based sizes stored minus one). */
function vp8x(width: number, height: number, animated = false): Buffer {
  const lossy = fixture("lossy.webp");
  const vp8 = lossy.subarray(12);
  const x = Buffer.alloc(18);
  x.write("VP8X", 0, "latin1");
  x.writeUInt32LE(10, 4);
  x[8] = animated ? 0x02 : 0;
  x.writeUIntLE(width - 1, 12, 3);
  x.writeUIntLE(height - 1, 15, 3);
  const body = Buffer.concat([Buffer.from("WEBP"), x, vp8]);
  const riff = Buffer.alloc(8);
  riff.write("RIFF", 0, "latin1");
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

describe("the header, read before any pixel", () => {
  it("PNG IHDR, JPEG SOFn (past other segments), GIF logical screen, WebP VP8, VP8L and VP8X", () => {
    expect(readImageHeader(pngHeader(6000, 6000))).toMatchObject({ kind: "png", width: 6000, height: 6000, colorType: 6, bitDepth: 8, interlaced: false });
    expect(readImageHeader(fixture("progressive.jpg"))).toMatchObject({ kind: "jpeg", width: 61, height: 45, sof: 0xc2, components: [{ h: 2, v: 2 }, { h: 1, v: 1 }, { h: 1, v: 1 }] });
    expect(readImageHeader(fixture("grey.jpg"))).toMatchObject({ kind: "jpeg", width: 61, height: 45, sof: 0xc0, components: [{ id: 1 }] });
    const gif = Buffer.from("GIF89a\x10\x27\x20\x4e\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x40\x02", "latin1");
    expect(readImageHeader(gif)).toMatchObject({ kind: "gif", width: 10000, height: 20000, interlaced: true });
    expect(readImageHeader(fixture("lossy.webp"))).toMatchObject({ kind: "webp", width: 61, height: 45 });
    expect(readImageHeader(fixture("solid.webp"))).toMatchObject({ kind: "webp", width: 3, height: 2 });
    expect(readImageHeader(vp8x(16384, 9000, true))).toMatchObject({ kind: "webp", width: 16384, height: 9000, animated: true });
  });

  it("not an image: nothing; a known format with a broken header: one line", () => {
    expect(readImageHeader(Buffer.from("<html>not an image</html>"))).toBeUndefined();
    expect(sniff(Buffer.from("GIF87a"))).toBe("gif");
    expect(() => readImageHeader(pngHeader(0, 10))).toThrow(/no pixels/);
    expect(() => readImageHeader(pngHeader(10, 10, 5))).toThrow(ImageFormatError);
    expect(() => readImageHeader(fixture("baseline-420.jpg").subarray(0, 100))).toThrow(/no frame header/);
    expect(() => readImageHeader(Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1"))).toThrow(/no image/);
  });
});

describe("the budget", () => {
  const plan = (h: ImageHeader, file = 100_000) => planDecode(h, file, 1024, 1024);

  it("a 6000×6000 PNG is decoded row by row into the size drawn, well inside the budget", () => {
    const p = plan(readImageHeader(pngHeader(6000, 6000))!);
    expect(p).toMatchObject({ width: 1024, height: 1024, order: "in-order" });
    expect(p.bytes).toBeLessThan(WORKING_BYTES / 2);
    // Interlaced rows arrive out of order: a smaller target, summed whole.
    expect(plan(readImageHeader(pngHeader(6000, 6000, 6, 1))!)).toMatchObject({ width: 512, height: 512, order: "any-order" });
  });

  it("more pixels than the service would thumbnail, or rows wider than the budget, are refused by their header", async () => {
    const huge = pngHeader(20_000, 20_000);
    expect(20_000 * 20_000).toBeGreaterThan(MAX_PREVIEW_PIXELS);
    expect(() => plan(readImageHeader(huge)!)).toThrow(ImageTooLargeError);
    const err = await decodeImage(huge, 80, 16).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageTooLargeError);
    expect(err).toMatchObject({ width: 20_000, height: 20_000, message: "too large to preview (20000×20000)" });
    // Few pixels, but one row of them would not fit: 16-bit RGBA, 4 million wide.
    const wide = readImageHeader(pngHeader(4_000_000, 2))!;
    expect(() => plan({ ...wide, bitDepth: 16 })).toThrow(ImageTooLargeError);
    // A GIF or JPEG claiming 65535×65535 in a tiny file.
    expect(() => plan({ kind: "gif", width: 65535, height: 65535 })).toThrow(ImageTooLargeError);
    expect(() => plan({ ...readImageHeader(fixture("baseline-420.jpg"))!, width: 65535, height: 65535 })).toThrow(ImageTooLargeError);
  });

  it("WebP is decoded whole by libwebp, so only WebP images whose pixels fit the budget are", () => {
    expect(plan(readImageHeader(vp8x(1000, 1000))!).bytes).toBeLessThan(WORKING_BYTES);
    expect(() => plan(readImageHeader(vp8x(2000, 2000))!)).toThrow(ImageTooLargeError);
  });

  it("JPEG: the fewest pixels per block that cover the size drawn twice over; a large progressive image keeps one coefficient per block", () => {
    const base = readImageHeader(fixture("baseline-420.jpg"))!;
    const prog = readImageHeader(fixture("progressive.jpg"))!;
    // 40 megapixels: four pixels per block (1825 wide at two would not cover 2 × 1024).
    expect(plan({ ...base, width: 7300, height: 5475 })).toMatchObject({ jpegScale: 4, width: 1024, height: 768 });
    expect(plan({ ...base, width: 7300, height: 5475 }).jpegKept).toBeUndefined();
    expect(plan({ ...base, width: 61, height: 45 })).toMatchObject({ jpegScale: 8, width: 61, height: 45 });
    expect(planDecode(base, 1000, 7, 5)).toMatchObject({ jpegScale: 2 });
    // Progressive: all 64 coefficients of 40 megapixels would not fit; the DC ones (one pixel per block) do.
    expect(plan({ ...prog, width: 7300, height: 5475 })).toMatchObject({ jpegScale: 1, jpegKept: 1, width: 913, height: 685 });
    expect(plan({ ...prog, width: 1600, height: 1200 })).toMatchObject({ jpegScale: 8, jpegKept: 64 });
  });
});
