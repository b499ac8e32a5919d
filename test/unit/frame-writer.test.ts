/**
 * The frame writer sends only what changed; the user must still see exactly the frame a full
 * redraw shows. Random sequences of frames (styled text, CJK and emoji, full-width lines,
 * growing and shrinking frames, resizes) go through the writer into a headless terminal; after
 * each frame its screen is compared cell by cell, with colours and attributes, with a fresh
 * terminal that was sent the whole frame.
 */
import { describe, expect, it } from "vitest";
import stringWidth from "string-width";
import { FrameWriter } from "../../src/ui/ink-frame/frame-writer.js";
import Output from "../../src/ui/ink-frame/output.js";
import { headlessTerminal, screenOf, writeTo } from "../fixtures/headless-screen.js";
import { prng } from "../fixtures/prng.js";

const STYLES: [string, string][] = [
  ["", ""], ["", ""], ["", ""],
  ["\x1b[1m", "\x1b[22m"], ["\x1b[2m", "\x1b[22m"], ["\x1b[3m", "\x1b[23m"], ["\x1b[4m", "\x1b[24m"],
  ["\x1b[7m", "\x1b[27m"], ["\x1b[31m", "\x1b[39m"], ["\x1b[38;5;208m", "\x1b[39m"],
  ["\x1b[44m", "\x1b[49m"], ["\x1b[48;2;10;20;30m", "\x1b[49m"], ["\x1b[1m\x1b[36m", "\x1b[39m\x1b[22m"],
];
const TEXTS = ["a", "word", " ", "   ", "Ünïcödé", "漢字", "中", "👍", "😀", "—", "x", "msg", "#general", "»", "e\u0301", "🇯🇵"];

type Piece = { text: string; style: number };
type Line = Piece[];

function lineText(line: Line): string {
  return line.map((p) => STYLES[p.style]![0] + p.text + STYLES[p.style]![1]).join("");
}

function randomLine(rand: () => number, width: number, plainOnly: boolean): Line {
  const line: Line = [];
  let used = 0;
  const target = rand() < 0.15 ? width : Math.floor(rand() * (width + 1));
  for (let guard = 0; guard < 200 && used < target; guard++) {
    const pool = plainOnly ? TEXTS.slice(0, 14) : TEXTS;
    const text = pool[Math.floor(rand() * pool.length)]!;
    const w = stringWidth(text);
    if (used + w > width) {
      if (used + 1 <= width) line.push({ text: "x".repeat(width - used), style: Math.floor(rand() * STYLES.length) });
      break;
    }
    line.push({ text, style: Math.floor(rand() * STYLES.length) });
    used += w;
  }
  return line;
}

/** The frame as Ink's Output composes it: each line in its row, styles closed, trailing blanks cut. */
function compose(lines: Line[], width: number): string {
  const output = new Output({ width, height: lines.length });
  lines.forEach((line, y) => output.write(0, y, lineText(line), { transformers: [] }));
  return output.get().output + "\n";
}

function mutate(rand: () => number, lines: Line[], width: number, rows: number, uncertain: boolean): Line[] {
  const next = lines.map((l) => l.map((p) => ({ ...p })));
  const edits = 1 + Math.floor(rand() * 4);
  for (let e = 0; e < edits; e++) {
    const r = rand();
    const y = Math.floor(rand() * next.length);
    if (r < 0.3 && next[y]!.length > 0) next[y]![Math.floor(rand() * next[y]!.length)]!.style = Math.floor(rand() * STYLES.length);
    else if (r < 0.6) next[y] = randomLine(rand, width, !uncertain);
    else if (r < 0.7 && next.length < rows - 1) next.splice(y, 0, randomLine(rand, width, !uncertain));
    else if (r < 0.8 && next.length > 1) next.splice(y, 1);
    else if (r < 0.9 && next.length < rows - 1) next.push(randomLine(rand, width, !uncertain));
    else if (next[y]!.length > 1) next[y] = next[y]!.slice(1);
  }
  return next;
}

const references = { app: headlessTerminal(80, 24), own: headlessTerminal(80, 24, { ownWidths: true }) };
/** The screen of a terminal of that size, just reset, sent the whole frame. */
async function fullRedraw(frame: string, cols: number, rows: number, ownWidths: boolean) {
  const reference = ownWidths ? references.own : references.app;
  reference.reset();
  if (reference.cols !== cols || reference.rows !== rows) reference.resize(cols, rows);
  await writeTo(reference, frame);
  return screenOf(reference);
}

async function runSequence(seed: number, frames: number, uncertain: boolean, ownWidths = false): Promise<number> {
  const rand = prng(seed);
  let cols = 10 + Math.floor(rand() * 50);
  let rows = 4 + Math.floor(rand() * 14);
  const term = headlessTerminal(cols, rows, { ownWidths });
  const writer = new FrameWriter();
  let lines: Line[] = Array.from({ length: 1 + Math.floor(rand() * (rows - 1)) }, () => randomLine(rand, cols, !uncertain));
  let compared = 0;
  for (let i = 0; i < frames; i++) {
    if (i > 0 && rand() < 0.08) {
      cols = 10 + Math.floor(rand() * 50);
      rows = 4 + Math.floor(rand() * 14);
      term.resize(cols, rows);
      lines = Array.from({ length: 1 + Math.floor(rand() * (rows - 1)) }, () => randomLine(rand, cols, !uncertain));
    } else if (i > 0) {
      lines = rand() < 0.05 ? Array.from({ length: 1 + Math.floor(rand() * (rows - 1)) }, () => randomLine(rand, cols, !uncertain)) : mutate(rand, lines, cols, rows, uncertain);
    }
    const frame = compose(lines, cols);
    await writeTo(term, writer.render(frame, cols, rows));
    const expected = await fullRedraw(frame, cols, rows, ownWidths);
    const actual = screenOf(term);
    expect(actual, `seed ${seed}, frame ${i}, ${cols}×${rows}`).toEqual(expected);
    compared++;
  }
  term.dispose();
  return compared;
}

/** A block of lines [top, bottom] moved by `by` rows (up when positive), new lines where it left room. */
function shiftBlock(rand: () => number, lines: Line[], width: number, uncertain: boolean): { lines: Line[]; moved: boolean } {
  if (lines.length < 3) return { lines, moved: false };
  const top = Math.floor(rand() * (lines.length - 2));
  const bottom = top + 2 + Math.floor(rand() * (lines.length - top - 2));
  const n = 1 + Math.floor(rand() * (bottom - top));
  const up = rand() < 0.5;
  const next = lines.slice();
  for (let y = top; y <= bottom; y++) {
    const from = up ? y + n : y - n;
    next[y] = from >= top && from <= bottom ? lines[from]! : randomLine(rand, width, !uncertain);
  }
  return { lines: next, moved: true };
}

/** Frames of a pane beside a column that stays (a sidebar): the pane's lines scroll, the column's do not. */
async function runPaneSequence(seed: number, frames: number, uncertain: boolean): Promise<{ compared: number; shifts: number }> {
  const rand = prng(seed);
  const cols = 30 + Math.floor(rand() * 50);
  const rows = 6 + Math.floor(rand() * 20);
  const side = rand() < 0.3 ? 0 : 4 + Math.floor(rand() * 12);
  const height = 2 + Math.floor(rand() * (rows - 2));
  const term = headlessTerminal(cols, rows);
  const writer = new FrameWriter();
  const left = Array.from({ length: height }, () => randomLine(rand, side, !uncertain));
  let right = Array.from({ length: height }, () => randomLine(rand, cols - side - 1, !uncertain));
  const frameOf = () => compose(left.map((l, y) => [...l, { text: " ".repeat(side - stringWidth(lineText(l).replace(/\x1b\[[0-9;]*m/g, "")) + 1), style: 0 }, ...right[y]!]), cols);
  let shifts = 0;
  for (let i = 0; i < frames; i++) {
    if (i > 0) {
      right = shiftBlock(rand, right, cols - side - 1, uncertain).lines;
      if (rand() < 0.3) right[Math.floor(rand() * height)] = randomLine(rand, cols - side - 1, !uncertain);
      if (rand() < 0.2) left[Math.floor(rand() * height)] = randomLine(rand, side, !uncertain);
    }
    const frame = frameOf();
    const bytes = writer.render(frame, cols, rows);
    if (/\x1b\[\d*M/.test(bytes)) shifts++;
    await writeTo(term, bytes);
    expect(screenOf(term), `seed ${seed}, frame ${i}, ${cols}×${rows}, pane at ${side + 1}`).toEqual(await fullRedraw(frame, cols, rows, false));
  }
  term.dispose();
  return { compared: frames, shifts };
}

/**
 * On the alternate screen (anchored): frames up to the terminal's full height, a full-height one
 * without its final newline as Ink sends it, drawn from the screen's top line. The cursor is
 * hidden there and rests where the last change left it, so only the cells are compared.
 */
async function runAnchoredSequence(seed: number, frames: number): Promise<{ compared: number; full: number }> {
  const rand = prng(seed);
  let cols = 10 + Math.floor(rand() * 50);
  let rows = 4 + Math.floor(rand() * 14);
  const term = headlessTerminal(cols, rows);
  await writeTo(term, "\x1b[?1049h\x1b[H");
  const writer = new FrameWriter({ anchored: true });
  let lines: Line[] = Array.from({ length: rows }, () => randomLine(rand, cols, true));
  let full = 0;
  for (let i = 0; i < frames; i++) {
    if (i > 0 && rand() < 0.06) {
      cols = 10 + Math.floor(rand() * 50);
      rows = 4 + Math.floor(rand() * 14);
      term.resize(cols, rows);
      lines = Array.from({ length: rows }, () => randomLine(rand, cols, true));
    } else if (i > 0) {
      lines = mutate(rand, lines, cols, rows + 1, false);
      // Mostly as tall as the screen, as the app is there; sometimes shorter (a frame before the data).
      if (rand() < 0.7) while (lines.length < rows) lines.push(randomLine(rand, cols, true));
      if (rand() < 0.5 && lines.length > rows) lines = lines.slice(0, rows);
      if (rand() < 0.1) lines = lines.slice(0, 1 + Math.floor(rand() * (rows - 1)));
      else if (lines.length > rows) lines = lines.slice(0, rows);
    }
    const composed = compose(lines, cols);
    const frame = lines.length === rows ? composed.slice(0, -1) : composed;
    if (lines.length === rows) full++;
    await writeTo(term, writer.render(frame, cols, rows));
    const expected = await fullRedraw(frame, cols, rows, false);
    expect(screenOf(term).rows, `seed ${seed}, frame ${i}, ${cols}×${rows}, ${lines.length} lines`).toEqual(expected.rows);
  }
  term.dispose();
  return { compared: frames, full };
}

describe("frame writer", () => {
  it("leaves the screen as a full redraw would, over random frames and resizes", async () => {
    let compared = 0;
    for (let seed = 1; seed <= 40; seed++) compared += await runSequence(seed, 20, false);
    console.log(`frame writer: ${compared} random frames compared cell by cell with a full redraw`);
    expect(compared).toBe(800);
  }, 180_000);

  it("also with characters whose width terminals disagree on (accents, flags)", async () => {
    let compared = 0;
    for (let seed = 101; seed <= 115; seed++) compared += await runSequence(seed, 20, true);
    console.log(`frame writer: ${compared} random frames with uncertain characters compared`);
    expect(compared).toBe(300);
  }, 180_000);

  it("also on a terminal that measures emoji as one cell (the changed lines look as in its full redraw)", async () => {
    let compared = 0;
    for (let seed = 201; seed <= 215; seed++) compared += await runSequence(seed, 20, true, true);
    console.log(`frame writer: ${compared} random frames compared on a terminal with other widths`);
    expect(compared).toBe(300);
  }, 180_000);

  it("moves blocks of lines that scrolled (whole lines, or a pane beside a column that stays) as a full redraw shows them", async () => {
    let compared = 0;
    let shifts = 0;
    for (let seed = 301; seed <= 340; seed++) {
      const r = await runPaneSequence(seed, 20, seed > 330);
      compared += r.compared;
      shifts += r.shifts;
    }
    console.log(`frame writer: ${compared} random frames with scrolled blocks compared, ${shifts} drawn by moving lines`);
    expect(compared).toBe(800);
    expect(shifts).toBeGreaterThan(200);
  }, 180_000);

  it("has the terminal move a scrolled pane's lines: only the new lines and the column beside it are written", () => {
    const side = (y: number) => `side ${String(y).padStart(2, "0")}`;
    const words = ["lunch", "release", "deploy", "review", "standup", "retro", "hotfix", "design", "budget", "launch"];
    const pane = (k: number) => `${words[k % 10]} ${words[(k * 3) % 7]} ${k} ${words[(k * 7) % 10]} ${words[(k + 4) % 9]}`;
    const frame = (first: number) => Array.from({ length: 20 }, (_, y) => `${side(y)} │ ${pane(first + y)}`).join("\n") + "\n";
    const writer = new FrameWriter();
    writer.render(frame(0), 60, 24);
    const bytes = writer.render(frame(3), 60, 24);
    expect(bytes).toMatch(/\x1b\[3M/);
    expect(bytes).toMatch(/\x1b\[3L/);
    for (const k of [20, 21, 22]) expect(bytes).toContain(pane(k));
    expect(bytes).not.toContain(pane(10));
    expect(bytes.length).toBeLessThan(450);
  });

  it("writes only the changed cells of a changed line, and nothing for an unchanged frame", () => {
    const writer = new FrameWriter();
    const a = ["left pane  │ message one", "left pane  │ message two", "status"].join("\n") + "\n";
    const b = ["left pane  │ message one", "left pane  │ message TWO", "status"].join("\n") + "\n";
    writer.render(a, 40, 10);
    const bytes = writer.render(b, 40, 10);
    expect(bytes).toContain("TWO");
    expect(bytes).not.toContain("left pane");
    expect(bytes.length).toBeLessThan(24);
    expect(writer.render(b, 40, 10)).toBe("");
  });

  it("on a line with an emoji, rewrites from the emoji to the last change only, when what follows stays in place", () => {
    const writer = new FrameWriter();
    const line = (mark: string) => `  🔒leadership     ${mark} Can someone check if they have gluten-free options?`;
    writer.render(line(" ") + "\n", 80, 10);
    const bytes = writer.render(line("▌") + "\n", 80, 10);
    expect(bytes).toContain("🔒leadership");
    expect(bytes).toContain("▌");
    expect(bytes).not.toContain("gluten");
  });

  it("on the alternate screen, draws frames as tall as the terminal by their changes, as a full redraw shows them", async () => {
    let compared = 0;
    let full = 0;
    for (let seed = 401; seed <= 430; seed++) {
      const r = await runAnchoredSequence(seed, 20);
      compared += r.compared;
      full += r.full;
    }
    console.log(`frame writer: ${compared} random frames on the alternate screen compared, ${full} as tall as the terminal`);
    expect(compared).toBe(600);
    expect(full).toBeGreaterThan(300);
  }, 180_000);

  it("on the alternate screen, changes one cell of a full-height frame with a few bytes and never a newline at the bottom", () => {
    const writer = new FrameWriter({ anchored: true });
    const frame = (mark: string) => Array.from({ length: 10 }, (_, y) => (y === 9 ? `status ${mark}` : `line ${y}`)).join("\n");
    expect(writer.render(frame("a"), 40, 10).startsWith("\x1b[H")).toBe(true);
    const bytes = writer.render(frame("b"), 40, 10);
    expect(bytes).toContain("b");
    expect(bytes).not.toContain("line");
    expect(bytes).not.toContain("\n");
    expect(bytes.length).toBeLessThan(16);
  });

  it("draws whole, from the top left corner, after a resize", () => {
    const writer = new FrameWriter();
    writer.render("one\ntwo\n", 40, 10);
    const bytes = writer.render("one\ntwo\n", 30, 10);
    expect(bytes.startsWith("\x1b[H\x1b[J")).toBe(true);
    expect(bytes).toContain("one\ntwo\n");
  });
});
