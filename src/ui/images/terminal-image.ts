/**
 * A decoded image made ready for the terminal to draw over reserved cells, per protocol: the
 * pixels scaled to fill the reservation as measured in the terminal's pixels (cell-size.ts),
 * keeping their proportions, then encoded. The image layer (image-layer.ts) decides where and
 * when it is drawn.
 */
import { resize, type Pixels } from "../../render/images/pixels.js";
import { fitPixels, type CellPixels } from "./cell-size.js";
import type { GraphicsMode } from "./graphics.js";
import { screenImages } from "./screen-images.js";

type Encoders = typeof import("../../render/images/protocols.js");
let encoders: Encoders | undefined;

/** Loads the protocol encoders (pngjs among them) after start-up, only in terminals that draw images. */
export async function loadTerminalEncoders(): Promise<void> {
  if (encoders) return;
  encoders = await import("../../render/images/protocols.js");
  // Pictures that waited for the encoders can be drawn now.
  screenImages().layer.requestRedraw();
}

/** A stable kitty image id for a key (1 … 2^24-1). */
export function kittyId(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % 0xfffffe) + 1;
}

export interface DrawnImage {
  /** What the picture shows at what size: the same key draws the same pixels. */
  key: string;
  /** The cells the pixels cover, from the reservation's top left corner (at most the reservation). */
  cols: number;
  rows: number;
  /** Sixel and iTerm2: the escape that draws the picture at the cursor. */
  drawing?: string;
  /** Sixel: the picture's size in pixels, which decides the cells it covers (the terminal does not fit it to cells). */
  pixels?: { width: number; height: number };
  /** Kitty: the pixels, sent once under `id`; the layer then places and removes them by id. */
  kitty?: { id: number; transmit: string };
}

/** The image for a reservation of `cols`×`rows` cells of `cell` pixels; undefined until the encoders are loaded. */
export function terminalImage(mode: GraphicsMode, p: Pixels, cols: number, rows: number, key: string, cell: CellPixels): DrawnImage | undefined {
  if (!encoders) return undefined;
  const { itermImage, kittyTransmit, sixelImage } = encoders;
  const size = fitPixels(p.width, p.height, cols * cell.width, rows * cell.height);
  const px = resize(p, size.width, size.height);
  const covered = { cols: Math.min(cols, Math.ceil(size.width / cell.width)), rows: Math.min(rows, Math.ceil(size.height / cell.height)) };
  const sized = `${key}@${cols}x${rows}@${cell.width}x${cell.height}`;
  switch (mode) {
    case "kitty": {
      const id = kittyId(sized);
      return { key: `kitty:${sized}`, ...covered, kitty: { id, transmit: kittyTransmit(px, id) } };
    }
    case "iterm":
      return { key: `iterm:${sized}`, ...covered, drawing: itermImage(px, covered.cols, covered.rows) };
    case "sixel":
      return { key: `sixel:${sized}`, ...covered, drawing: sixelImage(px), pixels: size };
    default:
      return undefined;
  }
}
