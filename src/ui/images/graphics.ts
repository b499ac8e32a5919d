/**
 * What the terminal can draw images with, decided once at start-up (the
 * terminal is the one thing shared by every account in the process).
 */
import type { ColorDepth } from "../../render/images/half-blocks.js";

export type GraphicsMode = "kitty" | "iterm" | "sixel" | "halfblocks" | "off";

export interface TerminalGraphics {
  mode: GraphicsMode;
  depth: ColorDepth;
}

let current: TerminalGraphics = { mode: "halfblocks", depth: "truecolor" };

export function terminalGraphics(): TerminalGraphics {
  return current;
}

export function setTerminalGraphics(g: TerminalGraphics): void {
  current = g;
}

/** Whether images are drawn by the terminal over reserved rows (rather than as text). */
export function drawnByTerminal(mode: GraphicsMode): boolean {
  return mode === "kitty" || mode === "iterm" || mode === "sixel";
}
