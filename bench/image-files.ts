/**
 * The images of the image benchmark, made once and kept in .tmp/bench/images:
 * - a 6000×6000 PNG of one colour (about 100 KB: 108 MB of rows deflated);
 * - a 40-megapixel JPEG (7300×5475, 4:2:0, a smooth gradient: every block flat, so the file
 *   is small and any decoder can read it), written by hand below;
 * - a 6000×6000 GIF of one colour (omggif's writer);
 * - a 64×64 PNG of one colour: what any message with a picture costs, to compare with;
 * - the reference server's 840×560 WebP thumbnail of the JPEG (what the client decodes instead).
 * Run as `node image-files.js DIR`: it writes what is missing and prints nothing else.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDeflate } from "node:zlib";
import { GifWriter } from "omggif";
import { imageInfo } from "../src/server/image-info.js";
import { decodeStill, shrink, shrunkSize } from "../src/server/image-pixels.js";
import { encodeWebp } from "../src/server/webp-lossless.js";
import { crc32 } from "../test/fixtures/images/png-writer.js";

export const IMAGE_FILES = { png: "one-colour-6000.png", jpeg: "gradient-40mp.jpg", gif: "one-colour-6000.gif", small: "one-colour-64.png", thumbnail: "gradient-40mp-840x560.webp" } as const;

async function png(path: string, side: number): Promise<void> {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])));
    return Buffer.concat([head, body, crc]);
  };
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (b: Buffer) => parts.push(b));
  const done = new Promise((r) => deflate.on("end", r));
  const row = Buffer.alloc(1 + side * 3);
  for (let x = 0; x < side; x++) row.set([40, 120, 200], 1 + x * 3);
  for (let y = 0; y < side; y++) if (!deflate.write(row)) await new Promise((r) => deflate.once("drain", r));
  deflate.end();
  await done;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  writeFileSync(path, Buffer.concat([sig, chunk("IHDR", ihdr), chunk("IDAT", Buffer.concat(parts)), chunk("IEND", Buffer.alloc(0))]));
}

/** A baseline JPEG whose 8×8 blocks are each flat: DC codes of category (4 bits each), then an end of block. */
function jpeg(path: string, width: number, height: number): void {
  const out: number[] = [0xff, 0xd8];
  const segment = (marker: number, body: number[]) => out.push(0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 255, ...body);
  segment(0xdb, [0, ...new Array(64).fill(16)]);
  segment(0xc0, [8, height >> 8, height & 255, width >> 8, width & 255, 3, 1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0]);
  // DC: categories 0–11, all 4-bit codes; AC: one symbol (end of block), a 1-bit code.
  segment(0xc4, [0x00, 0, 0, 0, 12, ...new Array(12).fill(0), ...Array.from({ length: 12 }, (_, i) => i)]);
  segment(0xc4, [0x10, 1, ...new Array(15).fill(0), 0]);
  segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]);
  let acc = 0;
  let bits = 0;
  const put = (value: number, n: number) => {
    for (let i = n - 1; i >= 0; i--) {
      acc = (acc << 1) | ((value >> i) & 1);
      if (++bits === 8) {
        out.push(acc);
        if (acc === 0xff) out.push(0);
        acc = bits = 0;
      }
    }
  };
  const pred = [0, 0, 0];
  const block = (c: number, level: number) => {
    const dc = Math.round(((level - 128) * 8) / 16);
    const diff = dc - pred[c]!;
    pred[c] = dc;
    const size = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
    put(size, 4);
    if (size > 0) put(diff > 0 ? diff : diff + (1 << size) - 1, size);
    put(0, 1); // end of block
  };
  const mcusX = Math.ceil(width / 16);
  const mcusY = Math.ceil(height / 16);
  for (let my = 0; my < mcusY; my++) {
    for (let mx = 0; mx < mcusX; mx++) {
      for (const [dy, dx] of [[0, 0], [0, 1], [1, 0], [1, 1]] as const) block(0, 40 + Math.round((160 * ((mx * 2 + dx) / (mcusX * 2) + (my * 2 + dy) / (mcusY * 2))) / 2));
      block(1, 100 + Math.round((60 * mx) / mcusX));
      block(2, 160 - Math.round((60 * my) / mcusY));
    }
  }
  if (bits > 0) put(0x7f, 8 - bits); // pad with ones
  out.push(0xff, 0xd9);
  writeFileSync(path, Uint8Array.from(out));
}

function gif(path: string, side: number): void {
  const buf = new Uint8Array(1024 * 1024);
  const writer = new GifWriter(buf, side, side, { palette: [0x2878c8, 0x000000] });
  writer.addFrame(0, 0, side, side, new Uint8Array(side * side));
  writeFileSync(path, buf.subarray(0, writer.end()));
}

export async function makeImageFiles(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const at = (name: string) => join(dir, name);
  if (!existsSync(at(IMAGE_FILES.png))) await png(at(IMAGE_FILES.png), 6000);
  if (!existsSync(at(IMAGE_FILES.jpeg))) jpeg(at(IMAGE_FILES.jpeg), 7300, 5475);
  if (!existsSync(at(IMAGE_FILES.gif))) gif(at(IMAGE_FILES.gif), 6000);
  if (!existsSync(at(IMAGE_FILES.small))) await png(at(IMAGE_FILES.small), 64);
  if (!existsSync(at(IMAGE_FILES.thumbnail))) {
    const original = readFileSync(at(IMAGE_FILES.jpeg));
    const info = imageInfo(original)!;
    const size = shrunkSize(info.width, info.height, 840, 560);
    const small = shrink(decodeStill(original, info), size.width, size.height);
    writeFileSync(at(IMAGE_FILES.thumbnail), encodeWebp(small.width, small.height, small.data));
  }
}

if (process.argv[1]?.endsWith("image-files.js")) await makeImageFiles(process.argv[2] ?? ".tmp/bench/images");
