/**
 * Images the terminal draws (kitty, iTerm2, sixel) go over rows the layout
 * left blank, written after each frame: Ink measures text, and an image
 * escape inside a Text would be counted as characters. The message pane
 * registers where its images are (relative to its own box); right after a
 * frame is written, `overlayAfterFrame` gives the bytes that draw them there:
 * save the cursor, move to each image's top-left cell, the image, restore.
 *
 * The hook point for the frame writer is one call: after writing a frame of
 * `height` lines with the cursor left at column 0 of the line below it, write
 * `overlayAfterFrame(height)` (an empty string when there is nothing to draw).
 * `withImageOverlay(stdout)` does that for Ink's own writer.
 */
import type { DOMElement } from "ink";
import type { GraphicsMode } from "./graphics.js";

export interface Placement {
  /** Rows and columns from the top-left of the registered box. */
  top: number;
  left: number;
  cols: number;
  rows: number;
  /**
   * The escapes that draw the image at the cursor (made from pixels we decoded), or undefined when not
   * ready: `once` is written the first time `key` is drawn (kitty: the pixels), `each` on every frame.
   */
  draw: () => { key: string; once?: string; each: string } | undefined;
}

interface Source {
  node: () => DOMElement | null | undefined;
  placements: Placement[];
  mode: GraphicsMode;
}

const sources = new Map<number, Source>();
let nextId = 1;
let kittyShown = false;
/** The last overlay skipped a box not attached yet: worth drawing again once it is. */
let unplaced = false;
const sentOnce = new Set<string>();

export function newOverlaySource(): number {
  return nextId++;
}

export function setOverlaySource(id: number, source: Source): void {
  sources.set(id, source);
}

export function removeOverlaySource(id: number): void {
  sources.delete(id);
}

/** Forgets what was drawn (tests; or a terminal reset). */
export function resetOverlay(): void {
  sources.clear();
  sentOnce.clear();
  kittyShown = false;
}

/** Where a box is in the frame: its computed offset summed up through its parents. */
export function frameOffset(node: DOMElement | null | undefined): { top: number; left: number } | undefined {
  let top = 0;
  let left = 0;
  let n: DOMElement | undefined = node ?? undefined;
  if (!n?.yogaNode) return undefined;
  while (n) {
    if (n.yogaNode) {
      top += n.yogaNode.getComputedTop();
      left += n.yogaNode.getComputedLeft();
    }
    n = n.parentNode;
  }
  return { top: Math.round(top), left: Math.round(left) };
}

/** Kitty: delete every placement on screen (the pixels stay, under their ids). */
const KITTY_CLEAR = "\x1b_Ga=d,d=a,q=2\x1b\\";
const SAVE = "\x1b7";
const RESTORE = "\x1b8";

/**
 * The bytes that draw the registered images over a frame just written
 * (`height` lines, the cursor at column 0 of the line below it).
 */
export function overlayAfterFrame(height: number): string {
  let out = "";
  let kitty = false;
  unplaced = false;
  for (const s of sources.values()) {
    const at = frameOffset(s.node());
    if (!at) {
      // A box mounted with this very frame has no node yet (React attaches it after Ink wrote).
      unplaced ||= s.placements.length > 0;
      continue;
    }
    for (const p of s.placements) {
      const top = at.top + p.top;
      const left = at.left + p.left;
      if (top < 0 || top + p.rows > height) continue;
      const image = p.draw();
      if (!image) continue;
      if (s.mode === "kitty") kitty = true;
      const once = sentOnce.has(image.key) ? "" : (image.once ?? "");
      sentOnce.add(image.key);
      const up = height - top;
      out += `${up > 0 ? `\x1b[${up}A` : ""}\r${left > 0 ? `\x1b[${left}C` : ""}${once}${image.each}${RESTORE}${SAVE}`;
    }
  }
  // Kitty keeps placements across redraws: clear the last frame's before placing this one's.
  const clear = kitty || kittyShown ? KITTY_CLEAR : "";
  kittyShown = kitty;
  if (!out && !clear) return "";
  return `${SAVE}${clear}${out}${RESTORE}`;
}

interface Writable {
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean;
}

/**
 * Ink's writer: every write that ends a frame (the erase of the previous one,
 * the new frame and its final newline) is followed by the overlay.
 */
export function withImageOverlay<T extends Writable>(stdout: T): T {
  const write = stdout.write.bind(stdout);
  let writes = 0;
  return new Proxy(stdout, {
    get(target, prop, receiver) {
      if (prop === "write") {
        return (chunk: string | Uint8Array, ...rest: unknown[]) => {
          const ok = write(chunk, ...rest);
          // Ending a synchronized update leaves the cursor where it was.
          if (chunk !== "\x1b[?2026l") writes++;
          const frame = writes;
          if (typeof chunk === "string" && chunk.endsWith("\n") && sources.size > 0) {
            const height = countLines(chunk);
            const extra = overlayAfterFrame(height);
            if (extra) write(extra);
            // Once the new box is attached, and if nothing was written since (the cursor is still below the frame).
            if (unplaced) {
              setImmediate(() => {
                if (writes !== frame) return;
                const again = overlayAfterFrame(height);
                if (again) write(again);
              });
            }
          }
          return ok;
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
