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

  it("draws whole, from the top left corner, after a resize", () => {
    const writer = new FrameWriter();
    writer.render("one\ntwo\n", 40, 10);
    const bytes = writer.render("one\ntwo\n", 30, 10);
    expect(bytes.startsWith("\x1b[H\x1b[J")).toBe(true);
    expect(bytes).toContain("one\ntwo\n");
  });
});
