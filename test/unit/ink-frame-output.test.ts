/**
 * The bundle draws frames with termchat's frame buffer (src/ui/ink-frame/) instead of Ink's
 * own `Output`. A user must see the same screen either way: both are fed the same random
 * frames (styled text, wide characters, links, nested clips, transformers) and must produce
 * the same bytes — also when the second frame reuses the first one's lines (the caches).
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import widestLineInk from "widest-line";
import Output, { cellsOf, composedRow } from "../../src/ui/ink-frame/output.js";
import { composedGrid, doubtfulEdit, gridOf, sameCell, type Grid } from "../../src/ui/ink-frame/line-grid.js";
import widestLine from "../../src/ui/ink-frame/widest-line.js";
import { prng } from "../fixtures/prng.js";

type Transformer = (line: string, index: number) => string;
interface OutputLike {
  write(x: number, y: number, text: string, o: { transformers: Transformer[] }): void;
  clip(c: { x1?: number; x2?: number; y1?: number; y2?: number }): void;
  unclip(): void;
  get(): { output: string; height: number };
}
type OutputClass = new (o: { width: number; height: number }) => OutputLike;

// Ink does not export its Output; load it from its build by path (exports do not apply there).
const inkOutputUrl = pathToFileURL(resolve("node_modules/ink/build/output.js")).href;
const InkOutput = ((await import(inkOutputUrl)) as { default: OutputClass }).default;

const PIECES = [
  "a", "word", " ", "  ", "Ünïcödé", "漢字", "👍", "e\u0301", "🇯🇵", "—", "x",
  "\x1b[1m", "\x1b[22m", "\x1b[31m", "\x1b[39m", "\x1b[7m", "\x1b[27m", "\x1b[38;5;208m", "\x1b[48;2;10;20;30m",
  "\x1b[0m", "\x1b[2m", "\x1b[4m", "\x1b[24m",
  "\x1b]8;;https://example.test/a\x07", "\x1b]8;;\x07",
];

type Op =
  | { kind: "write"; x: number; y: number; text: string; transformers: Transformer[] }
  | { kind: "clip"; clip: { x1?: number; x2?: number; y1?: number; y2?: number } }
  | { kind: "unclip" };

const TRANSFORMERS: Transformer[] = [
  (line) => `\x1b[36m${line}\x1b[39m`,
  (line, index) => `${index}|${line}`,
  (line) => line.toUpperCase(),
];

function randomFrame(rand: () => number): { width: number; height: number; ops: Op[] } {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const width = int(1, 40);
  const height = int(1, 12);
  const ops: Op[] = [];
  let depth = 0;
  const count = int(1, 25);
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.15) {
      const clip: { x1?: number; x2?: number; y1?: number; y2?: number } = {};
      if (rand() < 0.7) {
        clip.x1 = int(-2, width);
        clip.x2 = clip.x1 + int(0, width);
      }
      if (rand() < 0.7) {
        clip.y1 = int(-2, height);
        clip.y2 = clip.y1 + int(0, height);
      }
      ops.push({ kind: "clip", clip });
      depth++;
    } else if (r < 0.22 && depth > 0) {
      ops.push({ kind: "unclip" });
      depth--;
    } else {
      const lines: string[] = [];
      for (let l = int(1, 4); l > 0; l--) {
        let line = "";
        for (let p = int(0, 10); p > 0; p--) line += PIECES[int(0, PIECES.length - 1)];
        lines.push(line);
      }
      const transformers = TRANSFORMERS.filter(() => rand() < 0.2);
      ops.push({ kind: "write", x: int(-3, width), y: int(-2, height), text: lines.join("\n"), transformers });
    }
  }
  return { width, height, ops };
}

function draw(Impl: OutputClass, frame: ReturnType<typeof randomFrame>): { output: string; height: number } {
  const out = new Impl({ width: frame.width, height: frame.height });
  for (const op of frame.ops) {
    if (op.kind === "write") out.write(op.x, op.y, op.text, { transformers: op.transformers });
    else if (op.kind === "clip") out.clip(op.clip);
    else out.unclip();
  }
  return out.get();
}

describe("the frame buffer the bundle draws with", () => {
  it("writes the same bytes as Ink's own on 2,000 random frames, drawn twice (second time from its caches)", () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const frame = randomFrame(prng(seed));
      const expected = draw(InkOutput, frame);
      const first = draw(Output as unknown as OutputClass, frame);
      const again = draw(Output as unknown as OutputClass, frame);
      if (first.output !== expected.output || again.output !== expected.output || first.height !== expected.height) {
        expect({ seed, output: first.output, again: again.output }).toEqual({ seed, output: expected.output, again: expected.output });
      }
    }
  });

  it("writes the same bytes frame after frame at one size, each a small change of the one before (rows taken from the frame before)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = prng(seed);
      const frame = randomFrame(rand);
      for (let step = 0; step < 6; step++) {
        // Drop one operation or repeat another one elsewhere: most rows stay, some change.
        const ops = frame.ops.slice();
        const i = Math.floor(rand() * ops.length);
        const op = ops[i];
        if (rand() < 0.5 || op?.kind !== "write") ops.splice(i, 1);
        else ops.push({ ...op, y: op.y + 1 });
        frame.ops = ops.filter((o, k) => o.kind !== "unclip" || ops.slice(0, k).filter((c) => c.kind === "clip").length > ops.slice(0, k).filter((c) => c.kind === "unclip").length);
        const expected = draw(InkOutput, frame);
        const got = draw(Output as unknown as OutputClass, frame);
        if (got.output !== expected.output) expect({ seed, step, output: got.output }).toEqual({ seed, step, output: expected.output });
      }
    }
  });

  it("writes the same bytes when a frame's operations are given again (a part of the screen that did not change), under its clip or another one", () => {
    for (let seed = 1; seed <= 500; seed++) {
      const rand = prng(seed);
      const frame = randomFrame(rand);
      const first = new Output({ width: frame.width, height: frame.height });
      for (const op of frame.ops) {
        if (op.kind === "write") first.write(op.x, op.y, op.text, { transformers: op.transformers });
        else if (op.kind === "clip") first.clip(op.clip);
        else first.unclip();
      }
      const recorded = first.since(0);
      expect(first.get().output).toBe(draw(InkOutput, frame).output);
      // Given again as they were: the same screen.
      const again = new Output({ width: frame.width, height: frame.height });
      again.replay(recorded);
      expect({ seed, output: again.get().output }).toEqual({ seed, output: draw(InkOutput, frame).output });
      // Given again inside a clip of the parent's: cut as Ink cuts them.
      const clip = { x1: Math.floor(rand() * frame.width), x2: frame.width - 1, y1: 0, y2: Math.floor(rand() * frame.height) };
      const clipped = new Output({ width: frame.width, height: frame.height });
      clipped.clip(clip);
      clipped.replay(recorded);
      clipped.unclip();
      const expected = draw(InkOutput, { ...frame, ops: [{ kind: "clip", clip }, ...frame.ops, { kind: "unclip" }] });
      expect({ seed, output: clipped.get().output }).toEqual({ seed, output: expected.output });
    }
  });

  it("gives the frame writer each changed row's cells as parsing the row's text would", () => {
    // Parsing a row's text back may list a cell's styles in another order, and reads the end of a
    // link (OSC 8 with no address) as a style of the cells after it, where as painted they have
    // none. Terminals draw both alike: the comparison is of the styles in force, in any order.
    const linkEnd = /^\x1b\]8;;(?:\x07|\x1b\\)?$/;
    const visible = (c: Grid[number]) => (c === null ? null : { ...c, styles: c.styles.filter((st) => !linkEnd.test(st.code)).sort((x, y) => x.code.localeCompare(y.code)) });
    const same = (a: Grid | false | undefined, b: Grid | false) =>
      a === b || (a !== false && a !== undefined && b !== false && a.length === b.length && a.every((c, i) => sameCell(visible(c), visible(b[i]!))));
    let taken = 0;
    let rows = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      const frame = randomFrame(prng(seed));
      const lines = draw(Output as unknown as OutputClass, frame).output.split("\n");
      for (const line of lines) {
        const grid = composedGrid(line, frame.width);
        rows++;
        if (grid === undefined) continue;
        taken++;
        if (!same(grid, gridOf(line, frame.width))) expect({ seed, line, grid }).toEqual({ seed, line, grid: gridOf(line, frame.width) });
      }
    }
    // Most rows are taken from the frame buffer. The others are parsed: a row the frame before had
    // the same (not joined again, so not handed over), or one with half a wide character covered.
    expect(taken).toBeGreaterThan(rows * 0.5);
  });

  it("gives the frame writer a changed row with a character of doubtful width as painted, its text not parsed again", () => {
    // A sidebar row with an emoji beside a pane row that changed: the writer rewrites the row from the emoji on.
    const out = new Output({ width: 30, height: 1 });
    out.write(0, 0, "🔒 private", { transformers: [] });
    out.write(12, 0, "\x1b[1mSender\x1b[22m  10:00 \x1b[31m—\x1b[39m", { transformers: [] });
    const [line] = out.get().output.split("\n");
    const edit = doubtfulEdit("🔒 private   Other  09:59", line!);
    expect(edit).toMatchObject({ column: 0, erase: true });
    expect(edit.text.replace(/\x1b\[[0-9;]*m/g, "")).toBe("🔒 private  Sender  10:00 —");
    // The cells it worked from are those the row was painted with (the tokenizer was not run on it).
    const painted = composedRow(line!)!;
    const cells = cellsOf(line!);
    expect(cells[0]).toBe(painted[0]);
    expect(cells.at(-1)).toBe(painted[26]);
    expect(cells.map((c) => c.value).join("")).toBe("🔒 private  Sender  10:00 —");
  });

  it("leaves to parsing a row whose text shows other styles than its cells were painted with", () => {
    // A bold, dim mark, then bold text written beside it: the row's text leaves dim with SGR 22,
    // which ends bold too, so the terminal shows the text plain; parsing the text says so.
    const out = new Output({ width: 12, height: 1 });
    out.write(0, 0, "\x1b[1m\x1b[2m▌\x1b[22m", { transformers: [] });
    out.write(1, 0, "\x1b[1mInbox\x1b[22m", { transformers: [] });
    const [line] = out.get().output.split("\n");
    expect(composedGrid(line!, 12)).toBeUndefined();
    const parsed = gridOf(line!, 12);
    expect(parsed && parsed[1]).toMatchObject({ value: "I", styles: [] });
  });

  it("leaves to parsing a row composed at no width (a terminal that reports no size), whose cells have holes", () => {
    // Ink lays out at width 0 when the terminal says nothing of its size; the writes grow the rows.
    const out = new Output({ width: 0, height: 1 });
    out.write(6, 0, "\x1b[1mInbox\x1b[22m", { transformers: [] });
    const [line] = out.get().output.split("\n");
    expect(() => composedGrid(line!, 11)).not.toThrow();
    expect(composedGrid(line!, 11)).toBeUndefined();
    expect(gridOf(line!, 11)).toMatchObject({ 0: { value: "I" } });
  });

  it("draws a styled, wide-character frame a user can read", () => {
    const out = new Output({ width: 12, height: 2 });
    out.write(0, 0, "\x1b[1m漢字\x1b[22m ok", { transformers: [] });
    out.write(2, 1, "👍 1", { transformers: [] });
    expect(out.get().output).toBe("\x1b[1m漢字\x1b[22m ok\n  👍 1");
  });

  it("measures the widest line as Ink's widest-line does", () => {
    const rand = prng(7);
    for (let i = 0; i < 500; i++) {
      let text = "";
      for (let p = Math.floor(rand() * 12); p > 0; p--) text += rand() < 0.15 ? "\n" : PIECES[Math.floor(rand() * PIECES.length)];
      expect(widestLine(text)).toBe(widestLineInk(text));
    }
  });
});
