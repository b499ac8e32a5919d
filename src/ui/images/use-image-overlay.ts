/**
 * Registers the pictures a part of the screen shows over reserved cells with the image layer
 * (screen-images.ts): the message pane's images, each whose rows are all visible, at its row in
 * the pane, two columns in (the gutter and the body's indent); or any box's reservations.
 */
import type { DOMElement } from "ink";
import { useLayoutEffect, useMemo, useRef, type RefObject } from "react";
import type { Line } from "../message-layout.js";
import { frameOffset, type Placement } from "./image-sources.js";
import { screenImages } from "./screen-images.js";

export function placementsOf(rows: ReadonlyArray<{ line: Line }>, left = 2): Placement[] {
  const out: Placement[] = [];
  rows.forEach((r, i) => {
    const slot = r.line.image;
    if (!slot?.draw || slot.row !== 0 || i + slot.rows > rows.length) return;
    out.push({ top: i, left, cols: slot.cols, rows: slot.rows, draw: slot.draw });
  });
  return out;
}

/** The reservations in `box` (cells from its top left corner) are drawn over by the terminal. */
export function useImagePlacements(box: RefObject<DOMElement | null>, placements: readonly Placement[]): void {
  const { sources, layer } = screenImages();
  const id = useRef(0);
  if (id.current === 0) id.current = sources.add();
  // Registered while rendering, not in an effect: Ink writes the frame before effects run, and the
  // pictures must follow that very frame. The box's place is read when the frame is written.
  sources.set(id.current, { offset: () => frameOffset(box.current), placements });
  const framesBefore = layer.frames;
  useLayoutEffect(() => layer.committed(framesBefore));
  // Removed in the commit that unmounts the box, before Ink writes the frame without it.
  useLayoutEffect(() => () => sources.remove(id.current), [sources]);
}

export function useImageOverlay(box: RefObject<DOMElement | null>, rows: ReadonlyArray<{ line: Line }>): void {
  const placements = useMemo(() => placementsOf(rows), [rows]);
  useImagePlacements(box, placements);
}
