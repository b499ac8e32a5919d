/**
 * Images as text: each cell is an upper half block `▀` whose foreground is
 * the upper pixel and background the lower one, so a cell shows two pixels
 * stacked. 24-bit colour where the terminal has it, the 256-colour palette
 * elsewhere. Works in every terminal, inside tmux and over SSH; the lines are
 * ordinary styled text, measured by Ink like any other.
 */
import { fitSize, pixelOver, resize, type Pixels } from "./pixels.js";

export type ColorDepth = "truecolor" | "256";

const UPPER = "▀";
const DARK: readonly [number, number, number] = [0, 0, 0];

/** The nearest colour of the 256-colour palette (the 6×6×6 cube or the grey ramp). */
export function ansi256(r: number, g: number, b: number): number {
  const level = (v: number) => (v < 48 ? 0 : v < 115 ? 1 : Math.floor((v - 35) / 40));
  const steps = [0, 95, 135, 175, 215, 255];
  const [cr, cg, cb] = [level(r), level(g), level(b)];
  const cube = 16 + 36 * cr + 6 * cg + cb;
  const cubeErr = (steps[cr]! - r) ** 2 + (steps[cg]! - g) ** 2 + (steps[cb]! - b) ** 2;
  const avg = (r + g + b) / 3;
  const grey = Math.max(0, Math.min(23, Math.round((avg - 8) / 10)));
  const gv = 8 + grey * 10;
  const greyErr = (gv - r) ** 2 + (gv - g) ** 2 + (gv - b) ** 2;
  return greyErr < cubeErr ? 232 + grey : cube;
}

function sgr(fg: readonly number[], bg: readonly number[], depth: ColorDepth): string {
  if (depth === "truecolor") return `\x1b[38;2;${fg[0]};${fg[1]};${fg[2]};48;2;${bg[0]};${bg[1]};${bg[2]}m`;
  return `\x1b[38;5;${ansi256(fg[0]!, fg[1]!, fg[2]!)};48;5;${ansi256(bg[0]!, bg[1]!, bg[2]!)}m`;
}

/** The cell size (columns × rows) an image takes when fitted into `maxCols`×`maxRows` half-block cells. */
export function halfBlockSize(p: Pick<Pixels, "width" | "height">, maxCols: number, maxRows: number): { cols: number; rows: number } {
  const { width, height } = fitSize(p.width, p.height, Math.max(1, maxCols), Math.max(2, maxRows * 2));
  return { cols: width, rows: Math.ceil(height / 2) };
}

/**
 * The image as lines of `▀` cells, fitted into `maxCols`×`maxRows` (never
 * enlarged): each line is styled text ending with a reset.
 */
export function halfBlockLines(p: Pixels, maxCols: number, maxRows: number, depth: ColorDepth = "truecolor"): string[] {
  const { cols, rows } = halfBlockSize(p, maxCols, maxRows);
  const fitted = fitSize(p.width, p.height, Math.max(1, maxCols), Math.max(2, maxRows * 2));
  const small = resize(p, cols, fitted.height);
  const lines: string[] = [];
  for (let row = 0; row < rows; row++) {
    let line = "";
    let last = "";
    for (let x = 0; x < cols; x++) {
      const top = pixelOver(small, x, row * 2, DARK);
      const bottom = row * 2 + 1 < small.height ? pixelOver(small, x, row * 2 + 1, DARK) : DARK;
      const style = sgr(top, bottom, depth);
      if (style !== last) line += style;
      last = style;
      line += UPPER;
    }
    lines.push(`${line}\x1b[0m`);
  }
  return lines;
}
