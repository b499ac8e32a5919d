/**
 * The escapes that draw a decoded image over reserved cells, per protocol.
 * The pixels are scaled for the cells first (an assumed cell of 10×20
 * pixels: enough detail, and sixel, which draws pixels as they are, fills
 * about the cells reserved).
 */
import { fitSize, resize, type Pixels } from "../../render/images/pixels.js";
import type { GraphicsMode } from "./graphics.js";

type Encoders = typeof import("../../render/images/protocols.js");
let encoders: Encoders | undefined;

/** Loads the protocol encoders (pngjs among them) after start-up, only in terminals that draw images. */
export async function loadTerminalEncoders(): Promise<void> {
  encoders ??= await import("../../render/images/protocols.js");
}

export const CELL_PIXELS = { width: 10, height: 20 };

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
  key: string;
  once?: string;
  each: string;
}

export function terminalImage(mode: GraphicsMode, p: Pixels, cols: number, rows: number, key: string): DrawnImage | undefined {
  if (!encoders) return undefined;
  const { itermImage, kittyPlace, kittyTransmit, sixelImage } = encoders;
  const size = fitSize(p.width, p.height, cols * CELL_PIXELS.width, rows * CELL_PIXELS.height);
  const px = resize(p, size.width, size.height);
  const sized = `${key}@${cols}x${rows}`;
  switch (mode) {
    case "kitty": {
      const id = kittyId(sized);
      return { key: `kitty:${sized}`, once: kittyTransmit(px, id), each: kittyPlace(id, cols, rows) };
    }
    case "iterm":
      return { key: `iterm:${sized}`, each: itermImage(px, cols, rows) };
    case "sixel":
      return { key: `sixel:${sized}`, each: sixelImage(px) };
    default:
      return undefined;
  }
}
