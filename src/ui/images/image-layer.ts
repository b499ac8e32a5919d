/**
 * The pictures over the frames: what the terminal shows besides text, kept in step with the
 * frame writer (a FrameOverlay, src/ui/ink-frame/frame-writer.ts). Each picture is drawn once at
 * its reservation's row and column in the frame Ink laid out (image-sources.ts), and drawn again
 * only when the frame writer wrote into its cells, when it moved, or when it changed.
 *
 * The protocols keep pictures differently, and that decides how one is taken away:
 * - sixel and iTerm2 pictures are cells' content, as text is: text or an erase written into a
 *   cell removes that part of the picture, and a cell a picture covers no longer shows the
 *   frame's text. So the writer is told to write whole the rows a leaving picture covered; and
 *   a picture the writer wrote into is drawn again.
 * - kitty keeps placements apart from text: one is moved or removed by its id, its pixels sent
 *   only once.
 * Rows holding pictures are pinned: the writer moves no block of lines across them, since
 * terminals differ in what such a move does to a picture.
 *
 * The cursor is moved to a picture from where the writer left it (rows from the frame's top
 * line, then the absolute column), and put back with save/restore around the pictures.
 */
import type { FrameOverlay, WrittenCells } from "../ink-frame/frame-writer.js";
import { onTerminalCapabilities } from "../terminal/capabilities.js";
import { cellPixels, sameCell } from "./cell-size.js";
import type { ImageSources, PlannedImage } from "./image-sources.js";

const SAVE = "\x1b7";
const RESTORE = "\x1b8";
const KITTY_PLACEMENT_IDS = 0xffffff;
/**
 * Ink renders at most every 32 ms: a pass that draws pictures without a frame waits this long
 * after the last commit that registered pictures, so that the frame on screen is the one their
 * layout describes.
 */
const SETTLE_MS = 50;

interface Shown extends PlannedImage {
  /** Kitty: this placement's id (one image may be placed twice). */
  placement?: number;
}

/**
 * The cells a picture takes on screen: its reservation, or more for a sixel made for another
 * cell size than the terminal's (drawn before the terminal said its cell size).
 */
function extent(p: PlannedImage): { rows: number; cols: number } {
  const px = p.image.pixels;
  if (!px) return p;
  const cell = cellPixels();
  return { rows: Math.max(p.rows, Math.ceil(px.height / cell.height)), cols: Math.max(p.cols, Math.ceil(px.width / cell.width)) };
}

function rowsOf(p: PlannedImage): number[] {
  return Array.from({ length: extent(p).rows }, (_, i) => p.top + i);
}

function samePlace(a: PlannedImage, b: PlannedImage): boolean {
  return a.image.key === b.image.key && a.top === b.top && a.left === b.left && a.cols === b.cols && a.rows === b.rows;
}

/** Whether the writer wrote or erased a cell of the reservation. */
function writtenOver(p: PlannedImage, written: WrittenCells): boolean {
  if (written === "all") return true;
  const { rows, cols } = extent(p);
  for (let y = p.top; y < p.top + rows; y++) {
    for (const [from, to] of written.get(y) ?? []) if (from < p.left + cols && to > p.left) return true;
  }
  return false;
}

function kittyPlace(id: number, placement: number, cols: number, rows: number): string {
  return `\x1b_Ga=p,i=${id},p=${placement},c=${cols},r=${rows},C=1,q=2\x1b\\`;
}

function kittyDelete(id: number, placement: number): string {
  return `\x1b_Ga=d,d=i,i=${id},p=${placement},q=2\x1b\\`;
}

export class ImageLayer implements FrameOverlay {
  private shown: Shown[] = [];
  private planned: PlannedImage[] = [];
  /** Kitty image ids whose pixels the terminal has. */
  private readonly transmitted = new Set<number>();
  private nextPlacement = 1;
  private redraw: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopListening: (() => void) | undefined;
  /** Frames (and passes) drawn over so far. */
  frames = 0;
  /** The last frame had a source whose box was not in the layout yet. */
  private unplaced = false;
  private lastCommit = 0;
  /** Kitty placements of a screen someone else redrew, to delete with the next frame (they may still show). */
  private orphans = "";

  constructor(private readonly sources: ImageSources) {}

  attach(redraw: () => void): void {
    this.redraw = redraw;
    // Pictures are scaled to the cell size: when the terminal tells it (after the first frames, often), they are made again.
    let cell = cellPixels();
    this.stopListening?.();
    this.stopListening = onTerminalCapabilities(() => {
      if (sameCell(cell, cellPixels())) return;
      cell = cellPixels();
      this.requestRedraw();
    });
  }

  before(next: readonly string[], columns: number): { stale: ReadonlySet<number>; pinned: ReadonlySet<number> } {
    const { planned, unplaced } = this.sources.plan(next.length, columns);
    this.planned = planned;
    this.unplaced = unplaced;
    const stale = new Set<number>();
    const pinned = new Set<number>();
    for (const s of this.shown) {
      for (const y of rowsOf(s)) pinned.add(y);
      if (!s.image.kitty && !planned.some((p) => samePlace(p, s))) for (const y of rowsOf(s)) stale.add(y);
    }
    for (const p of planned) for (const y of rowsOf(p)) pinned.add(y);
    return { stale, pinned };
  }

  after(frame: { lines: readonly string[]; written: WrittenCells; row: number }): string {
    this.frames++;
    const planned = this.planned.filter((p) => p.top + p.rows <= frame.lines.length);
    this.planned = [];
    const taken = new Set<PlannedImage>();
    const next: Shown[] = [];
    let gone = "";
    let drawn = "";
    const draw = (p: PlannedImage, placement?: number) => {
      const shown: Shown = { ...p };
      const move = (p.top < frame.row ? `\x1b[${frame.row - p.top}A` : p.top > frame.row ? `\x1b[${p.top - frame.row}B` : "") + `\x1b[${p.left + 1}G`;
      const kitty = p.image.kitty;
      if (kitty) {
        shown.placement = placement ?? this.newPlacement();
        // The pixels once; then a placement, which replaces the one of the same id wherever it was.
        const pixels = this.transmitted.has(kitty.id) ? "" : kitty.transmit;
        this.transmitted.add(kitty.id);
        drawn += `${pixels}${move}${kittyPlace(kitty.id, shown.placement, p.image.cols, p.image.rows)}${RESTORE}`;
      } else drawn += `${move}${p.image.drawing ?? ""}${RESTORE}`;
      next.push(shown);
    };
    for (const s of this.shown) {
      const p = planned.find((q) => !taken.has(q) && samePlace(q, s));
      if (p) {
        taken.add(p);
        if (writtenOver(s, frame.written)) draw(p, s.placement);
        else next.push(s);
        continue;
      }
      // Leaving: a kitty placement by its id; sixel and iTerm2 went with the rows the writer wrote whole (or erased).
      if (s.image.kitty && s.placement !== undefined) gone += kittyDelete(s.image.kitty.id, s.placement);
    }
    for (const p of planned) if (!taken.has(p)) draw(p);
    this.shown = next;
    gone = this.orphans + gone;
    this.orphans = "";
    return gone + (drawn ? SAVE + drawn : "");
  }

  lost(): void {
    for (const s of this.shown) if (s.image.kitty && s.placement !== undefined) this.orphans += kittyDelete(s.image.kitty.id, s.placement);
    this.shown = [];
    this.planned = [];
  }

  /**
   * Called after each commit by the hooks that register pictures, with the count of frames
   * before their render: when a frame was written in this commit and left a source without its
   * box, the box is attached now and the frame on screen is the one its layout describes.
   */
  committed(framesBeforeRender: number): void {
    this.lastCommit = performance.now();
    if (this.unplaced && this.frames > framesBeforeRender) this.redraw?.();
  }

  /** Draws the pictures over the frame on screen again, once the layout has settled (an encoder or the cell size arrived). */
  requestRedraw(): void {
    if (this.timer || !this.redraw) return;
    const wait = () => {
      const since = performance.now() - this.lastCommit;
      if (since < SETTLE_MS) {
        this.timer = setTimeout(wait, SETTLE_MS - since).unref();
        return;
      }
      this.timer = undefined;
      this.redraw?.();
    };
    this.timer = setTimeout(wait, 0).unref();
  }

  /** Forgets everything (tests; a terminal reset): nothing shown, no pixels sent, not attached. */
  reset(): void {
    this.lost();
    this.orphans = "";
    this.transmitted.clear();
    this.unplaced = false;
    this.redraw = undefined;
    this.stopListening?.();
    this.stopListening = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private newPlacement(): number {
    const id = this.nextPlacement;
    this.nextPlacement = (this.nextPlacement % KITTY_PLACEMENT_IDS) + 1;
    return id;
  }
}
