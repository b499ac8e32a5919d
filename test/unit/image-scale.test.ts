/**
 * Pictures fill the cells reserved for them, measured in the terminal's own pixels: the decoded
 * pixels are scaled (up or down, proportions kept) to the reservation's cells times the cell
 * size the terminal said, or a common size until it says one; when it says one later, the
 * pictures on screen are made again for it and drawn over what they were.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Pixels } from "../../src/render/images/pixels.js";
import { FrameWriter } from "../../src/ui/ink-frame/frame-writer.js";
import { cellPixels, DEFAULT_CELL, fitCells } from "../../src/ui/images/cell-size.js";
import { ImageLayer } from "../../src/ui/images/image-layer.js";
import { ImageSources } from "../../src/ui/images/image-sources.js";
import { loadTerminalEncoders, terminalImage, type DrawnImage } from "../../src/ui/images/terminal-image.js";
import { resetTerminalCapabilities, updateTerminalCapabilities } from "../../src/ui/terminal/capabilities.js";
import { ImageTerminal } from "../fixtures/image-terminal.js";

beforeAll(() => loadTerminalEncoders());
afterEach(() => resetTerminalCapabilities());

function gradient(width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([x * 4, y * 5, 90, 255], (y * width + x) * 4);
  return { width, height, data };
}

/** The size a sixel says it is (its raster attributes). */
function sixelSize(image: DrawnImage | undefined): string {
  const m = /\x1bP[\d;]*q"1;1;(\d+);(\d+)/.exec(image?.drawing ?? "");
  return m ? `${m[1]}x${m[2]}` : "none";
}

describe("pictures scaled to their cells", () => {
  it("a 64×48 thumbnail fills its 21×8 cells, at the default cell size and at the one the terminal says", () => {
    const plan = gradient(64, 48);
    expect(cellPixels()).toEqual(DEFAULT_CELL);
    // 210×160 pixels of room: the width decides (64·3.28 = 210, 48·3.28 = 157).
    expect(sixelSize(terminalImage("sixel", plan, 21, 8, "/plan.png", cellPixels()))).toBe("210x157");
    updateTerminalCapabilities({ cellPx: { width: 7, height: 14 } });
    expect(cellPixels()).toEqual({ width: 7, height: 14 });
    // 147×112 of room: 147×110.
    const small = terminalImage("sixel", plan, 21, 8, "/plan.png", cellPixels());
    expect(sixelSize(small)).toBe("147x110");
    expect(small).toMatchObject({ cols: 21, rows: 8 });
    // A large photo comes down to its cells the same way.
    expect(sixelSize(terminalImage("sixel", gradient(1024, 768), 21, 8, "/photo.jpg", cellPixels()))).toBe("147x110");
  });

  it("kitty and iTerm2 are told the cells the scaled pixels cover, so the terminal never stretches them past the reservation", () => {
    const tall = gradient(30, 90);
    const kitty = terminalImage("kitty", tall, 20, 8, "/tall.png", DEFAULT_CELL)!;
    // 200×160 of room: 53×160 pixels, 6 columns by 8 rows.
    expect(kitty).toMatchObject({ cols: 6, rows: 8 });
    expect(kitty.kitty!.transmit).toMatch(/^\x1b_Ga=t,f=32,s=53,v=160,/);
    const iterm = terminalImage("iterm", tall, 20, 8, "/tall.png", DEFAULT_CELL)!;
    expect(iterm.drawing).toMatch(/^\x1b\]1337;File=inline=1;size=\d+;width=6;height=8;/);
  });

  it("the full-size viewer's box is as large as the picture can be in the popup, in the terminal's cells", () => {
    expect(fitCells(64, 48, 60, 20, DEFAULT_CELL)).toEqual({ cols: 54, rows: 20 });
    expect(fitCells(64, 48, 60, 20, { width: 6, height: 20 })).toEqual({ cols: 60, rows: 14 });
    expect(fitCells(2000, 100, 60, 20, DEFAULT_CELL)).toEqual({ cols: 60, rows: 2 });
  });

  it("pictures on screen are made again when the terminal says its cell size, and the old ones are cleared", async () => {
    const sources = new ImageSources();
    const layer = new ImageLayer(sources);
    const writer = new FrameWriter({ overlay: layer });
    const written: string[] = [];
    layer.attach(() => written.push(writer.redrawOverlay()));
    const plan = gradient(64, 48);
    const made = new Map<string, DrawnImage | undefined>();
    const draw = () => {
      const cell = cellPixels();
      const key = `${cell.width}x${cell.height}`;
      if (!made.has(key)) made.set(key, terminalImage("sixel", plan, 21, 8, "/plan.png", cell));
      return made.get(key);
    };
    sources.set(sources.add(), { offset: () => ({ top: 2, left: 4 }), placements: [{ top: 0, left: 0, cols: 21, rows: 8, draw }] });
    // The terminal's cells are 8×16, which it has not said yet.
    const term = new ImageTerminal(80, 24, { width: 8, height: 16 });
    const frame = ["title", "caption", ...Array.from({ length: 12 }, () => ""), "after"].join("\n") + "\n";
    await term.write(writer.render(frame, 80, 24));
    // Made for 10×20 cells, the picture takes 27×10 of the terminal's.
    expect(term.pictures().filter((p) => p.includes("+0,0"))).toEqual([expect.stringMatching(/^2,4 sixel:/)]);
    expect(term.pictures()).toHaveLength(27 * 10);

    updateTerminalCapabilities({ cellPx: { width: 8, height: 16 } });
    for (let i = 0; i < 200 && written.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(written).toHaveLength(1);
    await term.write(written[0]!);
    expect(sixelSize(made.get("8x16"))).toBe("168x126");
    // Now 21×8 cells, nothing of the first one left.
    expect(term.pictures()).toHaveLength(21 * 8);
    expect(term.pictures().filter((p) => p.includes("+0,0"))).toEqual([expect.stringMatching(/^2,4 sixel:/)]);
    expect(term.problems).toEqual([]);
  });
});
