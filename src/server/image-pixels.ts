// Uploaded images to RGBA pixels for thumbnailing, with the packages the client's build carries
// too (pngjs, jpeg-js, omggif, and libwebp in @cwasm/webp's WebAssembly, instantiated here on
// the first WebP), and a box-averaging shrink. The whole image is decoded: the caller checks
// the size against the image-bomb limits first.

import wasmBytes from "@cwasm/webp/webp.wasm";
import { GifReader } from "omggif";
import jpeg from "jpeg-js";
import { PNG } from "pngjs";
import type { ImageInfo } from "./image-info.js";

export interface Rgba {
  width: number;
  height: number;
  data: Uint8Array;
}

interface Libwebp {
  memory: { buffer: ArrayBuffer };
  malloc(size: number): number;
  free(ptr: number): void;
  WebPDecodeRGBA(data: number, size: number, w: number, h: number): number;
}

let libwebp: Libwebp | undefined;

function webpDecode(b: Buffer): Rgba {
  if (!libwebp) {
    const refuse = () => {
      throw new Error("no system calls here");
    };
    const wasm = (globalThis as unknown as { WebAssembly: { Instance: new (m: object, i: object) => { exports: unknown }; Module: new (b: Uint8Array) => object } }).WebAssembly;
    libwebp = new wasm.Instance(new wasm.Module(wasmBytes), { wasi_snapshot_preview1: { fd_close: refuse, fd_seek: refuse, fd_write: refuse } }).exports as Libwebp;
  }
  const lib = libwebp;
  const input = lib.malloc(b.length);
  const size = lib.malloc(8);
  try {
    new Uint8Array(lib.memory.buffer).set(b, input);
    const out = lib.WebPDecodeRGBA(input, b.length, size, size + 4);
    if (!out) throw new Error("libwebp could not decode the image");
    const [width, height] = new Uint32Array(lib.memory.buffer, size, 2) as unknown as [number, number];
    const data = new Uint8Array(lib.memory.buffer, out, width * height * 4).slice();
    lib.free(out);
    return { width, height, data };
  } finally {
    lib.free(input);
    lib.free(size);
  }
}

/** The first (or only) image of the file. */
export function decodeStill(b: Buffer, info: ImageInfo): Rgba {
  switch (info.format) {
    case "png": {
      const png = PNG.sync.read(b);
      return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length) };
    }
    case "jpeg": {
      const img = jpeg.decode(b, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 100, maxMemoryUsageInMB: 2048 });
      return { width: img.width, height: img.height, data: img.data };
    }
    case "gif":
      return gifFrames(b, 1)[0]!.image;
    case "webp":
      return webpDecode(b);
  }
}

/** A GIF's first `limit` frames as whole screens (each drawn over the last as its disposal says), with their delays. */
export function gifFrames(b: Buffer, limit: number): Array<{ image: Rgba; delayMs: number }> {
  const reader = new GifReader(b);
  const { width, height } = reader;
  const screen = new Uint8Array(width * height * 4);
  const out: Array<{ image: Rgba; delayMs: number }> = [];
  let restore: Uint8Array | undefined;
  for (let i = 0; i < Math.min(limit, reader.numFrames()); i++) {
    const f = reader.frameInfo(i);
    if (f.disposal === 3) restore = screen.slice();
    reader.decodeAndBlitFrameRGBA(i, screen);
    out.push({ image: { width, height, data: screen.slice() }, delayMs: f.delay * 10 });
    // Disposal, before the next frame: 2 clears the frame's area, 3 puts back what was under it.
    if (f.disposal === 2) for (let y = f.y; y < Math.min(height, f.y + f.height); y++) screen.fill(0, (y * width + f.x) * 4, (y * width + Math.min(width, f.x + f.width)) * 4);
    if (f.disposal === 3 && restore) screen.set(restore);
  }
  return out;
}

/** The size that fits `w`×`h` inside `maxW`×`maxH`, never larger than it was. */
export function shrunkSize(w: number, h: number, maxW: number, maxH: number): { width: number; height: number } {
  const scale = Math.min(1, maxW / w, maxH / h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/** Shrinks by averaging every source pixel under each target pixel (colour weighted by alpha). */
export function shrink(src: Rgba, width: number, height: number): Rgba {
  if (width === src.width && height === src.height) return src;
  const sums = new Float64Array(width * height * 5);
  for (let y = 0; y < src.height; y++) {
    const row = Math.min(height - 1, Math.floor((y * height) / src.height));
    for (let x = 0; x < src.width; x++) {
      const i = (y * src.width + x) * 4;
      const o = (row * width + Math.min(width - 1, Math.floor((x * width) / src.width))) * 5;
      const alpha = src.data[i + 3]!;
      sums[o] = sums[o]! + src.data[i]! * alpha;
      sums[o + 1] = sums[o + 1]! + src.data[i + 1]! * alpha;
      sums[o + 2] = sums[o + 2]! + src.data[i + 2]! * alpha;
      sums[o + 3] = sums[o + 3]! + alpha;
      sums[o + 4] = sums[o + 4]! + 1;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const s = p * 5;
    const a = sums[s + 3]!;
    if (a > 0) for (let c = 0; c < 3; c++) data[p * 4 + c] = Math.round(sums[s + c]! / a);
    data[p * 4 + 3] = Math.round(a / Math.max(1, sums[s + 4]!));
  }
  return { width, height, data };
}
