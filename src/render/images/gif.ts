/**
 * GIF, the first image only, row by row: its LZW codes are expanded into one
 * row of colour indices at a time and handed to the box filter as RGBA. The
 * logical screen outside that image stays transparent. Expanding stops when
 * the image's last row is done; codes that make no sense end it early.
 */
import { BoxFilter } from "./box-filter.js";
import type { DecodePlan } from "./budget.js";
import type { ImageHeader } from "./header.js";
import { ImageFormatError, type Pixels } from "./pixels.js";

const u16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);

interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
  interlaced: boolean;
  palette: Uint8Array;
  transparent: number;
  /** Where the LZW minimum code size byte is. */
  data: number;
}

function firstFrame(b: Uint8Array): Frame {
  const flags = b[10]!;
  let palette: Uint8Array | undefined;
  let i = 13;
  if (flags & 0x80) {
    const size = 3 << ((flags & 7) + 1);
    palette = b.subarray(i, i + size);
    i += size;
  }
  let transparent = -1;
  while (i < b.length) {
    const block = b[i]!;
    if (block === 0x21) {
      // Graphic control extension: the transparent index, when its flag is set.
      if (b[i + 1] === 0xf9 && b[i + 2]! >= 4 && b[i + 3]! & 1) transparent = b[i + 6]!;
      i += 2;
      while (i < b.length && b[i] !== 0) i += b[i]! + 1;
      i++;
      continue;
    }
    if (block !== 0x2c || i + 10 > b.length) break;
    const f = b[i + 9]!;
    let at = i + 10;
    if (f & 0x80) {
      const size = 3 << ((f & 7) + 1);
      palette = b.subarray(at, at + size);
      at += size;
    }
    if (!palette) throw new ImageFormatError("the GIF has no colour table");
    return { x: u16(b, i + 1), y: u16(b, i + 3), width: u16(b, i + 5), height: u16(b, i + 7), interlaced: (f & 0x40) !== 0, palette, transparent, data: at };
  }
  throw new ImageFormatError("the GIF has no image");
}

/** The screen row of the `n`th row of an interlaced image `height` rows high (passes of 8, 8, 4 and 2). */
function interlacedRow(n: number, height: number): number {
  const passes = [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ] as const;
  for (const [start, step] of passes) {
    const rows = Math.ceil((height - start) / step);
    if (n < rows) return start + n * step;
    n -= rows;
  }
  return height;
}

export function decodeGif(b: Uint8Array, h: ImageHeader, plan: DecodePlan): Pixels {
  const f = firstFrame(b);
  const box = new BoxFilter(h.width, h.height, plan.width, plan.height, plan.order);
  // Rows below the screen are never drawn: a non-interlaced image stops there.
  const rows = f.interlaced ? f.height : Math.max(0, Math.min(f.height, h.height - f.y));
  if (f.width * rows > 4 * h.width * h.height + 1_000_000) throw new ImageFormatError("the GIF's image is far larger than its screen");
  const visible = Math.max(0, Math.min(f.width, h.width - f.x));
  // The colour of each index as RGBA: the transparent one, and any past the table, clear.
  const colours = new Uint8Array(256 * 4);
  for (let i = 0; i * 3 + 2 < f.palette.length && i < 256; i++) {
    if (i !== f.transparent) colours.set([f.palette[i * 3]!, f.palette[i * 3 + 1]!, f.palette[i * 3 + 2]!, 255], i * 4);
  }
  const indices = new Uint8Array(Math.max(1, f.width));
  const rgba = new Uint8Array(Math.max(1, visible) * 4);
  let x = 0;
  let row = 0;

  /** Takes `n` indices from `stack`, sending each row to the box filter as it fills. */
  const take = (n: number) => {
    for (let k = 0; k < n && row < rows; ) {
      const count = Math.min(n - k, f.width - x);
      indices.set(stack.subarray(k, k + count), x);
      x += count;
      k += count;
      if (x < f.width) break;
      for (let i = 0; i < visible; i++) {
        const c = indices[i]! * 4;
        const o = i * 4;
        rgba[o] = colours[c]!;
        rgba[o + 1] = colours[c + 1]!;
        rgba[o + 2] = colours[c + 2]!;
        rgba[o + 3] = colours[c + 3]!;
      }
      box.addRow(f.y + (f.interlaced ? interlacedRow(row, f.height) : row), rgba, f.x, 1, visible);
      x = 0;
      row++;
    }
  };

  const minSize = b[f.data]!;
  if (minSize < 1 || minSize > 11) throw new ImageFormatError("the GIF's image data is broken");
  // The codes' bytes come in sub-blocks of up to 255, each after its length.
  let pos = f.data + 1;
  let blockEnd = pos;
  const nextByte = (): number => {
    if (pos >= blockEnd) {
      if (pos >= b.length || b[pos] === 0) return -1;
      blockEnd = pos + 1 + b[pos]!;
      pos++;
    }
    return pos < b.length ? b[pos++]! : -1;
  };

  const clear = 1 << minSize;
  const end = clear + 1;
  const prefix = new Int16Array(4096);
  const suffix = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const length = new Uint16Array(4096);
  const stack = new Uint8Array(4096);
  for (let c = 0; c < clear; c++) {
    prefix[c] = -1;
    suffix[c] = first[c] = c;
    length[c] = 1;
  }
  let size = minSize + 1;
  let next = end + 1;
  let prev = -1;
  let bits = 0;
  let count = 0;
  while (row < rows) {
    while (count < size) {
      const byte = nextByte();
      if (byte < 0) break;
      bits |= byte << count;
      count += 8;
    }
    if (count < size) break; // the data ran out
    const code = bits & ((1 << size) - 1);
    bits >>>= size;
    count -= size;
    if (code === clear) {
      size = minSize + 1;
      next = end + 1;
      prev = -1;
      continue;
    }
    if (code === end || code > next || (code === next && prev < 0)) break;
    if (prev >= 0 && next < 4096) {
      // The new string is the previous one and the first symbol of this one (or of itself, when it is this one).
      prefix[next] = prev;
      suffix[next] = code === next ? first[prev]! : first[code]!;
      first[next] = first[prev]!;
      length[next] = length[prev]! + 1;
      next++;
      if (next === 1 << size && size < 12) size++;
    }
    const n = length[code]!;
    for (let c = code, at = n - 1; at >= 0; c = prefix[c]!, at--) stack[at] = suffix[c]!;
    take(n);
    prev = code;
  }
  return box.finish();
}
