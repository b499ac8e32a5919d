import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { ansi256, halfBlockLines, halfBlockSize } from "../../src/render/images/half-blocks.js";
import type { Pixels } from "../../src/render/images/pixels.js";
import { itermImage, kittyClear, kittyImage, sixelImage } from "../../src/render/images/protocols.js";

function image(width: number, height: number, colour: (x: number, y: number) => [number, number, number, number]): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(colour(x, y), (y * width + x) * 4);
  return { width, height, data };
}

/** The cells of a half-block line: each `▀` with the foreground and background in force. */
function cells(line: string): Array<{ fg: string; bg: string }> {
  const out: Array<{ fg: string; bg: string }> = [];
  let fg = "";
  let bg = "";
  for (const m of line.matchAll(/\x1b\[([\d;]*)m|▀/g)) {
    if (m[0] === "▀") out.push({ fg, bg });
    else if (m[1] === "0") fg = bg = "";
    else {
      const p = m[1]!.split(";");
      for (let i = 0; i < p.length; ) {
        if (p[i] === "38" || p[i] === "48") {
          const value = p[i + 1] === "2" ? p.slice(i + 2, i + 5).join(",") : `@${p[i + 2]}`;
          if (p[i] === "38") fg = value;
          else bg = value;
          i += p[i + 1] === "2" ? 5 : 3;
        } else i++;
      }
    }
  }
  return out;
}

describe("half-block rendering", () => {
  const quad = image(2, 4, (x, y) => (y < 2 ? (x === 0 ? [255, 0, 0, 255] : [0, 255, 0, 255]) : [0, 0, 255, 255]));

  it("draws two pixels per cell: the upper as foreground, the lower as background (24-bit)", () => {
    const lines = halfBlockLines(image(1, 2, (_x, y) => (y === 0 ? [255, 0, 0, 255] : [0, 0, 255, 255])), 10, 10);
    expect(lines).toHaveLength(1);
    expect(cells(lines[0]!)).toEqual([{ fg: "255,0,0", bg: "0,0,255" }]);
    expect(lines[0]!.endsWith("\x1b[0m")).toBe(true);
  });

  it("keeps each pixel in its cell when the image fits", () => {
    const lines = halfBlockLines(quad, 10, 10);
    expect(lines.map(cells)).toEqual([
      [{ fg: "255,0,0", bg: "255,0,0" }, { fg: "0,255,0", bg: "0,255,0" }],
      [{ fg: "0,0,255", bg: "0,0,255" }, { fg: "0,0,255", bg: "0,0,255" }],
    ]);
  });

  it("shrinks to the box keeping the aspect ratio, never enlarges", () => {
    expect(halfBlockSize({ width: 200, height: 100 }, 40, 40)).toEqual({ cols: 40, rows: 10 });
    expect(halfBlockSize({ width: 100, height: 400 }, 40, 10)).toEqual({ cols: 5, rows: 10 });
    expect(halfBlockSize({ width: 3, height: 2 }, 40, 40)).toEqual({ cols: 3, rows: 1 });
    const lines = halfBlockLines(image(200, 100, () => [10, 200, 30, 255]), 40, 40);
    expect(lines).toHaveLength(10);
    expect(cells(lines[0]!)).toHaveLength(40);
  });

  it("uses the 256-colour palette when asked", () => {
    const lines = halfBlockLines(quad, 10, 10, "256");
    expect(lines[0]).not.toContain("38;2;");
    expect(cells(lines[0]!)[0]).toEqual({ fg: "@196", bg: "@196" });
    expect(cells(lines[1]!)[0]).toEqual({ fg: "@21", bg: "@21" });
    expect(ansi256(128, 128, 128)).toBe(244);
    expect(ansi256(0, 0, 0)).toBe(16);
  });

  it("blends transparent pixels over black", () => {
    const lines = halfBlockLines(image(1, 2, () => [255, 255, 255, 0]), 4, 4);
    expect(cells(lines[0]!)).toEqual([{ fg: "0,0,0", bg: "0,0,0" }]);
  });
});

describe("graphics protocol encoders", () => {
  const px = image(2, 1, (x) => (x === 0 ? [1, 2, 3, 255] : [4, 5, 6, 255]));

  it("kitty: transmits our RGBA pixels, places them over the cells, cursor unmoved, no reply", () => {
    const seq = kittyImage(px, 8, 3, 7);
    const m = /^\x1b_G([^;]*);([^\x1b]*)\x1b\\$/.exec(seq);
    expect(m).not.toBeNull();
    const keys = Object.fromEntries(m![1]!.split(",").map((kv) => kv.split("=")));
    expect(keys).toMatchObject({ a: "T", f: "32", s: "2", v: "1", i: "7", c: "8", r: "3", C: "1", q: "2", m: "0" });
    expect([...Buffer.from(m![2]!, "base64")]).toEqual([1, 2, 3, 255, 4, 5, 6, 255]);
    expect(kittyClear()).toBe("\x1b_Ga=d,d=a,q=2\x1b\\");
  });

  it("kitty: a large image goes in 4096-byte chunks, all but the last marked m=1", () => {
    const big = image(64, 64, (x, y) => [x * 4, y * 4, 0, 255]);
    const parts = kittyImage(big, 10, 5, 1).split("\x1b\\").filter(Boolean);
    expect(parts.length).toBe(Math.ceil((64 * 64 * 4 * 4) / 3 / 4096));
    expect(parts[0]).toMatch(/^\x1b_Ga=T,.*m=1;/);
    expect(parts.slice(1, -1).every((p) => p.startsWith("\x1b_Gm=1;"))).toBe(true);
    expect(parts.at(-1)).toMatch(/^\x1b_Gm=0;/);
    const payload = parts.map((p) => p.slice(p.indexOf(";") + 1)).join("");
    expect(Buffer.from(payload, "base64").equals(Buffer.from(big.data))).toBe(true);
  });

  it("iTerm2: an inline PNG we encoded from the pixels, sized in cells", () => {
    const seq = itermImage(px, 8, 3);
    const m = /^\x1b\]1337;File=inline=1;size=(\d+);width=8;height=3;preserveAspectRatio=0;doNotMoveCursor=1:([A-Za-z0-9+/=]+)\x07$/.exec(seq);
    expect(m).not.toBeNull();
    const file = Buffer.from(m![2]!, "base64");
    expect(file.length).toBe(Number(m![1]));
    const png = PNG.sync.read(file);
    expect([...png.data]).toEqual([1, 2, 3, 255, 4, 5, 6, 255]);
  });

  it("sixel: a DCS with raster attributes, our palette and six-row bands", () => {
    const two = image(3, 7, (_x, y) => (y < 6 ? [255, 0, 0, 255] : [0, 0, 255, 255]));
    const seq = sixelImage(two);
    expect(seq.startsWith('\x1bP0;1;0q"1;1;3;7')).toBe(true);
    expect(seq.endsWith("\x1b\\")).toBe(true);
    const body = seq.slice(2, -2);
    expect(body).not.toMatch(/[\x00-\x1f\x7f]/);
    // Red is register (5*7+0)*6+0 = 210 at 100% red; blue is register 5 at 100% blue.
    expect(body).toContain("#210;2;100;0;0");
    expect(body).toContain("#5;2;0;0;100");
    const bands = body.replace(/^[^"]*"[\d;]+/, "").replace(/#\d+;2;\d+;\d+;\d+/g, "").split("-");
    expect(bands).toHaveLength(2);
    expect(bands[0]).toBe("#210~~~"); // all six rows of the first band, three columns
    expect(bands[1]).toBe("#5@@@"); // the first row of the second band
  });
});
