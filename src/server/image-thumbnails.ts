// Thumbnails of uploaded images, as the service makes them (its behaviour since feature level
// 273): the formats it lists in `server_thumbnail_formats`, served at
// /user_uploads/thumbnail/<path of the file>/<format name>, made on the first request and kept.
// - Formats are named `<max width>x<max height>[-anim].<extension>`; the service makes WebP at
//   840×560, one still and (for animated images only) one animated.
// - A thumbnail fits the image inside the format's size without enlarging it.
// - Image-bomb limits: no thumbnail of a still image over 90 million pixels, nor of an
//   animation whose first three frames exceed 30 million; an animation's thumbnail keeps as
//   many frames as fit in 30 million pixels.
// - Only files whose content type is an image type the service thumbnails, and whose header
//   reads as such an image, are thumbnailed; anything else, or a name that is not a format,
//   is not found. A format not listed but made earlier is served; an unlisted one that was
//   never made gets the closest format made (same animation, same extension, nearest width).

import { imageInfo, THUMBNAIL_ACCEPT_TYPES, type ImageInfo } from "./image-info.js";
import { decodeStill, gifFrames, shrink, shrunkSize } from "./image-pixels.js";
import type { Upload } from "./uploads.js";
import { encodeAnimatedWebp, encodeWebp } from "./webp-lossless.js";

export interface ThumbnailFormat {
  name: string;
  max_width: number;
  max_height: number;
  format: string;
  animated: boolean;
}

export const IMAGE_BOMB_TOTAL_PIXELS = 90_000_000;
export const IMAGE_MAX_ANIMATED_PIXELS = IMAGE_BOMB_TOTAL_PIXELS / 3;

function format(maxWidth: number, maxHeight: number, animated: boolean, extension: string): ThumbnailFormat {
  return { name: `${maxWidth}x${maxHeight}${animated ? "-anim" : ""}.${extension}`, max_width: maxWidth, max_height: maxHeight, format: extension, animated };
}

/** The service's formats, in its order (the first of each kind is the one its HTML names). */
export const THUMBNAIL_FORMATS: readonly ThumbnailFormat[] = [format(840, 560, true, "webp"), format(840, 560, false, "webp")];

/** A format name (`300x200.webp`, `840x560-anim.webp`) as a format, or undefined. */
export function parseFormat(name: string): ThumbnailFormat | undefined {
  const m = /^(\d+)x(\d+)(-anim)?\.(\w+)$/.exec(name);
  return m ? format(Number(m[1]), Number(m[2]), m[3] !== undefined, m[4]!) : undefined;
}

interface Made {
  format: ThumbnailFormat;
  bytes: Buffer;
  width: number;
  height: number;
}

interface Record {
  /** Undefined: not an image the service would thumbnail. */
  info: ImageInfo | undefined;
  made: Map<string, Made>;
}

const records = new WeakMap<Upload, Record>();

/** The image facts the service keeps of an upload (what its thumbnails and HTML are made from), or undefined. */
export function thumbnailable(upload: Upload): ImageInfo | undefined {
  return recordOf(upload).info;
}

function recordOf(upload: Upload): Record {
  let r = records.get(upload);
  if (!r) {
    let info = THUMBNAIL_ACCEPT_TYPES.has(upload.contentType) ? imageInfo(upload.bytes) : undefined;
    const pixels = info ? info.width * info.height : 0;
    if (info && info.frames === 1 && pixels > IMAGE_BOMB_TOTAL_PIXELS) info = undefined;
    if (info && info.frames > 1 && pixels * Math.min(3, info.frames) > IMAGE_MAX_ANIMATED_PIXELS) info = undefined;
    r = { info, made: new Map() };
    records.set(upload, r);
  }
  return r;
}

/** The formats made of an image: still ones always, animated ones only of animations. */
function formatsFor(info: ImageInfo, formats: readonly ThumbnailFormat[]): ThumbnailFormat[] {
  return formats.filter((f) => !f.animated || info.frames > 1);
}

function render(upload: Upload, info: ImageInfo, f: ThumbnailFormat): Made {
  const size = shrunkSize(info.width, info.height, f.max_width, f.max_height);
  if (f.animated && info.format === "gif") {
    const frames = gifFrames(upload.bytes, Math.max(1, Math.floor(IMAGE_MAX_ANIMATED_PIXELS / (info.width * info.height))));
    const bytes = encodeAnimatedWebp(size.width, size.height, frames.map((fr) => ({ rgba: shrink(fr.image, size.width, size.height).data, duration: fr.delayMs })), 0);
    return { format: f, bytes, ...size };
  }
  const still = shrink(decodeStill(upload.bytes, info), size.width, size.height);
  return { format: f, bytes: encodeWebp(still.width, still.height, still.data), ...size };
}

/** Makes every format of the image not made yet; an image that cannot be decoded gets none (and never will). */
function ensure(upload: Upload, r: Record, formats: readonly ThumbnailFormat[]): void {
  if (!r.info) return;
  try {
    for (const f of formatsFor(r.info, formats)) if (!r.made.has(f.name)) r.made.set(f.name, render(upload, r.info, f));
  } catch {
    if (r.made.size === 0) r.info = undefined;
  }
}

/** The thumbnail served for `name`, or undefined (not found). */
export function thumbnailOf(upload: Upload, name: string, formats: readonly ThumbnailFormat[]): Made | undefined {
  const r = recordOf(upload);
  const requested = parseFormat(name);
  if (!r.info || !requested) return undefined;
  const potential = formatsFor(r.info, formats);
  if (potential.some((f) => f.name === requested.name)) {
    ensure(upload, r, formats);
    return r.made.get(requested.name);
  }
  if (r.made.has(requested.name)) return r.made.get(requested.name);
  if (r.made.size === 0) return undefined;
  // The closest made: the same animation first, then the same extension, the nearest width, the fewest bytes.
  const grade = (m: Made) => [m.format.animated !== requested.animated ? 1 : 0, m.format.format !== requested.format ? 1 : 0, Math.abs(m.format.max_width - requested.max_width), m.bytes.length];
  const compare = (a: number[], b: number[]) => a.map((v, i) => v - b[i]!).find((d) => d !== 0) ?? 0;
  return [...r.made.values()].sort((a, b) => compare(grade(a), grade(b)))[0];
}
