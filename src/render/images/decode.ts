/**
 * Image files to pixels at the size they will be drawn: PNG, JPEG and GIF (the
 * first frame) by our own decoders, row by row into a box filter; WebP by
 * libwebp in WebAssembly. The format comes from the file's signature, never
 * its name or the server's content type, and the header decides, before any
 * pixel memory is allocated, whether the image fits the budget (budget.ts).
 */
import { planDecode } from "./budget.js";
import { decodeGif } from "./gif.js";
import { readImageHeader, type ImageHeader } from "./header.js";
import { decodeJpeg } from "./jpeg.js";
import { ImageFormatError, type Pixels } from "./pixels.js";
import { decodePng } from "./png.js";

export interface DecodedImage extends Pixels {
  /** What the file's header says (its full size among it). */
  source: ImageHeader;
}

/**
 * Decodes an image file into at most `maxWidth`×`maxHeight` (its own size
 * when smaller, its aspect kept). An unknown or broken file is an
 * ImageFormatError with one line saying why; one over the budget an
 * ImageTooLargeError (a kind of ImageFormatError) naming its size.
 */
export interface DecodeOptions {
  /** Asks for a garbage collection (the decoder's thread has one): decoders that make garbage outside the heap call it. */
  collect?: () => void;
}

export async function decodeImage(bytes: Uint8Array, maxWidth = Infinity, maxHeight = Infinity, o: DecodeOptions = {}): Promise<DecodedImage> {
  const header = readImageHeader(bytes);
  if (!header) throw new ImageFormatError("not an image in a known format (PNG, JPEG, GIF, WebP)");
  const plan = planDecode(header, bytes.byteLength, maxWidth, maxHeight);
  try {
    let pixels: Pixels;
    switch (header.kind) {
      case "png":
        pixels = await decodePng(bytes, header, plan, o.collect);
        break;
      case "jpeg":
        pixels = decodeJpeg(bytes, header, plan);
        break;
      case "gif":
        pixels = decodeGif(bytes, header, plan);
        break;
      case "webp":
        pixels = (await import("./webp.js")).decodeWebp(bytes, header, plan);
        break;
    }
    return { ...pixels, source: header };
  } catch (err) {
    if (err instanceof ImageFormatError) throw err;
    const line = (err instanceof Error ? err.message : String(err)).split("\n")[0];
    throw new ImageFormatError(`${header.kind.toUpperCase()} image could not be decoded: ${line}`);
  }
}
