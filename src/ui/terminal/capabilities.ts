/**
 * What the terminal can do, as far as we know it: one record for the whole process (the
 * terminal is the one thing every account in the process shares). It starts from what the
 * environment says and is filled in as the terminal answers the start-up queries; whoever
 * draws with it (images, themes, glyphs, frames) reads it when drawing and may listen for
 * changes, since answers can arrive after the first frame.
 */
import type { ColorDepth } from "../../render/images/half-blocks.js";

export type GraphicsMode = "kitty" | "iterm" | "sixel" | "halfblocks" | "off";

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface TerminalCapabilities {
  /** How images are drawn, and the colours half-blocks may use. */
  graphics: { mode: GraphicsMode; depth: ColorDepth };
  /** One cell's size in pixels, when the terminal said it (CSI 16 t, or its window size over its cells). */
  cellPx?: { width: number; height: number };
  /** The terminal's background colour, when it answered OSC 11. */
  background?: Rgb;
  /** Whether the terminal said it has synchronized output (mode 2026). */
  synchronizedOutput: boolean;
  /** Whether to write Unicode glyphs (box drawing, markers); false: their ASCII equivalents. */
  unicode: boolean;
  /** Whether to draw emoji as pictures; false: as `:name:` text. */
  emoji: boolean;
}

const DEFAULTS: TerminalCapabilities = {
  graphics: { mode: "halfblocks", depth: "truecolor" },
  synchronizedOutput: false,
  unicode: true,
  emoji: true,
};

let current: TerminalCapabilities = DEFAULTS;
const listeners = new Set<(caps: TerminalCapabilities) => void>();

export function terminalCapabilities(): TerminalCapabilities {
  return current;
}

/** Records what was learnt; listeners hear of it when anything changed. */
export function updateTerminalCapabilities(patch: Partial<TerminalCapabilities>): void {
  const next = { ...current, ...patch };
  const changed = (Object.keys(patch) as Array<keyof TerminalCapabilities>).some((k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]));
  current = next;
  if (changed) for (const l of [...listeners]) l(current);
}

/** Called with the new record each time it changes; returns the unsubscribe. */
export function onTerminalCapabilities(listener: (caps: TerminalCapabilities) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** For tests: back to what nothing was said about. */
export function resetTerminalCapabilities(): void {
  current = DEFAULTS;
  listeners.clear();
}
