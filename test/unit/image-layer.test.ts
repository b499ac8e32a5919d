/**
 * Pictures stay where their reservations are, whatever the frame writer sends. Random sequences
 * of frames like the app's (a sidebar beside a message pane whose messages carry images; the pane
 * scrolls, the selection moves, messages arrive, a popup covers the pane and goes, the terminal
 * changes size) go through the frame writer and the image layer into a terminal that keeps
 * pictures as sixel, iTerm2 and kitty terminals do (test/fixtures/image-terminal.ts). After each
 * frame, text and pictures are compared cell by cell with a fresh terminal sent that frame whole.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Pixels } from "../../src/render/images/pixels.js";
import { FrameWriter } from "../../src/ui/ink-frame/frame-writer.js";
import Output from "../../src/ui/ink-frame/output.js";
import { cellPixels, type CellPixels } from "../../src/ui/images/cell-size.js";
import type { GraphicsMode } from "../../src/ui/images/graphics.js";
import { ImageLayer } from "../../src/ui/images/image-layer.js";
import { ImageSources, type Placement } from "../../src/ui/images/image-sources.js";
import { loadTerminalEncoders, terminalImage, type DrawnImage } from "../../src/ui/images/terminal-image.js";
import { resetTerminalCapabilities, updateTerminalCapabilities } from "../../src/ui/terminal/capabilities.js";
import { ImageTerminal } from "../fixtures/image-terminal.js";
import { prng } from "../fixtures/prng.js";

beforeAll(() => loadTerminalEncoders());
afterEach(() => resetTerminalCapabilities());

const SIDE = 14;
const PANE_LEFT = SIDE + 1;

interface Item {
  id: number;
  lines: string[];
  image?: { pixels: Pixels; cols: number; rows: number };
}

function pixelsOf(id: number, width: number, height: number): Pixels {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([(id * 67 + x * 9) % 256, (id * 131 + y * 13) % 256, (id * 29) % 256, 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

const WORDS = ["lunch", "release", "deploy", "review", "standup", "hotfix", "design", "budget", "launch", "🎉", "漢字"];

function makeItem(rand: () => number, id: number, pictures = true): Item {
  const pick = () => WORDS[Math.floor(rand() * WORDS.length)]!;
  const lines = [`\x1b[1mperson ${id}\x1b[22m`, ...Array.from({ length: 1 + Math.floor(rand() * 3) }, () => `${pick()} ${pick()} ${pick()}`)];
  if (rand() < 0.45 && pictures) {
    const cols = 6 + Math.floor(rand() * 14);
    const rows = 2 + Math.floor(rand() * 5);
    return { id, lines: [...lines, `\x1b[2m▨ picture-${id}.png\x1b[22m`], image: { pixels: pixelsOf(id, 8 + (id % 5) * 6, 6 + (id % 3) * 4), cols, rows } };
  }
  return { id, lines };
}

interface PaneRow {
  text: string;
  id: number;
  /** The first row of an image's reservation. */
  image?: Item["image"] & { id: number };
}

function paneRows(items: Item[]): PaneRow[] {
  const rows: PaneRow[] = [];
  for (const item of items) {
    for (const text of item.lines) rows.push({ text, id: item.id });
    if (item.image) {
      rows.push({ text: "", id: item.id, image: { ...item.image, id: item.id } });
      for (let r = 1; r < item.image.rows; r++) rows.push({ text: "", id: item.id });
    }
  }
  return rows;
}

/** The app's state as these tests change it. */
interface Scene {
  items: Item[];
  start: number;
  selected: number;
  popup: boolean;
  side: string[];
  height: number;
  cols: number;
  rows: number;
}

/** The frame as Ink composes it (sidebar, a rule, the pane or a popup over it), and the placements the pane registers. */
function render(scene: Scene, draw: (id: number, img: NonNullable<Item["image"]>, cols: number, rows: number) => () => DrawnImage | undefined) {
  const width = scene.cols;
  const output = new Output({ width, height: scene.height });
  const paneHeight = scene.height - 1;
  output.write(0, 0, `\x1b[1mtermchat\x1b[22m frame`, { transformers: [] });
  for (let y = 0; y < paneHeight; y++) output.write(0, y + 1, scene.side[y % scene.side.length]!, { transformers: [] });
  const placements: Placement[] = [];
  if (scene.popup) {
    const w = width - PANE_LEFT - 1;
    output.write(PANE_LEFT, 1, `╭${"─".repeat(w - 2)}╮`, { transformers: [] });
    for (let y = 2; y < paneHeight; y++) output.write(PANE_LEFT, y, `│ ${y === 2 ? "\x1b[1mKeys\x1b[22m" : y % 3 === 0 ? "j/k move" : ""}`.padEnd(w - 1) + "│", { transformers: [] });
    output.write(PANE_LEFT, paneHeight, `╰${"─".repeat(w - 2)}╯`, { transformers: [] });
  } else {
    const rows = paneRows(scene.items).slice(scene.start, scene.start + paneHeight);
    rows.forEach((r, i) => {
      const gutter = r.id === scene.selected ? "\x1b[36m▌\x1b[39m" : " ";
      output.write(PANE_LEFT, i + 1, `${gutter} ${r.text}`, { transformers: [] });
      if (r.image && i + r.image.rows <= rows.length) {
        placements.push({ top: i, left: 2, cols: r.image.cols, rows: r.image.rows, draw: draw(r.image.id, r.image, r.image.cols, r.image.rows) });
      }
    });
  }
  return { frame: output.get().output + "\n", placements };
}

function step(rand: () => number, scene: Scene, nextId: () => number, pictures = true): string {
  const total = paneRows(scene.items).length;
  const paneHeight = scene.height - 1;
  const r = rand();
  if (scene.popup) {
    if (r < 0.6) scene.popup = false;
    return scene.popup ? "popup stays" : "popup closed";
  }
  if (r < 0.3) {
    const by = (rand() < 0.5 ? -1 : 1) * (1 + Math.floor(rand() * 4));
    scene.start = Math.max(0, Math.min(Math.max(0, total - paneHeight), scene.start + by));
    return `scroll ${by}`;
  }
  if (r < 0.5) {
    const visible = scene.items.filter((_, i) => i >= 0);
    scene.selected = visible[Math.floor(rand() * visible.length)]!.id;
    return `select ${scene.selected}`;
  }
  if (r < 0.62) {
    scene.items.push(makeItem(rand, nextId(), pictures));
    if (rand() < 0.7) scene.start = Math.max(0, paneRows(scene.items).length - paneHeight);
    return "message arrives";
  }
  if (r < 0.7) {
    scene.items.splice(Math.floor(rand() * scene.items.length), 0, makeItem(rand, nextId(), pictures));
    return "message inserted above";
  }
  if (r < 0.8) {
    scene.popup = true;
    return "popup opens";
  }
  if (r < 0.88) {
    scene.side[Math.floor(rand() * scene.side.length)] = `\x1b[33m#${WORDS[Math.floor(rand() * WORDS.length)]}\x1b[39m`;
    return "sidebar changes";
  }
  if (r < 0.95) {
    scene.height = Math.max(8, Math.min(scene.rows - 1, scene.height + (rand() < 0.5 ? -2 : 2)));
    return `height ${scene.height}`;
  }
  scene.cols = 60 + Math.floor(rand() * 20);
  scene.rows = 16 + Math.floor(rand() * 10);
  scene.height = scene.rows - 1;
  return `resize ${scene.cols}×${scene.rows}`;
}

/** Draws memoized per picture and size, as the preview cache does. */
function drawer(mode: GraphicsMode) {
  const made = new Map<string, DrawnImage | undefined>();
  return (id: number, img: NonNullable<Item["image"]>, cols: number, rows: number) => () => {
    const cell = cellPixels();
    const key = `${id}:${cols}x${rows}:${cell.width}x${cell.height}`;
    if (!made.has(key)) made.set(key, terminalImage(mode, img.pixels, cols, rows, `/pictures/${id}`, cell));
    return made.get(key);
  };
}

async function fullRedraw(frame: string, scene: Scene, sources: ImageSources, cell: CellPixels) {
  const term = new ImageTerminal(scene.cols, scene.rows, cell);
  await term.write(new FrameWriter({ overlay: new ImageLayer(sources) }).render(frame, scene.cols, scene.rows));
  return term;
}

function newScene(rand: () => number, nextId: () => number, pictures = true): Scene {
  const scene: Scene = { items: [], start: 0, selected: 1, popup: false, side: [], height: 21, cols: 70, rows: 22 };
  for (let i = 0; i < 10; i++) scene.items.push(makeItem(rand, nextId(), pictures));
  scene.side = Array.from({ length: 20 }, (_, y) => (y % 4 === 0 ? `\x1b[1m▾ folder\x1b[22m` : `# ${WORDS[y % WORDS.length]}`));
  return scene;
}

async function runSequence(mode: GraphicsMode, seed: number, frames: number) {
  const rand = prng(seed);
  let id = 0;
  const nextId = () => ++id;
  const scene = newScene(rand, nextId);
  // Small cells, small pictures: the same placements, fewer bytes to go through.
  updateTerminalCapabilities({ cellPx: { width: 4, height: 8 } });
  const sources = new ImageSources();
  const source = sources.add();
  const layer = new ImageLayer(sources);
  const writer = new FrameWriter({ overlay: layer });
  const cell = cellPixels();
  const term = new ImageTerminal(scene.cols, scene.rows, cell);
  const draw = drawer(mode);
  let pictures = 0;
  let shifts = 0;
  const what: string[] = ["start"];
  for (let f = 0; f < frames; f++) {
    if (f > 0) what.push(step(rand, scene, nextId));
    if (term.cols !== scene.cols || term.rows !== scene.rows) term.resize(scene.cols, scene.rows);
    const { frame, placements } = render(scene, draw);
    sources.set(source, { offset: () => ({ top: 1, left: PANE_LEFT }), placements });
    const bytes = writer.render(frame, scene.cols, scene.rows);
    if (/\x1b\[\d*M/.test(bytes)) shifts++;
    await term.write(bytes);
    const reference = await fullRedraw(frame, scene, sources, cell);
    const where = `${mode}, seed ${seed}, frame ${f}: ${what.slice(-4).join(" → ")}`;
    expect(term.problems, where).toEqual([]);
    expect(term.text(), where).toEqual(reference.text());
    expect(term.screen(), where).toEqual(reference.screen());
    expect(term.pictures(), where).toEqual(reference.pictures());
    pictures += reference.pictures().length > 0 ? 1 : 0;
  }
  return { frames, pictures, shifts };
}

describe("pictures over the frame writer's frames", () => {
  for (const mode of ["sixel", "iterm", "kitty"] as const) {
    it(`${mode}: every frame shows its pictures where a full redraw puts them, and no others`, async () => {
      let compared = 0;
      let withPictures = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const r = await runSequence(mode, seed, 30);
        compared += r.frames;
        withPictures += r.pictures;
      }
      console.log(`image layer (${mode}): ${compared} frames compared with a full redraw, ${withPictures} of them with pictures`);
      expect(compared).toBe(360);
      expect(withPictures).toBeGreaterThan(150);
    }, 120_000);
  }

  it("frames without pictures are written with the same bytes as without the layer (the line moves included)", () => {
    let shifts = 0;
    let frames = 0;
    for (let seed = 50; seed <= 60; seed++) {
      const rand = prng(seed);
      let id = 0;
      const nextId = () => ++id;
      const scene = newScene(rand, nextId, false);
      const sources = new ImageSources();
      const withLayer = new FrameWriter({ overlay: new ImageLayer(sources) });
      const without = new FrameWriter();
      for (let f = 0; f < 30; f++) {
        if (f > 0) step(rand, scene, nextId, false);
        const { frame } = render(scene, drawer("sixel"));
        const bytes = without.render(frame, scene.cols, scene.rows);
        expect(withLayer.render(frame, scene.cols, scene.rows), `seed ${seed}, frame ${f}`).toBe(bytes);
        if (/\x1b\[\d*M/.test(bytes)) shifts++;
        frames++;
      }
    }
    expect(frames).toBe(330);
    expect(shifts).toBeGreaterThan(20);
  });

  it("a picture is sent once, and again only when the writer wrote into its cells", async () => {
    let id = 0;
    const items: Item[] = [1, 2, 3].map(() => ({ id: ++id, lines: [`\x1b[1mperson ${id}\x1b[22m`, "hello"] }));
    items.push({ id: ++id, lines: ["\x1b[1mperson 4\x1b[22m", "a picture", "▨ plan.png"], image: { pixels: pixelsOf(4, 64, 48), cols: 21, rows: 8 } });
    items.push({ id: ++id, lines: ["\x1b[1mperson 5\x1b[22m", "after it"] });
    const scene: Scene = { items, start: 0, selected: 1, popup: false, side: ["# general", "# design"], height: 23, cols: 80, rows: 24 };
    const sources = new ImageSources();
    const source = sources.add();
    const writer = new FrameWriter({ overlay: new ImageLayer(sources) });
    const term = new ImageTerminal(80, 24);
    const draw = drawer("sixel");
    const frame = async (change: () => void) => {
      change();
      const { frame: text, placements } = render(scene, draw);
      sources.set(source, { offset: () => ({ top: 1, left: PANE_LEFT }), placements });
      await term.write(writer.render(text, scene.cols, scene.rows));
      return term.takeDrawn();
    };
    // The picture's reservation: the row after its caption, two columns into the pane.
    const at = `sixel@${1 + 2 * 3 + 3},${PANE_LEFT + 2}`;
    expect(await frame(() => undefined)).toEqual([at]);
    expect(await frame(() => (scene.side = ["# general", "\x1b[1m# design\x1b[22m"]))).toEqual([]);
    expect(await frame(() => (scene.selected = 2))).toEqual([]);
    // Selected: the gutter is written beside the picture, not into it.
    expect(await frame(() => (scene.selected = 4))).toEqual([]);
    // Deselected: the gutter's rows end in blanks from its column on, erased to the end of the line.
    expect(await frame(() => (scene.selected = 5))).toEqual([at]);
    expect(await frame(() => (scene.popup = true))).toEqual([]);
    expect(term.pictures()).toEqual([]);
    expect(await frame(() => (scene.popup = false))).toEqual([at]);
    // 64×48 pixels over 21×8 cells of 10×20: as large as fits, proportions kept (210×157).
    expect(term.pictures().filter((p) => p.includes("+0,0"))).toHaveLength(1);
    expect(term.pictures()).toHaveLength(21 * 8);
  });

  it("after the terminal gets narrower, text and pictures are where a full redraw of the new frame puts them", async () => {
    for (const mode of ["sixel", "kitty"] as const) {
      const rand = prng(7);
      let id = 0;
      const scene = newScene(rand, () => ++id);
      scene.items[1] = { id: 2, lines: ["\x1b[1mperson 2\x1b[22m", "▨ plan.png"], image: { pixels: pixelsOf(2, 64, 48), cols: 21, rows: 8 } };
      // The status line reaches the last column.
      scene.side[scene.height - 2] = "x".repeat(scene.cols);
      const sources = new ImageSources();
      const source = sources.add();
      const writer = new FrameWriter({ overlay: new ImageLayer(sources) });
      const term = new ImageTerminal(scene.cols, scene.rows);
      const draw = drawer(mode);
      const show = async (frameScene: Scene, columns: number) => {
        const { frame, placements } = render(frameScene, draw);
        sources.set(source, { offset: () => ({ top: 1, left: PANE_LEFT }), placements });
        await term.write(writer.render(frame, columns, scene.rows));
        return frame;
      };
      await show(scene, scene.cols);
      expect(term.pictures().length).toBeGreaterThan(0);
      // Ink draws the frame it had once more at the new width, then the app lays out for it.
      const before = { ...scene, side: [...scene.side] };
      term.resize(60, scene.rows);
      await show(before, 60);
      scene.cols = 60;
      scene.side[scene.height - 2] = "x".repeat(60);
      const frame = await show(scene, 60);
      const reference = new ImageTerminal(60, scene.rows);
      await reference.write(new FrameWriter({ overlay: new ImageLayer(sources) }).render(frame, 60, scene.rows));
      expect(term.text(), mode).toEqual(reference.text());
      expect(term.pictures(), mode).toEqual(reference.pictures());
      expect(term.pictures().length, mode).toBeGreaterThan(0);
    }
  });
});
