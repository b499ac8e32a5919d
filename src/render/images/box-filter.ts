/**
 * Downscaling while decoding: a decoder hands over its rows as it makes
 * them, and each source pixel is added to the one target pixel whose box
 * covers it. Nothing the size of the source is ever held: rows that arrive
 * in order need the sums of one target row; rows that arrive out of order
 * (interlaced PNG and GIF) need the sums of the whole target, which the
 * budget keeps small.
 *
 * Target column `tx` covers source columns [⌊tx·W/w⌋, ⌊(tx+1)·W/w⌋), and
 * rows likewise. A target pixel's colour is the alpha-weighted mean of its
 * box, its alpha the mean alpha over the box's area: pixels never added
 * (outside a GIF's first frame, rows missing from a short file) count as
 * transparent.
 */
import type { Pixels } from "./pixels.js";

export type RowOrder = "in-order" | "any-order";

export class BoxFilter {
  readonly data: Uint8Array;
  /** Per target pixel: Σ r·a, Σ g·a, Σ b·a, Σ a. One target row (in order) or all of them. */
  private readonly sums: Float64Array;
  /** In order: the target row being summed. */
  private row = 0;

  constructor(
    readonly srcWidth: number,
    readonly srcHeight: number,
    readonly width: number,
    readonly height: number,
    private readonly order: RowOrder,
  ) {
    if (width > srcWidth || height > srcHeight || width < 1 || height < 1) throw new RangeError(`cannot box ${srcWidth}×${srcHeight} into ${width}×${height}`);
    this.data = new Uint8Array(width * height * 4);
    this.sums = new Float64Array(width * 4 * (order === "in-order" ? 1 : height));
  }

  /** Bytes the filter holds for a target of `width`×`height`. */
  static bytes(width: number, height: number, order: RowOrder): number {
    return width * height * 4 + width * 32 * (order === "in-order" ? 1 : height);
  }

  private colStart(tx: number): number {
    return Math.floor((tx * this.srcWidth) / this.width);
  }

  private rowStart(ty: number): number {
    return Math.floor((ty * this.srcHeight) / this.height);
  }

  /** The target column whose box holds source column `x` (the largest tx with colStart(tx) ≤ x). */
  private colOf(x: number): number {
    return Math.floor(((x + 1) * this.width - 1) / this.srcWidth);
  }

  private rowOf(y: number): number {
    return Math.floor(((y + 1) * this.height - 1) / this.srcHeight);
  }

  /**
   * Adds `count` RGBA pixels of source row `y`, for columns x0, x0+dx, x0+2dx…
   * In in-order mode a row above one already added is ignored.
   */
  addRow(y: number, rgba: Uint8Array, x0 = 0, dx = 1, count = Math.ceil((this.srcWidth - x0) / dx)): void {
    if (y < 0 || y >= this.srcHeight || count <= 0) return;
    const ty = this.rowOf(y);
    let base = 0;
    if (this.order === "in-order") {
      if (ty < this.row) return;
      while (this.row < ty) this.flushRow();
    } else {
      base = ty * this.width * 4;
    }
    const sums = this.sums;
    let tx = this.colOf(x0);
    let end = this.colStart(tx + 1);
    let r = 0;
    let g = 0;
    let b = 0;
    let a = 0;
    let x = x0;
    const n = Math.min(count, Math.ceil((this.srcWidth - x0) / dx));
    for (let i = 0, p = 0; i < n; i++, p += 4, x += dx) {
      if (x >= end) {
        const o = base + tx * 4;
        sums[o] = sums[o]! + r;
        sums[o + 1] = sums[o + 1]! + g;
        sums[o + 2] = sums[o + 2]! + b;
        sums[o + 3] = sums[o + 3]! + a;
        r = g = b = a = 0;
        tx = this.colOf(x);
        end = this.colStart(tx + 1);
      }
      const alpha = rgba[p + 3]!;
      if (alpha !== 0) {
        r += rgba[p]! * alpha;
        g += rgba[p + 1]! * alpha;
        b += rgba[p + 2]! * alpha;
        a += alpha;
      }
    }
    const o = base + tx * 4;
    sums[o] = sums[o]! + r;
    sums[o + 1] = sums[o + 1]! + g;
    sums[o + 2] = sums[o + 2]! + b;
    sums[o + 3] = sums[o + 3]! + a;
  }

  /** Writes target row `ty` from the sums at `base`. */
  private emit(ty: number, base: number): void {
    const sums = this.sums;
    const out = this.data;
    const boxHeight = this.rowStart(ty + 1) - this.rowStart(ty);
    for (let tx = 0; tx < this.width; tx++) {
      const area = (this.colStart(tx + 1) - this.colStart(tx)) * boxHeight;
      const s = base + tx * 4;
      const o = (ty * this.width + tx) * 4;
      const a = sums[s + 3]!;
      if (a > 0) {
        out[o] = Math.round(sums[s]! / a);
        out[o + 1] = Math.round(sums[s + 1]! / a);
        out[o + 2] = Math.round(sums[s + 2]! / a);
      }
      out[o + 3] = Math.round(a / area);
    }
  }

  private flushRow(): void {
    this.emit(this.row, 0);
    this.sums.fill(0);
    this.row++;
  }

  /** The target's pixels, once every row that will come was added. */
  finish(): Pixels {
    if (this.order === "in-order") while (this.row < this.height) this.flushRow();
    else for (let ty = 0; ty < this.height; ty++) this.emit(ty, ty * this.width * 4);
    return { width: this.width, height: this.height, data: this.data };
  }
}

/** Boxes whole pixels (already decoded) into `width`×`height`. */
export function boxPixels(p: Pixels, width: number, height: number): Pixels {
  if (p.width === width && p.height === height) return p;
  const box = new BoxFilter(p.width, p.height, width, height, "in-order");
  const stride = p.width * 4;
  for (let y = 0; y < p.height; y++) box.addRow(y, p.data.subarray(y * stride, (y + 1) * stride));
  return box.finish();
}
