import { readFileSync } from "node:fs";
import { GifWriter } from "omggif";
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { decodeImage, sniff } from "../../src/render/images/decode.js";
import { ImageFormatError, type Pixels } from "../../src/render/images/pixels.js";

/** A 4×2 image: top row red, bottom row blue. */
function redOverBlue(): Pixels {
  const data = new Uint8Array(4 * 2 * 4);
  for (let i = 0; i < 8; i++) data.set(i < 4 ? [255, 0, 0, 255] : [0, 0, 255, 255], i * 4);
  return { width: 4, height: 2, data };
}

const at = (p: Pixels, x: number, y: number) => [...p.data.subarray((y * p.width + x) * 4, (y * p.width + x) * 4 + 4)];

describe("image decoders", () => {
  it("decodes a PNG made with pngjs", async () => {
    const src = redOverBlue();
    const png = new PNG({ width: 4, height: 2 });
    png.data = Buffer.from(src.data);
    const file = PNG.sync.write(png);
    expect(sniff(file)).toBe("png");
    const out = await decodeImage(file);
    expect([out.width, out.height]).toEqual([4, 2]);
    expect(at(out, 0, 0)).toEqual([255, 0, 0, 255]);
    expect(at(out, 3, 1)).toEqual([0, 0, 255, 255]);
  });

  it("decodes a JPEG made with jpeg-js (colours within compression error)", async () => {
    const width = 16;
    const height = 16;
    const data = Buffer.alloc(width * height * 4);
    for (let i = 0; i < width * height; i++) data.set(i < (width * height) / 2 ? [250, 20, 20, 255] : [20, 20, 250, 255], i * 4);
    const file = jpeg.encode({ width, height, data }, 95).data;
    expect(sniff(file)).toBe("jpeg");
    const out = await decodeImage(file);
    expect([out.width, out.height]).toEqual([16, 16]);
    const top = at(out, 8, 2);
    const bottom = at(out, 8, 13);
    expect(top[0]).toBeGreaterThan(200);
    expect(top[2]).toBeLessThan(60);
    expect(bottom[2]).toBeGreaterThan(200);
    expect(bottom[0]).toBeLessThan(60);
  });

  it("decodes the first frame of a GIF made with omggif", async () => {
    const buf = new Uint8Array(1024);
    const writer = new GifWriter(buf, 2, 2, { palette: [0x00ff00, 0xff00ff] });
    writer.addFrame(0, 0, 2, 2, [0, 1, 1, 0]);
    writer.addFrame(0, 0, 2, 2, [1, 1, 1, 1]);
    const file = buf.subarray(0, writer.end());
    expect(sniff(file)).toBe("gif");
    const out = await decodeImage(file);
    expect([out.width, out.height]).toEqual([2, 2]);
    expect(at(out, 0, 0)).toEqual([0, 255, 0, 255]);
    expect(at(out, 1, 0)).toEqual([255, 0, 255, 255]);
  });

  it("decodes a lossless WebP with the embedded WebAssembly decoder", async () => {
    const file = readFileSync(new URL("../fixtures/images/solid.webp", import.meta.url));
    expect(sniff(file)).toBe("webp");
    const out = await decodeImage(file);
    expect([out.width, out.height]).toEqual([3, 2]);
    for (let y = 0; y < 2; y++) for (let x = 0; x < 3; x++) expect(at(out, x, y)).toEqual([200, 40, 90, 255]);
  });

  it("refuses what is not an image, and broken files, with one line", async () => {
    await expect(decodeImage(Buffer.from("<html>not an image</html>"))).rejects.toThrow(/not an image in a known format/);
    const png = new PNG({ width: 4, height: 2 });
    const broken = PNG.sync.write(png).subarray(0, 40);
    const err = await decodeImage(broken).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageFormatError);
    expect((err as Error).message).toMatch(/^PNG image could not be decoded: [^\n]*$/);
  });

  it("refuses an image whose header claims too many pixels before decoding it", async () => {
    const png = new PNG({ width: 1, height: 1 });
    const file = Buffer.from(PNG.sync.write(png));
    file.writeUInt32BE(100_000, 16);
    file.writeUInt32BE(100_000, 20);
    await expect(decodeImage(file)).rejects.toThrow(/too large/);
  });
});
