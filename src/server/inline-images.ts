// The <img> of an uploaded image's preview in rendered messages, as the service writes it once
// the image is thumbnailed: its source is the default thumbnail (the first listed format of the
// image's kind, animated or still), with the original's size in `data-original-dimensions`
// (feature level 276), its content type in `data-original-content-type` (level 336) and
// `data-animated="true"` for animations. Files that are not images the service thumbnails
// keep the original as the source.

import { escapeHtml } from "./escape-html.js";
import type { ThumbnailFormat } from "./image-thumbnails.js";
import { thumbnailable } from "./image-thumbnails.js";
import type { State } from "./state.js";
import { uploadStore } from "./uploads.js";

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };

/** The attributes of the preview's <img> for a link to `href` (`/user_uploads/…`, as escaped in the HTML). */
export function inlineImageAttributes(state: State, formats: readonly ThumbnailFormat[], href: string): string {
  const plain = `src="${href}"`;
  if (formats.length === 0) return plain;
  let pathId: string;
  try {
    pathId = decodeURIComponent(href.slice("/user_uploads/".length).replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!));
  } catch {
    return plain;
  }
  const upload = uploadStore(state).byPath.get(pathId);
  const info = upload && thumbnailable(upload);
  if (!upload || !info) return plain;
  const animated = info.frames > 1;
  const chosen = formats.find((f) => f.animated === animated) ?? formats[0]!;
  const src = `/user_uploads/thumbnail/${href.slice("/user_uploads/".length)}/${chosen.name}`;
  const attrs = [`data-original-content-type="${escapeHtml(upload.contentType)}"`, `data-original-dimensions="${info.width}x${info.height}"`, `src="${src}"`];
  if (chosen.animated) attrs.push(`data-animated="true"`);
  return attrs.join(" ");
}
