/**
 * A box of blank cells that the terminal draws a picture over (image-layer.ts): the picture as
 * large as fits in `maxCols`×`maxRows` cells, keeping its proportions in the terminal's pixels.
 */
import { Box, type DOMElement } from "ink";
import { useMemo, useRef } from "react";
import type { Pixels } from "../../render/images/pixels.js";
import { fitCells, useCellPixels } from "./cell-size.js";
import type { GraphicsMode } from "./graphics.js";
import type { ImagePreviews } from "./image-previews.js";
import type { Placement } from "./image-sources.js";
import { terminalImage } from "./terminal-image.js";
import { useImagePlacements } from "./use-image-overlay.js";

export interface ImageBoxProps {
  previews: ImagePreviews;
  /** The image's path in the preview cache, and its pixels there. */
  path: string;
  pixels: Pixels;
  mode: GraphicsMode;
  maxCols: number;
  maxRows: number;
}

export function ImageBox({ previews, path, pixels, mode, maxCols, maxRows }: ImageBoxProps) {
  const cell = useCellPixels();
  const { cols, rows } = fitCells(pixels.width, pixels.height, maxCols, maxRows, cell);
  const box = useRef<DOMElement>(null);
  const placements = useMemo<Placement[]>(
    () => [
      {
        top: 0,
        left: 0,
        cols,
        rows,
        draw: () => previews.rendering(path, `view:${mode}:${cols}x${rows}:${cell.width}x${cell.height}`, (p) => terminalImage(mode, p, cols, rows, `view:${path}`, cell)),
      },
    ],
    [previews, path, mode, cols, rows, cell],
  );
  useImagePlacements(box, placements);
  return <Box ref={box} width={cols} height={rows} flexShrink={0} />;
}
