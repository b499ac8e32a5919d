/**
 * The size of one terminal cell in pixels, which turns a reservation of cells into the pixels a
 * picture is scaled to. The terminal says it when asked (the capabilities record's `cellPx`);
 * until it has, or when it never does, a common size stands in.
 */
import { useEffect, useState } from "react";
import { onTerminalCapabilities, terminalCapabilities } from "../terminal/capabilities.js";

export interface CellPixels {
  width: number;
  height: number;
}

/** What most terminals' default fonts come close to. */
export const DEFAULT_CELL: CellPixels = { width: 10, height: 20 };

/** The terminal's cell size, or the default when it did not say or said something no font has. */
export function cellPixels(): CellPixels {
  const px = terminalCapabilities().cellPx;
  if (!px || !(px.width >= 2 && px.width <= 200 && px.height >= 4 && px.height <= 400)) return DEFAULT_CELL;
  return { width: Math.round(px.width), height: Math.round(px.height) };
}

/** The cell size, rendering again when the terminal says another. */
export function useCellPixels(): CellPixels {
  const [cell, setCell] = useState(cellPixels);
  useEffect(() => onTerminalCapabilities(() => setCell((old) => sameCell(old, cellPixels()) ? old : cellPixels())), []);
  return cell;
}

export function sameCell(a: CellPixels, b: CellPixels): boolean {
  return a.width === b.width && a.height === b.height;
}

/** The largest size with the picture's proportions that fits `maxWidth`×`maxHeight` (enlarging it if need be), at least 1×1. */
export function fitPixels(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number } {
  const scale = Math.min(maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.min(maxWidth, Math.floor(width * scale))), height: Math.max(1, Math.min(maxHeight, Math.floor(height * scale))) };
}

/** The cells a picture of `width`×`height` pixels takes when made as large as fits in `maxCols`×`maxRows` cells. */
export function fitCells(width: number, height: number, maxCols: number, maxRows: number, cell: CellPixels): { cols: number; rows: number } {
  const px = fitPixels(width, height, maxCols * cell.width, maxRows * cell.height);
  return { cols: Math.max(1, Math.min(maxCols, Math.ceil(px.width / cell.width))), rows: Math.max(1, Math.min(maxRows, Math.ceil(px.height / cell.height))) };
}
