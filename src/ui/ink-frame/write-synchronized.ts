/**
 * A drop-in for Ink's `write-synchronized` (swapped in by the Ink patch, scripts/ink-patch.mjs). Ink
 * would wrap its writes in synchronized output on every terminal; the frame writer wraps each
 * frame itself, and only once the terminal said it has the mode (sync-mode.ts).
 */
export { BEGIN_SYNC as bsu, END_SYNC as esu } from "./sync-mode.js";

export function shouldSynchronize(_stream: unknown): boolean {
  return false;
}
