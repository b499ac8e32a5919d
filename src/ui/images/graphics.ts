/**
 * What the terminal can draw images with: the graphics part of the terminal's
 * capabilities (../terminal/capabilities.ts), decided at start-up.
 */
import { terminalCapabilities, updateTerminalCapabilities, type GraphicsMode } from "../terminal/capabilities.js";
import type { ColorDepth } from "../../render/images/half-blocks.js";

export type { GraphicsMode };

export interface TerminalGraphics {
  mode: GraphicsMode;
  depth: ColorDepth;
}

export function terminalGraphics(): TerminalGraphics {
  return terminalCapabilities().graphics;
}

export function setTerminalGraphics(g: TerminalGraphics): void {
  updateTerminalCapabilities({ graphics: g });
}

/** Whether images are drawn by the terminal over reserved rows (rather than as text). */
export function drawnByTerminal(mode: GraphicsMode): boolean {
  return mode === "kitty" || mode === "iterm" || mode === "sixel";
}
