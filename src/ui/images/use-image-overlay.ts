/**
 * Registers the images a pane shows over reserved rows with the after-frame
 * overlay (overlay.ts): each image whose rows are all visible, at its row in
 * the pane, two columns in (the gutter and the body's indent).
 */
import type { DOMElement } from "ink";
import { useEffect, useMemo, useRef, type RefObject } from "react";
import type { Line } from "../message-layout.js";
import { terminalGraphics } from "./graphics.js";
import { newOverlaySource, removeOverlaySource, setOverlaySource, type Placement } from "./overlay.js";

export function placementsOf(rows: ReadonlyArray<{ line: Line }>, left = 2): Placement[] {
  const out: Placement[] = [];
  rows.forEach((r, i) => {
    const slot = r.line.image;
    if (!slot?.draw || slot.row !== 0 || i + slot.rows > rows.length) return;
    out.push({ top: i, left, cols: slot.cols, rows: slot.rows, draw: slot.draw });
  });
  return out;
}

export function useImageOverlay(box: RefObject<DOMElement | null>, rows: ReadonlyArray<{ line: Line }>): void {
  const id = useRef(0);
  if (id.current === 0) id.current = newOverlaySource();
  const placements = useMemo(() => placementsOf(rows), [rows]);
  // Registered while rendering, not in an effect: Ink writes the frame before effects run, and the
  // overlay must follow that very frame. The box's position is read only when the frame is written.
  setOverlaySource(id.current, { node: () => box.current, placements, mode: terminalGraphics().mode });
  useEffect(() => () => removeOverlaySource(id.current), []);
}
