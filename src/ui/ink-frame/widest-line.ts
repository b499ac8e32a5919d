/**
 * The width of a block's widest line, as a drop-in for the `widest-line` package inside Ink
 * (swapped in by the Ink patch: scripts/ink-patch.mjs). Ink measures every text node
 * on every frame; remembering the widths across frames spares that for unchanged text.
 */
import { cachedWidth } from "./output.js";

export default function widestLine(text: string): number {
  let widest = 0;
  for (const line of text.split("\n")) widest = Math.max(widest, cachedWidth(line));
  return widest;
}
