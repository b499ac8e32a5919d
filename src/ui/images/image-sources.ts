/**
 * Where the app wants pictures: each part of the screen that shows some (the message pane, the
 * image viewer) registers a source, its box and the reservations in it. When a frame is written,
 * the image layer asks for the plan: every reservation's place in that frame, taken from the
 * layout Ink computed for it (the box's offset through its parents), not from the bytes written.
 */
import type { DOMElement } from "ink";
import type { DrawnImage } from "./terminal-image.js";

/** A reservation of cells in a source's box, and how to draw its picture (undefined: not ready). */
export interface Placement {
  /** Rows and columns from the top left of the box. */
  top: number;
  left: number;
  cols: number;
  rows: number;
  draw: () => DrawnImage | undefined;
}

export interface ImageSource {
  /** The box's top left cell in the frame; undefined while it is not in the layout. */
  offset: () => { top: number; left: number } | undefined;
  placements: readonly Placement[];
}

/** A picture at its place in a frame: rows and columns from the frame's top left cell. */
export interface PlannedImage {
  top: number;
  left: number;
  /** The reservation's size (the picture may cover less of it). */
  cols: number;
  rows: number;
  image: DrawnImage;
}

export class ImageSources {
  private readonly sources = new Map<number, ImageSource>();
  private nextId = 1;

  add(): number {
    return this.nextId++;
  }

  set(id: number, source: ImageSource): void {
    this.sources.set(id, source);
  }

  remove(id: number): void {
    this.sources.delete(id);
  }

  clear(): void {
    this.sources.clear();
  }

  /**
   * The pictures of a frame of `height` lines and `columns` columns: each reservation wholly
   * inside it and ready to draw. `unplaced`: a source with reservations had no place yet (its box
   * is mounted with this very frame, and React gives it to us only after Ink wrote the frame).
   */
  plan(height: number, columns: number): { planned: PlannedImage[]; unplaced: boolean } {
    const planned: PlannedImage[] = [];
    let unplaced = false;
    for (const s of this.sources.values()) {
      if (s.placements.length === 0) continue;
      const at = s.offset();
      if (!at) {
        unplaced = true;
        continue;
      }
      for (const p of s.placements) {
        const top = at.top + p.top;
        const left = at.left + p.left;
        if (top < 0 || left < 0 || top + p.rows > height || left + p.cols > columns) continue;
        const image = p.draw();
        if (image) planned.push({ top, left, cols: p.cols, rows: p.rows, image });
      }
    }
    return { planned, unplaced };
  }
}

/**
 * Where a box is in the frame: its computed offset summed up through its parents, or undefined
 * when it is not (or no longer) in Ink's tree. A removed box's layout nodes are freed, so the
 * chain up to the root is checked before any of them is read.
 */
export function frameOffset(node: DOMElement | null | undefined): { top: number; left: number } | undefined {
  let n: DOMElement | undefined = node ?? undefined;
  for (let up = n; ; up = up.parentNode) {
    if (!up?.yogaNode) return undefined;
    if (up.nodeName === "ink-root") break;
  }
  let top = 0;
  let left = 0;
  for (; n; n = n.parentNode) {
    top += n.yogaNode!.getComputedTop();
    left += n.yogaNode!.getComputedLeft();
  }
  return { top: Math.round(top), left: Math.round(left) };
}
