/**
 * The decoders against the straightforward way (the packages decode the whole
 * image, then every box is averaged): PNG and GIF exactly, at every colour
 * type, bit depth and interlacing; JPEG within the IDCT's rounding at full
 * size and within a few levels when decoded at fewer pixels per block.
 */
import { readFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { GifReader, GifWriter } from "omggif";
import { describe, expect, it } from "vitest";
import { BoxFilter } from "../../src/render/images/box-filter.js";
import { decodeImage } from "../../src/render/images/decode.js";
import { readImageHeader } from "../../src/render/images/header.js";
import { decodeJpeg } from "../../src/render/images/jpeg.js";
import { ImageFormatError, type Pixels } from "../../src/render/images/pixels.js";
import { writePng, type PngSpec } from "../fixtures/images/png-writer.js";
import { difference, referenceBox, referenceDecode } from "../fixtures/images/reference.js";

/** Deterministic noise in [0, n). */
const noise = (x: number, y: number, k: number, n: number) => ((((x * 73856093) ^ (y * 19349663) ^ (k * 83492791)) >>> 0) % 1000003) % n;

const fixture = (name: string) => readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url));

/** Our decode at `w`×`h` equals the packages' decode boxed to the same size. */
async function expectExact(file: Uint8Array, kind: "png" | "gif", w: number, h: number) {
  const ours = await decodeImage(file, w, h);
  const ref = referenceDecode(file, kind);
  expect(difference(ours, referenceBox(ref, ours.width, ours.height))).toEqual({ max: 0, mean: 0 });
  return ours;
}

describe("PNG, row by row into the box filter", () => {
  const kinds: Array<Pick<PngSpec, "colorType" | "bitDepth">> = [
    ...([1, 2, 4, 8, 16] as const).map((bitDepth) => ({ colorType: 0 as const, bitDepth })),
    ...([8, 16] as const).flatMap((bitDepth) => ([2, 4, 6] as const).map((colorType) => ({ colorType, bitDepth }))),
    ...([1, 2, 4, 8] as const).map((bitDepth) => ({ colorType: 3 as const, bitDepth })),
  ];
  for (const interlace of [false, true]) {
    for (const { colorType, bitDepth } of kinds) {
      it(`colour type ${colorType}, ${bitDepth}-bit${interlace ? ", Adam7" : ""}: full size and boxed, exactly as decoded whole`, async () => {
        const max = bitDepth === 16 ? 65535 : (1 << bitDepth) - 1;
        const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
        const colours = Math.min(1 << bitDepth, 256);
        const spec: PngSpec = {
          width: 37,
          height: 23,
          colorType,
          bitDepth,
          interlace,
          sample: (x, y) => Array.from({ length: channels }, (_, k) => (colorType === 3 ? noise(x, y, k, colours) : noise(x, y, k, max + 1))),
          ...(colorType === 3 && { palette: Array.from({ length: colours }, (_, i) => [i * 7 % 256, 255 - ((i * 13) % 256), (i * 29) % 256] as [number, number, number]), trns: [0, 128, 255, 64].slice(0, colours) }),
          ...(colorType === 0 && { trns: [noise(3, 4, 0, max + 1)] }),
          ...(colorType === 2 && { trns: [noise(5, 6, 0, max + 1), noise(5, 6, 1, max + 1), noise(5, 6, 2, max + 1)] }),
        };
        const file = writePng(spec);
        const full = await expectExact(file, "png", Infinity, Infinity);
        expect([full.width, full.height, full.source.interlaced]).toEqual([37, 23, interlace]);
        await expectExact(file, "png", 10, 10);
        await expectExact(file, "png", 5, 3);
      });
    }
  }

  it("a stream that inflates far past the header's rows is cut off once the last row is done", async () => {
    const spec: PngSpec = { width: 16, height: 16, colorType: 2, bitDepth: 8, sample: (x, y) => [x * 16, y * 16, 100] };
    // 16 rows, then 200,000 more in the same stream (about 10 MB inflated from a few kilobytes).
    const file = writePng({ ...spec, extraRows: 200_000 });
    expect(file.length).toBeLessThan(64 * 1024);
    const out = await decodeImage(file, 16, 16);
    expect(difference(out, referenceBox(referenceDecode(writePng(spec), "png"), 16, 16)).max).toBe(0);
  });

  it("a stream that ends early, or broken data, is one clear line", async () => {
    const file = writePng({ width: 64, height: 64, colorType: 6, bitDepth: 8, sample: (x, y) => [x, y, 0, 255] });
    const ihdrAndData = file.subarray(0, file.length - 200);
    await expect(decodeImage(ihdrAndData, 8, 8)).rejects.toThrow(/^the PNG's image data (ends early|is broken)/);
    const junk = Buffer.from(file);
    junk.fill(0x55, 60, 90);
    const err = await decodeImage(junk, 8, 8).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageFormatError);
    expect((err as Error).message).not.toContain("\n");
  });

  it("an image whose row filter is unknown says so", async () => {
    const file = writePng({ width: 4, height: 4, colorType: 0, bitDepth: 8, sample: () => [9], filter: () => 0 });
    const raw = Buffer.concat([Buffer.from([7, 1, 2, 3, 4]), Buffer.alloc(15)]);
    const idat = deflateSync(raw);
    const at = file.indexOf("IDAT") - 4;
    const len = file.readUInt32BE(at);
    const patched = Buffer.concat([file.subarray(0, at), Buffer.from([0, 0, 0, idat.length]), Buffer.from("IDAT"), idat, Buffer.alloc(4), file.subarray(at + 12 + len)]);
    await expect(decodeImage(patched, 4, 4)).rejects.toThrow(/unknown row filter \(7\)/);
  });
});

/** A GIF of `frames` images of `w`×`h` indices on a `sw`×`sh` screen, the first at (fx, fy); optionally interlaced. */
function gif(o: { sw: number; sh: number; fx: number; fy: number; w: number; h: number; interlace?: boolean; transparent?: number }): Uint8Array {
  const buf = new Uint8Array(64 * 1024);
  const palette = Array.from({ length: 16 }, (_, i) => ((i * 16) << 16) | ((255 - i * 16) << 8) | ((i * 40) % 256));
  const writer = new GifWriter(buf, o.sw, o.sh, { palette });
  let indices = Array.from({ length: o.w * o.h }, (_, i) => noise(i % o.w, Math.floor(i / o.w), 0, 16));
  if (o.interlace) {
    // Rows in interlaced order (0, 8, 16…, 4, 12…, 2, 6…, 1, 3…); the flag set below.
    const order = [0, 4, 2, 1].flatMap((start, p) => Array.from({ length: o.h }, (_, y) => y).filter((y) => y >= start && (y - start) % [8, 8, 4, 2][p]! === 0));
    indices = order.flatMap((y) => indices.slice(y * o.w, (y + 1) * o.w));
  }
  writer.addFrame(o.fx, o.fy, o.w, o.h, indices, o.transparent === undefined ? {} : { transparent: o.transparent });
  writer.addFrame(0, 0, o.sw, o.sh, new Array(o.sw * o.sh).fill(3));
  const file = buf.slice(0, writer.end());
  if (o.interlace) {
    // The first image descriptor: past the colour table (16 entries) and any extensions.
    let i = 13 + 48;
    while (file[i] === 0x21) {
      i += 2;
      while (file[i] !== 0) i += file[i]! + 1;
      i++;
    }
    file[i + 9] = file[i + 9]! | 0x40;
  }
  return file;
}

describe("GIF, the first image row by row", () => {
  it("an image on part of its screen, with a transparent colour: exactly as decoded whole, full size and boxed", async () => {
    const file = gif({ sw: 40, sh: 30, fx: 5, fy: 7, w: 29, h: 17, transparent: 2 });
    const out = await expectExact(file, "gif", Infinity, Infinity);
    expect(out.data[3]).toBe(0); // the screen outside the image is transparent
    await expectExact(file, "gif", 13, 10);
    await expectExact(file, "gif", 3, 2);
  });

  it("an interlaced image, rows put back in place", async () => {
    const file = gif({ sw: 31, sh: 27, fx: 0, fy: 0, w: 31, h: 27, interlace: true });
    expect(new GifReader(file).frameInfo(0).interlaced).toBe(true);
    expect(readImageHeader(file)?.interlaced).toBe(true);
    await expectExact(file, "gif", Infinity, Infinity);
    await expectExact(file, "gif", 10, 9);
  });
});

describe("JPEG, at the pixels per block the size needs", () => {
  const names = ["baseline-420", "baseline-422", "baseline-444", "grey", "restart", "progressive", "progressive-restart", "progressive-grey", "optimised"];
  for (const name of names) {
    it(`${name}: full size within the IDCT's rounding; smaller within a few levels of the whole image boxed`, async () => {
      const file = fixture(`${name}.jpg`);
      const ref = referenceDecode(file, "jpeg");
      const full = await decodeImage(file);
      expect([full.width, full.height]).toEqual([61, 45]);
      expect(difference(full, referenceBox(ref, 61, 45)).max).toBeLessThanOrEqual(3);
      for (const [w, h] of [[30, 22], [15, 11], [7, 5]] as const) {
        const out = await decodeImage(file, w, h);
        expect([out.width, out.height]).toEqual([w, h]);
        const d = difference(out, referenceBox(ref, w, h));
        expect(d.mean).toBeLessThan(4);
        expect(d.max).toBeLessThan(40);
      }
      // One pixel per block (the DC coefficients alone): the blocks' means, boxed once more.
      const tiny = await decodeImage(file, 3, 2);
      expect([tiny.width, tiny.height]).toEqual([3, 2]);
      expect(difference(tiny, referenceBox(ref, 3, 2)).mean).toBeLessThan(12);
    });
  }

  it("a progressive image kept at one coefficient per block (the AC scans skipped) is the means of its blocks", () => {
    const file = fixture("progressive-grey.jpg");
    const out = decodeJpeg(file, readImageHeader(file)!, { width: 8, height: 6, order: "in-order", jpegScale: 1, jpegKept: 1, bytes: 0 });
    expect([out.width, out.height]).toEqual([8, 6]);
    // The blocks wholly inside the picture (7×5 of them), against the mean of the same 8×8 pixels.
    const ref = referenceDecode(file, "jpeg");
    for (let by = 0; by < 5; by++) {
      for (let bx = 0; bx < 7; bx++) {
        let sum = 0;
        for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) sum += ref.data[((by * 8 + y) * 61 + bx * 8 + x) * 4]!;
        expect(Math.abs(out.data[(by * 8 + bx) * 4]! - sum / 64)).toBeLessThanOrEqual(2);
      }
    }
  });

  it("refuses what it cannot decode with one line", async () => {
    const file = Buffer.from(fixture("baseline-420.jpg"));
    const sof = file.indexOf(Buffer.from([0xff, 0xc0]));
    const lossless = Buffer.from(file);
    lossless[sof + 1] = 0xc3;
    await expect(decodeImage(lossless, 10, 10)).rejects.toThrow(/^this kind of JPEG .* is not supported$/);
    const noTables = Buffer.concat([file.subarray(0, 2), file.subarray(file.indexOf(Buffer.from([0xff, 0xc0])))]);
    await expect(decodeImage(noTables, 10, 10)).rejects.toThrow(/lacks a (quantization|Huffman) table/);
  });
});

describe("WebP", () => {
  it("decodes with the embedded libwebp and boxes the pixels", async () => {
    const file = fixture("solid.webp");
    const out = await decodeImage(file, 2, 1);
    expect([out.width, out.height]).toEqual([2, 1]);
    expect([...out.data]).toEqual([200, 40, 90, 255, 200, 40, 90, 255]);
    expect((await decodeImage(file)).width).toBe(3);
  });
});

describe("the box filter", () => {
  it("rows in any order give what rows in order give; rows never added are transparent", () => {
    const src: Pixels = { width: 9, height: 7, data: Uint8Array.from({ length: 9 * 7 * 4 }, (_, i) => noise(i, 0, 1, 256)) };
    const row = (y: number) => src.data.subarray(y * 36, (y + 1) * 36);
    const ordered = new BoxFilter(9, 7, 4, 3, "in-order");
    const shuffled = new BoxFilter(9, 7, 4, 3, "any-order");
    for (let y = 0; y < 7; y++) ordered.addRow(y, row(y));
    for (const y of [6, 0, 3, 5, 1, 4, 2]) shuffled.addRow(y, row(y));
    const a = ordered.finish();
    expect(difference(a, shuffled.finish()).max).toBe(0);
    expect(difference(a, referenceBox(src, 4, 3)).max).toBe(0);
    const partial = new BoxFilter(9, 7, 9, 7, "in-order");
    partial.addRow(3, row(3));
    const p = partial.finish();
    expect(p.data[3]).toBe(0);
    expect([...p.data.subarray(3 * 36, 3 * 36 + 4)]).toEqual([...referenceBox(src, 9, 7).data.subarray(3 * 36, 3 * 36 + 4)]);
  });
});
