/**
 * Decoded images as plain RGBA pixels, and scaling them to a box of cells.
 * Everything drawn on the terminal is made from these pixels by our own
 * encoders: no byte of an image file ever reaches the terminal as it came.
 */

export interface Pixels {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel, rows top to bottom. */
  data: Uint8Array;
}

export class ImageFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageFormatError";
  }
}

/** The size that fits `w`×`h` into `maxW`×`maxH` keeping the aspect ratio; never larger than the image, at least 1×1. */
export function fitSize(w: number, h: number, maxW: number, maxH: number): { width: number; height: number } {
  const scale = Math.min(1, maxW / w, maxH / h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/** Scales to exactly `width`×`height` by averaging the source pixels under each target pixel (alpha-weighted). */
export function resize(src: Pixels, width: number, height: number): Pixels {
  if (src.width === width && src.height === height) return src;
  const out = new Uint8Array(width * height * 4);
  for (let ty = 0; ty < height; ty++) {
    const y0 = Math.floor((ty * src.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((ty + 1) * src.height) / height));
    for (let tx = 0; tx < width; tx++) {
      const x0 = Math.floor((tx * src.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((tx + 1) * src.width) / width));
      let r = 0, g = 0, b = 0, a = 0, n = 0;
      // Large reductions sample a bounded grid of the source box.
      const stepY = Math.max(1, Math.floor((y1 - y0) / 8));
      const stepX = Math.max(1, Math.floor((x1 - x0) / 8));
      for (let y = y0; y < y1; y += stepY) {
        for (let x = x0; x < x1; x += stepX) {
          const i = (y * src.width + x) * 4;
          const alpha = src.data[i + 3]!;
          r += src.data[i]! * alpha;
          g += src.data[i + 1]! * alpha;
          b += src.data[i + 2]! * alpha;
          a += alpha;
          n++;
        }
      }
      const o = (ty * width + tx) * 4;
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
      out[o + 3] = Math.round(a / n);
    }
  }
  return { width, height, data: out };
}

/** The pixel at (x, y) blended over `bg` (for terminals without transparency). */
export function pixelOver(p: Pixels, x: number, y: number, bg: readonly [number, number, number]): [number, number, number] {
  const i = (y * p.width + x) * 4;
  const a = p.data[i + 3]! / 255;
  return [
    Math.round(p.data[i]! * a + bg[0] * (1 - a)),
    Math.round(p.data[i + 1]! * a + bg[1] * (1 - a)),
    Math.round(p.data[i + 2]! * a + bg[2] * (1 - a)),
  ];
}
