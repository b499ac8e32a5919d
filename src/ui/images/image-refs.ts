/**
 * The images a message shows: links to uploaded image files in its Markdown
 * (`[name.png](/user_uploads/…)`, or `![alt](…)`), as the service renders
 * them with a preview after the paragraph. Only files of the organization
 * itself; code blocks are skipped.
 */
import type { ThumbnailFormat } from "../../model/register-extra.js";

/** Thumbnail formats as the register response lists them (`server_thumbnail_formats`). */
export type { ThumbnailFormat };

export interface ImageRef {
  /** The path on the organization's server (`/user_uploads/…`). */
  path: string;
  /** The link text (alt text or file name), unsanitized: sanitize before showing. */
  label: string;
}

const IMAGE_FILE = /\.(?:png|jpe?g|gif|webp)$/i;
const MAX_PER_MESSAGE = 4;


/** The file a thumbnail path was made from (`/user_uploads/thumbnail/<file path>/<format>`), or undefined. */
export function originalPath(path: string): string | undefined {
  const m = /^\/user_uploads\/thumbnail\/(.+)\/[^/]+$/.exec(path);
  return m ? `/user_uploads/${m[1]}` : undefined;
}

/**
 * The path to fetch for a preview drawn `drawn` pixels large: the service's
 * thumbnail when the server makes them (`/user_uploads/thumbnail/<file
 * path>/<format name>`), in the smallest still format that covers the drawn
 * size (the largest when none does, or when no size is given), else the file
 * itself. Animated formats are made only of animated images: never asked for.
 */
export function previewPath(path: string, formats: readonly ThumbnailFormat[] | undefined, drawn?: { width: number; height: number }): string {
  const still = (formats ?? []).filter((f) => !f.animated && f.max_width > 0 && f.max_height > 0).sort((a, b) => a.max_width * a.max_height - b.max_width * b.max_height);
  const covering = drawn && still.find((f) => f.max_width >= drawn.width && f.max_height >= drawn.height);
  const chosen = covering ?? still[still.length - 1];
  if (!chosen || path.startsWith("/user_uploads/thumbnail/")) return path;
  return `/user_uploads/thumbnail/${path.slice("/user_uploads/".length)}/${chosen.name}`;
}

function uploadPath(href: string, site: string | undefined): string | undefined {
  let path = href.trim().replace(/^<|>$/g, "");
  if (/^https?:\/\//i.test(path)) {
    if (!site) return undefined;
    try {
      const url = new URL(path);
      if (url.origin !== new URL(site).origin) return undefined;
      path = url.pathname;
    } catch {
      return undefined;
    }
  }
  if (!path.startsWith("/user_uploads/") || path.includes("..")) return undefined;
  const bare = path.split(/[?#]/)[0]!;
  return IMAGE_FILE.test(bare) ? bare : undefined;
}

/** Whether a message's Markdown may link an uploaded image: when not, it has no preview. */
export function mayLinkImages(content: string): boolean {
  return content.includes("/user_uploads/");
}

/** The uploaded images linked from a message's Markdown, in order, each once. */
export function imageRefs(content: string, site?: string): ImageRef[] {
  if (!mayLinkImages(content)) return [];
  const text = content.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
  const refs: ImageRef[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/!?\[([^\]\n]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const path = uploadPath(m[2]!, site);
    if (!path || seen.has(path)) continue;
    seen.add(path);
    refs.push({ path, label: m[1]! });
    if (refs.length >= MAX_PER_MESSAGE) break;
  }
  return refs;
}
