/**
 * Image files to pixels: PNG (pngjs), JPEG (jpeg-js), GIF (omggif, the first
 * frame) and WebP (libwebp in WebAssembly), chosen by the file's signature,
 * never by its name or the server's content type. Sizes are checked from the
 * headers before any pixel memory is allocated.
 */
import { ImageFormatError, MAX_PIXELS, type Pixels } from "./pixels.js";

export type ImageKind = "png" | "jpeg" | "gif" | "webp";

export function sniff(b: Uint8Array): ImageKind | undefined {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "gif";
  if (b.length >= 16 && String.fromCharCode(...b.subarray(0, 4)) === "RIFF" && String.fromCharCode(...b.subarray(8, 12)) === "WEBP") return "webp";
  return undefined;
}

function checkSize(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new ImageFormatError("the image has no pixels");
  if (width * height > MAX_PIXELS) throw new ImageFormatError(`image too large (${width}×${height})`);
}

async function decodePng(bytes: Uint8Array): Promise<Pixels> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < 24) throw new ImageFormatError("truncated PNG");
  checkSize(view.readUInt32BE(16), view.readUInt32BE(20));
  const mod = await import("pngjs");
  // A CommonJS module: its exports are on `default` once bundled.
  const PNG = (mod.PNG ?? (mod as unknown as { default: typeof mod }).default.PNG) as typeof mod.PNG;
  const png = PNG.sync.read(view);
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
}

async function decodeJpeg(bytes: Uint8Array): Promise<Pixels> {
  const jpeg = await import("jpeg-js");
  const decode = (jpeg.decode ?? jpeg.default?.decode) as typeof jpeg.decode;
  const img = decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1e6, maxMemoryUsageInMB: 512 });
  checkSize(img.width, img.height);
  return { width: img.width, height: img.height, data: img.data };
}

async function decodeGif(bytes: Uint8Array): Promise<Pixels> {
  const gif = await import("omggif");
  const Reader = (gif.GifReader ?? (gif as unknown as { default: typeof gif }).default.GifReader) as typeof gif.GifReader;
  const reader = new Reader(bytes);
  checkSize(reader.width, reader.height);
  if (reader.numFrames() < 1) throw new ImageFormatError("the GIF has no frames");
  const data = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, data);
  return { width: reader.width, height: reader.height, data };
}

/** Decodes an image file; an unknown or broken file is an ImageFormatError with one line saying why. */
export async function decodeImage(bytes: Uint8Array): Promise<Pixels> {
  const kind = sniff(bytes);
  try {
    switch (kind) {
      case "png":
        return await decodePng(bytes);
      case "jpeg":
        return await decodeJpeg(bytes);
      case "gif":
        return await decodeGif(bytes);
      case "webp":
        return (await import("./webp.js")).decodeWebp(bytes);
      default:
        throw new ImageFormatError("not an image in a known format (PNG, JPEG, GIF, WebP)");
    }
  } catch (err) {
    if (err instanceof ImageFormatError) throw err;
    const line = (err instanceof Error ? err.message : String(err)).split("\n")[0];
    throw new ImageFormatError(`${kind?.toUpperCase()} image could not be decoded: ${line}`);
  }
}
