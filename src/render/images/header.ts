/**
 * What an image file says about itself before any pixel is decoded: its
 * format (from the signature, never the name or the server's content type)
 * and its size, from the PNG IHDR chunk, the JPEG frame header (SOFn), the
 * GIF logical screen, or the WebP VP8/VP8L/VP8X chunk. Reading it costs a
 * few bytes; the decode budget (budget.ts) is decided from it.
 */
import { ImageFormatError } from "./pixels.js";

export type ImageKind = "png" | "jpeg" | "gif" | "webp";

export interface JpegComponent {
  id: number;
  /** Horizontal and vertical sampling factors (1–4). */
  h: number;
  v: number;
  /** Which quantization table (0–3). */
  tq: number;
}

export interface ImageHeader {
  kind: ImageKind;
  width: number;
  height: number;
  /** PNG: bit depth and colour type. PNG (Adam7) and GIF (the first image): interlaced rows. */
  bitDepth?: number;
  colorType?: number;
  interlaced?: boolean;
  /** JPEG: the frame's marker (0xc0 baseline, 0xc1 extended, 0xc2 progressive) and components. */
  sof?: number;
  components?: JpegComponent[];
  /** WebP: an animation (VP8X's flag). */
  animated?: boolean;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

export function sniff(b: Uint8Array): ImageKind | undefined {
  if (b.length >= 8 && b[0] === 0x89 && ascii(b, 1, 3) === "PNG" && b[4] === 0x0d && b[5] === 0x0a) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 6 && (ascii(b, 0, 6) === "GIF87a" || ascii(b, 0, 6) === "GIF89a")) return "gif";
  if (b.length >= 16 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  return undefined;
}

function png(b: Uint8Array): ImageHeader {
  if (b.length < 29 || ascii(b, 12, 4) !== "IHDR") throw new ImageFormatError("the PNG has no header chunk");
  const colorType = b[25]!;
  const bitDepth = b[24]!;
  const allowed: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
  if (!allowed[colorType]?.includes(bitDepth)) throw new ImageFormatError(`PNG colour type ${colorType} with ${bitDepth}-bit samples is not valid`);
  if (b[26] !== 0 || b[27] !== 0 || b[28]! > 1) throw new ImageFormatError("the PNG uses an unknown compression, filter or interlace method");
  return { kind: "png", width: u32be(b, 16), height: u32be(b, 20), bitDepth, colorType, interlaced: b[28] === 1 };
}

/** JPEG markers that carry a frame header: SOF0–SOF15 but DHT (c4), JPG (c8) and DAC (cc). */
export function isSof(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpeg(b: Uint8Array): ImageHeader {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) throw new ImageFormatError("the JPEG's markers are out of step");
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or a scan before any frame
    const length = u16be(b, i + 2);
    if (length < 2 || i + 2 + length > b.length) break;
    if (isSof(marker)) {
      if (length < 8) break;
      const count = b[i + 9]!;
      if (length < 8 + 3 * count || count === 0) throw new ImageFormatError("the JPEG's frame header is broken");
      const components: JpegComponent[] = [];
      for (let c = 0; c < count; c++) {
        const at = i + 10 + c * 3;
        components.push({ id: b[at]!, h: b[at + 1]! >> 4, v: b[at + 1]! & 15, tq: b[at + 2]! });
      }
      return { kind: "jpeg", width: u16be(b, i + 7), height: u16be(b, i + 5), sof: marker, bitDepth: b[i + 4]!, components };
    }
    i += 2 + length;
  }
  throw new ImageFormatError("the JPEG has no frame header");
}

/** The GIF's logical screen, and whether its first image is interlaced (read from its descriptor). */
function gif(b: Uint8Array): ImageHeader {
  if (b.length < 13) throw new ImageFormatError("the GIF has no screen descriptor");
  let i = 13 + (b[10]! & 0x80 ? 3 << ((b[10]! & 7) + 1) : 0);
  while (i < b.length && b[i] === 0x21) {
    i += 2; // extension introducer and label, then sub-blocks up to an empty one
    while (i < b.length && b[i] !== 0) i += b[i]! + 1;
    i++;
  }
  if (i + 10 > b.length || b[i] !== 0x2c) throw new ImageFormatError("the GIF has no image");
  return { kind: "gif", width: u16le(b, 6), height: u16le(b, 8), interlaced: (b[i + 9]! & 0x40) !== 0 };
}

function webp(b: Uint8Array): ImageHeader {
  if (b.length < 30) throw new ImageFormatError("the WebP has no image header");
  const tag = ascii(b, 12, 4);
  if (tag === "VP8X") return { kind: "webp", width: 1 + u24le(b, 24), height: 1 + u24le(b, 27), animated: (b[20]! & 0x02) !== 0 };
  if (tag === "VP8L") {
    if (b[20] !== 0x2f) throw new ImageFormatError("the lossless WebP's signature is missing");
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { kind: "webp", width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (tag === "VP8 ") {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) throw new ImageFormatError("the lossy WebP's start code is missing");
    return { kind: "webp", width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
  }
  throw new ImageFormatError("not a WebP image this decoder knows");
}

/**
 * The format and size an image file declares. Not an image in a known
 * format: undefined. A known format with a broken header: ImageFormatError.
 */
export function readImageHeader(b: Uint8Array): ImageHeader | undefined {
  const kind = sniff(b);
  if (!kind) return undefined;
  const header = kind === "png" ? png(b) : kind === "jpeg" ? jpeg(b) : kind === "gif" ? gif(b) : webp(b);
  if (!(header.width > 0 && header.height > 0)) throw new ImageFormatError("the image has no pixels");
  return header;
}
