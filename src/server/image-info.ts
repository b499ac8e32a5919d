// What the server learns of an uploaded image before thumbnailing it, from the file's own
// header (never its name): the format, the size in pixels and the number of frames. The
// service reads the same with libvips when a file is uploaded, and keeps no thumbnail
// metadata for files that are not images it accepts, or that exceed its image-bomb limits.

export type ImageFormat = "png" | "jpeg" | "gif" | "webp";

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
  /** 1 for a still image; the GIF's images, or the animated WebP's frames. */
  frames: number;
}

/** The content types the service thumbnails (of those it accepts, the ones we can decode). */
export const THUMBNAIL_ACCEPT_TYPES = new Set(["image/gif", "image/jpeg", "image/png", "image/webp"]);

function startsWith(b: Buffer, text: string, at = 0): boolean {
  return b.length >= at + text.length && b.toString("latin1", at, at + text.length) === text;
}

function pngInfo(b: Buffer): ImageInfo | undefined {
  if (b.length < 24 || !startsWith(b, "IHDR", 12)) return undefined;
  return { format: "png", width: b.readUInt32BE(16), height: b.readUInt32BE(20), frames: 1 };
}

function jpegInfo(b: Buffer): ImageInfo | undefined {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff || (marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    // SOF0–SOF15, but DHT (c4), JPG (c8) and DAC (cc): a frame header with the size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { format: "jpeg", width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5), frames: 1 };
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    at += 2 + b.readUInt16BE(at + 2);
  }
  return undefined;
}

/** Walks a GIF's blocks, counting its images (sub-block chains skipped). */
function gifInfo(b: Buffer): ImageInfo | undefined {
  if (b.length < 13) return undefined;
  const flags = b[10]!;
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  let frames = 0;
  const skipSubBlocks = () => {
    while (at < b.length && b[at] !== 0) at += 1 + b[at]!;
    at++;
  };
  while (at < b.length) {
    const introducer = b[at];
    if (introducer === 0x3b) break;
    if (introducer === 0x21) {
      at += 2;
      skipSubBlocks();
    } else if (introducer === 0x2c) {
      if (at + 10 > b.length) break;
      const local = b[at + 9]!;
      at += 10 + (local & 0x80 ? 3 * 2 ** ((local & 7) + 1) : 0) + 1; // descriptor, local table, LZW code size
      skipSubBlocks();
      frames++;
    } else break;
  }
  if (frames === 0) return undefined;
  return { format: "gif", width: b.readUInt16LE(6), height: b.readUInt16LE(8), frames };
}

function webpInfo(b: Buffer): ImageInfo | undefined {
  if (b.length < 30) return undefined;
  const kind = b.toString("latin1", 12, 16);
  if (kind === "VP8 ") return { format: "webp", width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff, frames: 1 };
  if (kind === "VP8L") {
    const bits = b.readUInt32LE(21);
    return { format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, frames: 1 };
  }
  if (kind !== "VP8X") return undefined;
  let frames = 0;
  for (let at = 30; at + 8 <= b.length; at += 8 + b.readUInt32LE(at + 4) + (b.readUInt32LE(at + 4) & 1)) {
    if (b.toString("latin1", at, at + 4) === "ANMF") frames++;
  }
  return { format: "webp", width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1, frames: Math.max(1, frames) };
}

/** The file's format, size and frames, or undefined when it is not an image in a format the server reads. */
export function imageInfo(b: Buffer): ImageInfo | undefined {
  let info: ImageInfo | undefined;
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47) info = pngInfo(b);
  else if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) info = jpegInfo(b);
  else if (startsWith(b, "GIF87a") || startsWith(b, "GIF89a")) info = gifInfo(b);
  else if (startsWith(b, "RIFF") && startsWith(b, "WEBP", 8)) info = webpInfo(b);
  return info && info.width > 0 && info.height > 0 ? info : undefined;
}
