/**
 * What decoding one image may cost, decided from its header before a byte of
 * pixels is allocated. Decoding adds at most DECODE_BUDGET_BYTES to the
 * client's resident memory, the decoder's thread included: every decoder
 * here works row by row into a box-filtered target of the size that will be
 * drawn, so what it holds follows the image's width, not its area. A file
 * whose header promises more than that (or more pixels than the service
 * itself would thumbnail) gets no preview: the caller shows its name and size.
 */
import { BoxFilter, type RowOrder } from "./box-filter.js";
import type { ImageHeader } from "./header.js";
import { ImageFormatError, fitSize } from "./pixels.js";

/** What decoding any one image may add to the client's resident memory. */
export const DECODE_BUDGET_BYTES = 32 * 1024 * 1024;
/** The decoder's thread itself: its V8 heap, stack and code (measured 6–10 MiB on Node 20–24). */
export const WORKER_BYTES = 10 * 1024 * 1024;
/** What is left for the file and the decoder's buffers. */
export const WORKING_BYTES = DECODE_BUDGET_BYTES - WORKER_BYTES;
/** No preview above this many pixels: the service's own limit for thumbnailing (its image-bomb check). */
export const MAX_PREVIEW_PIXELS = 90_000_000;
/** Targets summed out of order (interlaced images) keep sums for every target pixel: at most this long a side. */
const ANY_ORDER_SIDE = 512;
/** zlib's window and the chunks of inflated data in flight. */
const INFLATE_BYTES = 512 * 1024;

export class ImageTooLargeError extends ImageFormatError {
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    super(`too large to preview (${width}×${height})`);
    this.name = "ImageTooLargeError";
  }
}

export interface DecodePlan {
  /** The size of the decoded (and box-filtered) image. */
  width: number;
  height: number;
  order: RowOrder;
  /** JPEG: samples per 8×8 block edge (8: full size, 1: one per block). */
  jpegScale?: 1 | 2 | 4 | 8;
  /** JPEG: coefficients kept per block for images whose scans must all be read first (progressive). */
  jpegKept?: 1 | 64;
  /** What the decode holds at its peak, the file included. */
  bytes: number;
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function target(width: number, height: number, maxWidth: number, maxHeight: number, order: RowOrder) {
  const side = order === "any-order" ? ANY_ORDER_SIDE : Infinity;
  return fitSize(width, height, Math.min(maxWidth, side), Math.min(maxHeight, side));
}

/** JPEG: the blocks of each component in the MCU-padded grid, and the frame's largest sampling factors. */
export function jpegGeometry(header: Pick<ImageHeader, "width" | "height" | "components">) {
  const comps = header.components ?? [];
  const hMax = Math.max(1, ...comps.map((c) => c.h));
  const vMax = Math.max(1, ...comps.map((c) => c.v));
  const mcusX = Math.ceil(header.width / (8 * hMax));
  const mcusY = Math.ceil(header.height / (8 * vMax));
  return { hMax, vMax, mcusX, mcusY, blocks: comps.map((c) => mcusX * c.h * mcusY * c.v) };
}

/** Bytes to turn one MCU row of blocks into pixel rows at `scale` samples per block edge. */
export function jpegRowBytes(header: Pick<ImageHeader, "width" | "height" | "components">, scale: number): number {
  const g = jpegGeometry(header);
  const planes = (header.components ?? []).reduce((n, c) => n + g.mcusX * c.h * scale * c.v * scale, 0);
  return planes + Math.ceil((header.width * scale) / 8) * 4 + 64 * 1024;
}

function jpegPlan(h: ImageHeader, file: number, maxWidth: number, maxHeight: number): DecodePlan {
  const fit = target(h.width, h.height, maxWidth, maxHeight, "in-order");
  const scales = [1, 2, 4, 8] as const;
  // The smallest scale whose image still covers the target twice over: each target pixel then
  // averages several of its samples, which sit at the centres of 8/scale-pixel squares.
  let scale = scales.find((s) => Math.ceil((h.width * s) / 8) >= 2 * fit.width && Math.ceil((h.height * s) / 8) >= 2 * fit.height) ?? 8;
  const progressive = h.sof === 0xc2 || h.sof === 0xc6 || h.sof === 0xca || h.sof === 0xce;
  const g = jpegGeometry(h);
  const totalBlocks = g.blocks.reduce((a, b) => a + b, 0);
  const plan = (s: 1 | 2 | 4 | 8, kept: 1 | 64 | undefined): DecodePlan => {
    const w = Math.ceil((h.width * s) / 8);
    const ht = Math.ceil((h.height * s) / 8);
    const t = fitSize(w, ht, fit.width, fit.height);
    const coefficients = kept ? totalBlocks * kept * 2 : 0;
    return { width: t.width, height: t.height, order: "in-order", jpegScale: s, ...(kept && { jpegKept: kept }), bytes: file + coefficients + jpegRowBytes(h, s) + BoxFilter.bytes(t.width, t.height, "in-order") };
  };
  if (!progressive) return plan(scale, undefined);
  // A progressive image's scans are all read before any pixel: its coefficients are kept,
  // all 64 per block, or only the DC one (one sample per block, the AC scans skipped).
  const full = plan(scale === 1 ? 1 : scale, scale === 1 ? 1 : 64);
  if (full.bytes <= WORKING_BYTES) return full;
  scale = 1;
  return plan(1, 1);
}

/**
 * How an image is decoded into at most `maxWidth`×`maxHeight`, or
 * ImageTooLargeError when its header promises more than the budget allows.
 */
export function planDecode(h: ImageHeader, fileBytes: number, maxWidth: number, maxHeight: number): DecodePlan {
  if (h.width * h.height > MAX_PREVIEW_PIXELS) throw new ImageTooLargeError(h.width, h.height);
  let plan: DecodePlan;
  switch (h.kind) {
    case "png": {
      const order: RowOrder = h.interlaced ? "any-order" : "in-order";
      const t = target(h.width, h.height, maxWidth, maxHeight, order);
      const rowBytes = Math.ceil((h.width * (PNG_CHANNELS[h.colorType ?? 6] ?? 4) * (h.bitDepth ?? 8)) / 8) + 1;
      plan = { ...t, order, bytes: fileBytes + INFLATE_BYTES + 2 * rowBytes + 4 * h.width + BoxFilter.bytes(t.width, t.height, order) };
      break;
    }
    case "gif": {
      const order: RowOrder = h.interlaced ? "any-order" : "in-order";
      const t = target(h.width, h.height, maxWidth, maxHeight, order);
      plan = { ...t, order, bytes: fileBytes + 64 * 1024 + 5 * h.width + BoxFilter.bytes(t.width, t.height, order) };
      break;
    }
    case "jpeg":
      plan = jpegPlan(h, fileBytes, maxWidth, maxHeight);
      break;
    case "webp": {
      // libwebp decodes the whole image (its memory holds the file, the pixels and as much again).
      const t = target(h.width, h.height, maxWidth, maxHeight, "in-order");
      plan = { ...t, order: "in-order", bytes: 2 * fileBytes + 8 * h.width * h.height + 1024 * 1024 + BoxFilter.bytes(t.width, t.height, "in-order") };
      break;
    }
  }
  if (plan.bytes > WORKING_BYTES) throw new ImageTooLargeError(h.width, h.height);
  return plan;
}
