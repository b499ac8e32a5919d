/**
 * The lines an image preview takes in a message: a caption (the sanitized
 * link text) and then the image — half-block rows as styled text, or blank
 * rows reserved for an image the terminal draws over them — or, until the
 * image is ready, the caption alone saying so.
 */
import type { Message } from "../../api/schemas/common.js";
import { glyphs, t as tr } from "../../render/glyphs.js";
import { halfBlockLines, halfBlockSize } from "../../render/images/half-blocks.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth } from "../../render/wrap.js";
import type { Line } from "../message-layout.js";
import { drawnByTerminal, type TerminalGraphics } from "./graphics.js";
import { imageRefs, previewPath, type ThumbnailFormat } from "./image-refs.js";
import type { ImagePreviews, TooLarge } from "./image-previews.js";
import { cellPixels } from "./cell-size.js";
import { terminalImage } from "./terminal-image.js";

/** Thumbnails take at most this many rows. */
export const PREVIEW_ROWS = 8;
const MAX_LABEL = 60;

export interface PreviewSetup {
  previews: ImagePreviews;
  graphics: TerminalGraphics;
  /** The organization's URL: absolute links to it count as its files. */
  site?: string;
  /** What the server thumbnails images into: previews fetch the thumbnail, not the file. */
  thumbnailFormats?: readonly ThumbnailFormat[];
  /** Captions without the images (no colour to draw them with). */
  captionsOnly?: boolean;
  /** One cell's size in pixels, when the terminal said it. */
  cellPx?: { width: number; height: number };
}

/** What shows for an image link: its text, or the file's name; sanitized and shortened. */
export function imageLabel(label: string, path: string): string {
  const name = label.trim() || decodeURIComponentSafe(path.split("/").pop() ?? "image");
  const clean = sanitizeInline(name).replace(/\s+/g, " ");
  return [...clean].length > MAX_LABEL ? `${[...clean].slice(0, MAX_LABEL - 1).join("")}${glyphs().ellipsis}` : clean;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The pixels a preview of `cols`×`rows` cells is drawn with: two per cell as half-blocks, the cell's pixels otherwise. */
export function drawnPixels(setup: Pick<PreviewSetup, "graphics" | "cellPx">, cols: number, rows: number): { width: number; height: number } {
  if (!drawnByTerminal(setup.graphics.mode)) return { width: cols, height: rows * 2 };
  const cell = setup.cellPx ?? cellPixels();
  return { width: cols * cell.width, height: rows * cell.height };
}

/** A file's size for people: bytes, KiB or MiB. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** What shows for an image refused before decoding: its name, its size and what can still be done. */
export function tooLargeLine(label: string, t: TooLarge): string {
  return tr`${glyphs().image} ${label} — ${t.width}×${t.height} px, ${fileSize(t.bytes)}: too large to preview (L opens or saves it)`;
}

/** The preview lines of a message's images and a signature of what they show (for the layout cache). */
export function imagePreviewLines(setup: PreviewSetup, m: Message, width: number): { sig: string; lines: Line[] } | undefined {
  if (setup.graphics.mode === "off") return undefined;
  const refs = imageRefs(m.content, setup.site);
  if (refs.length === 0) return undefined;
  const lines: Line[] = [];
  const sig: string[] = [setup.graphics.mode, setup.graphics.depth, setup.captionsOnly ? "c" : ""];
  const maxCols = Math.max(4, Math.min(width - 3, 80));
  for (const ref of refs) {
    const label = imageLabel(ref.label, ref.path);
    const path = previewPath(ref.path, setup.thumbnailFormats, drawnPixels(setup, maxCols, PREVIEW_ROWS));
    const state = setup.previews.get(path);
    sig.push(path, state.status);
    if (state.status === "loading") {
      lines.push({ text: tr`${glyphs().image} ${label} (loading preview…)`, style: "note" });
      continue;
    }
    if (state.status === "failed") {
      lines.push({ text: state.tooLarge ? tooLargeLine(label, state.tooLarge) : `${glyphs().image} ${label} (no preview: ${sanitizeInline(state.error)})`, style: "note" });
      continue;
    }
    lines.push({ text: `${glyphs().image} ${label}`, style: "note" });
    if (setup.captionsOnly) continue;
    const { cols, rows } = halfBlockSize(state.pixels, maxCols, PREVIEW_ROWS);
    if (drawnByTerminal(setup.graphics.mode)) {
      const mode = setup.graphics.mode;
      // Made when drawn, for the cell size of that moment (the terminal may tell it after the layout).
      const draw = () => {
        const cell = cellPixels();
        return setup.previews.rendering(path, `${mode}:${cols}x${rows}:${cell.width}x${cell.height}`, (p) => terminalImage(mode, p, cols, rows, path, cell));
      };
      for (let row = 0; row < rows; row++) lines.push({ text: "", style: "body", image: { path, row, rows, cols, ...(row === 0 && { draw }) } });
      continue;
    }
    const art = setup.previews.rendering(path, `hb:${maxCols}:${setup.graphics.depth}`, (p) => halfBlockLines(p, maxCols, PREVIEW_ROWS, setup.graphics.depth)) ?? [];
    for (const text of art) lines.push({ text, style: "body", ansi: true });
  }
  return { sig: sig.join("\u0001"), lines };
}

/** How wide a caption is (tests and layout checks). */
export function captionWidth(line: Line): number {
  return displayWidth(line.text);
}
