/**
 * PNG, row by row: the IDAT stream is inflated in chunks, each scanline is
 * unfiltered against the one before it and handed to the box filter as RGBA.
 * Two scanlines are all that is held, whatever the image's height. Inflating
 * stops as soon as the last row is complete, so a stream that inflates to
 * more than the header's rows (a decompression bomb) costs no more than an
 * honest one; one that ends early is an error.
 */
import { createInflate } from "node:zlib";
import { BoxFilter } from "./box-filter.js";
import type { DecodePlan } from "./budget.js";
import type { ImageHeader } from "./header.js";
import { ImageFormatError, type Pixels } from "./pixels.js";

interface Pass {
  x0: number;
  y0: number;
  dx: number;
  dy: number;
}

const SINGLE: Pass[] = [{ x0: 0, y0: 0, dx: 1, dy: 1 }];
/** Adam7: where each of the seven passes starts and how far apart its pixels are. */
const ADAM7: Pass[] = [
  { x0: 0, y0: 0, dx: 8, dy: 8 },
  { x0: 4, y0: 0, dx: 8, dy: 8 },
  { x0: 0, y0: 4, dx: 4, dy: 8 },
  { x0: 2, y0: 0, dx: 4, dy: 4 },
  { x0: 0, y0: 2, dx: 2, dy: 4 },
  { x0: 1, y0: 0, dx: 2, dy: 2 },
  { x0: 0, y0: 1, dx: 1, dy: 2 },
];

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

interface Chunks {
  data: Uint8Array[];
  /** Palette as RGBA (alpha from tRNS). */
  palette?: Uint8Array;
  /** tRNS of grey and truecolour images: the sample values that are transparent. */
  key?: number[];
}

function readChunks(b: Uint8Array, colorType: number): Chunks {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out: Chunks = { data: [] };
  let trns: Uint8Array | undefined;
  for (let i = 8; i + 8 <= b.length; ) {
    const length = view.getUint32(i);
    const type = String.fromCharCode(b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!);
    const body = b.subarray(i + 8, Math.min(b.length, i + 8 + length));
    if (type === "IDAT") out.data.push(body);
    else if (type === "PLTE") {
      // Indices past the palette's end are opaque black.
      out.palette = new Uint8Array(256 * 4);
      for (let p = 3; p < out.palette.length; p += 4) out.palette[p] = 255;
      for (let p = 0; p * 3 + 2 < body.length && p < 256; p++) out.palette.set([body[p * 3]!, body[p * 3 + 1]!, body[p * 3 + 2]!, 255], p * 4);
    } else if (type === "tRNS") trns = body;
    else if (type === "IEND") break;
    i += 12 + length;
  }
  if (trns && colorType === 3 && out.palette) for (let p = 0; p < trns.length && p < 256; p++) out.palette[p * 4 + 3] = trns[p]!;
  if (trns && colorType === 0 && trns.length >= 2) out.key = [(trns[0]! << 8) | trns[1]!];
  if (trns && colorType === 2 && trns.length >= 6) out.key = [(trns[0]! << 8) | trns[1]!, (trns[2]! << 8) | trns[3]!, (trns[4]! << 8) | trns[5]!];
  return out;
}

/** Undoes a scanline's filter in place (`row` without its filter byte; `prev` the unfiltered row above, zeros for the first). */
export function unfilter(filter: number, row: Uint8Array, prev: Uint8Array, bpp: number): void {
  const n = row.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = bpp; i < n; i++) row[i] = row[i]! + row[i - bpp]!;
      return;
    case 2:
      for (let i = 0; i < n; i++) row[i] = row[i]! + prev[i]!;
      return;
    case 3:
      for (let i = 0; i < n; i++) row[i] = row[i]! + (((i >= bpp ? row[i - bpp]! : 0) + prev[i]!) >> 1);
      return;
    case 4:
      for (let i = 0; i < n; i++) {
        const a = i >= bpp ? row[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        row[i] = row[i]! + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return;
    default:
      throw new ImageFormatError(`the PNG uses an unknown row filter (${filter})`);
  }
}

/** A 16-bit sample as 8 bits, rounded as pngjs does. */
const to8 = (v: number) => Math.floor((v * 510 + 65535) / 131070);

/** Turns `count` pixels of an unfiltered scanline into RGBA. */
function toRgba(h: ImageHeader, c: Chunks, row: Uint8Array, count: number, out: Uint8Array): Uint8Array {
  const depth = h.bitDepth!;
  const type = h.colorType!;
  if (type === 6 && depth === 8) return row;
  if (type === 2 && depth === 8 && !c.key) {
    for (let x = 0, i = 0, o = 0; x < count; x++, i += 3, o += 4) {
      out[o] = row[i]!;
      out[o + 1] = row[i + 1]!;
      out[o + 2] = row[i + 2]!;
      out[o + 3] = 255;
    }
    return out;
  }
  if (type === 3 && depth === 8 && c.palette) {
    const pal = c.palette;
    for (let x = 0, o = 0; x < count; x++, o += 4) {
      const p = row[x]! * 4;
      out[o] = pal[p]!;
      out[o + 1] = pal[p + 1]!;
      out[o + 2] = pal[p + 2]!;
      out[o + 3] = pal[p + 3]!;
    }
    return out;
  }
  const sample = (i: number) => (depth === 16 ? (row[i * 2]! << 8) | row[i * 2 + 1]! : depth === 8 ? row[i]! : (row[(i * depth) >> 3]! >> (8 - depth - ((i * depth) & 7))) & ((1 << depth) - 1));
  const scale = depth === 16 ? to8 : depth === 8 ? (v: number) => v : (v: number) => (v * 255) / ((1 << depth) - 1);
  const channels = CHANNELS[type]!;
  for (let x = 0, o = 0; x < count; x++, o += 4) {
    const s = x * channels;
    if (type === 3) {
      const p = sample(s);
      if (c.palette) out.set(c.palette.subarray(p * 4, p * 4 + 4), o);
      else out.set([0, 0, 0, 255], o);
      continue;
    }
    if (type === 0 || type === 4) {
      const g = sample(s);
      out[o] = out[o + 1] = out[o + 2] = scale(g);
      out[o + 3] = type === 4 ? scale(sample(s + 1)) : c.key && g === c.key[0] ? 0 : 255;
      continue;
    }
    const r = sample(s);
    const g = sample(s + 1);
    const b = sample(s + 2);
    out[o] = scale(r);
    out[o + 1] = scale(g);
    out[o + 2] = scale(b);
    out[o + 3] = type === 6 ? scale(sample(s + 3)) : c.key && r === c.key[0] && g === c.key[1] && b === c.key[2] ? 0 : 255;
  }
  return out;
}

/** Inflated bytes between two calls of `collect` (each inflated chunk is a buffer of its own until collected). */
const COLLECT_EVERY = 4 * 1024 * 1024;

/**
 * `collect`, when given, is called every few megabytes inflated: zlib hands out every chunk in a
 * new buffer, and V8 frees them only when it collects, which it does late for memory outside its
 * heap (tens of megabytes of dead chunks on a large image).
 */
export function decodePng(bytes: Uint8Array, h: ImageHeader, plan: DecodePlan, collect?: () => void): Promise<Pixels> {
  const chunks = readChunks(bytes, h.colorType!);
  if (chunks.data.length === 0) throw new ImageFormatError("the PNG has no image data");
  if (h.colorType === 3 && !chunks.palette) throw new ImageFormatError("the PNG's palette is missing");
  const bits = CHANNELS[h.colorType!]! * h.bitDepth!;
  const bpp = Math.max(1, bits >> 3);
  const box = new BoxFilter(h.width, h.height, plan.width, plan.height, plan.order);
  const passes = (h.interlaced ? ADAM7 : SINGLE)
    .map((p) => ({ ...p, w: Math.ceil((h.width - p.x0) / p.dx), rows: Math.ceil((h.height - p.y0) / p.dy) }))
    .filter((p) => p.w > 0 && p.rows > 0);
  const widest = Math.ceil((h.width * bits) / 8);
  let cur = new Uint8Array(widest + 1);
  let prev = new Uint8Array(widest + 1);
  const rgba = new Uint8Array(h.width * 4);
  let pass = 0;
  let row = 0;
  let filled = 0;
  let inflated = 0;
  const rowLength = () => Math.ceil((passes[pass]!.w * bits) / 8) + 1;

  /** Takes inflated bytes; true once the last row of the last pass is done. */
  const take = (data: Uint8Array): boolean => {
    let at = 0;
    while (at < data.length && pass < passes.length) {
      const need = rowLength();
      const n = Math.min(need - filled, data.length - at);
      cur.set(data.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled < need) break;
      const p = passes[pass]!;
      const line = cur.subarray(1, need);
      unfilter(cur[0]!, line, prev.subarray(1, need), bpp);
      box.addRow(p.y0 + row * p.dy, toRgba(h, chunks, line, p.w, rgba), p.x0, p.dx, p.w);
      [cur, prev] = [prev, cur];
      filled = 0;
      if (++row === p.rows) {
        pass++;
        row = 0;
        prev.fill(0);
      }
    }
    return pass === passes.length;
  };

  return new Promise<Pixels>((resolve, reject) => {
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    let done = false;
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      inflate.destroy();
      if (err === undefined) resolve(box.finish());
      else reject(err instanceof ImageFormatError ? err : new ImageFormatError(`the PNG's image data is broken: ${(err as Error).message}`));
    };
    inflate.on("data", (data: Buffer) => {
      inflated += data.length;
      if (collect && inflated >= COLLECT_EVERY) {
        inflated = 0;
        collect();
      }
      try {
        if (take(data)) finish();
      } catch (err) {
        finish(err);
      }
    });
    inflate.on("error", (err) => finish(err));
    inflate.on("end", () => finish(pass === passes.length ? undefined : new ImageFormatError("the PNG's image data ends early")));
    for (const part of chunks.data) inflate.write(part);
    inflate.end();
  });
}
