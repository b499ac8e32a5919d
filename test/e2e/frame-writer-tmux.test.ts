/**
 * The frame writer's bytes in a real terminal (tmux): a pane beside a sidebar scrolls by a few
 * lines a frame (the writer has tmux delete and insert lines, then writes what is new), and after
 * every frame tmux's screen, colours and attributes included, is the one a whole redraw of that
 * frame gives in a second tmux.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import stringWidth from "string-width";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { FrameWriter } from "../../src/ui/ink-frame/frame-writer.js";
import { prng } from "../fixtures/prng.js";
import { hasTmux, TmuxSession } from "./tmux.js";

const COLS = 60;
const ROWS = 16;
const FRAMES = 24;
const dir = mkdtempSync(join(tmpdir(), "termchat-frames-"));
let sessions: TmuxSession[] = [];

afterEach(async () => {
  await Promise.all(sessions.map((s) => s.kill()));
  sessions = [];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORDS = ["lunch", "release", "deploy", "review", "standup", "hotfix", "design", "🎉", "漢字", "budget", "launch"];
const STYLES = ["", "\x1b[1m", "\x1b[2m", "\x1b[36m", "\x1b[38;5;209m", "\x1b[7m"];

/** The frames: a 14-row sidebar (the frame's number on top) beside a pane whose lines move up or down. */
function frames(seed: number): string[] {
  const rand = prng(seed);
  const pick = <T,>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const paneLine = () => `${pick(STYLES)}${Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(WORDS)).join(" ")}\x1b[0m`;
  const side = Array.from({ length: ROWS - 2 }, () => `${pick(STYLES)}${pick(["▸#", "  ", "🔒"])}${pick(WORDS).slice(0, 8)}\x1b[0m`);
  let pane = Array.from({ length: ROWS - 2 }, paneLine);
  const out: string[] = [];
  for (let i = 0; i < FRAMES; i++) {
    const n = 1 + Math.floor(rand() * 4);
    if (rand() < 0.5) pane = [...pane.slice(n), ...Array.from({ length: n }, paneLine)];
    else pane = [...Array.from({ length: n }, paneLine), ...pane.slice(0, -n)];
    if (rand() < 0.3) side[Math.floor(rand() * side.length)] = `\x1b[1m▾ folder ${i}\x1b[0m`;
    const rows = side.map((s, y) => (y === 0 ? `frame ${String(i).padStart(2, "0")}` : s));
    // Ink pads each row's left part to its width; the pane starts at column 14.
    out.push(rows.map((s, y) => `${s}\x1b[14G│ ${pane[y]}`).join("\n") + "\n");
  }
  return out;
}

/** A program that writes the next chunk at each key. */
const PLAYER = `
import { readFileSync } from "node:fs";
const chunks = JSON.parse(readFileSync(process.argv[2], "utf8"));
process.stdin.setRawMode(true);
let i = 0;
process.stdout.write(chunks[i++]);
process.stdin.on("data", () => { if (i < chunks.length) process.stdout.write(chunks[i++]); });
setTimeout(() => process.exit(0), 120000);
`;

describe("the frame writer in tmux", () => {
  it("leaves tmux's screen as a whole redraw leaves it, frame after frame of a scrolling pane", async () => {
    if (!(await hasTmux())) throw new Error("tmux is needed for this test");
    const list = frames(7);
    // The lines of a frame as Ink hands them over: each one already cut to its columns.
    const ink = list.map((f) => f.replace(/([^\n]*?)\x1b\[14G/g, (_m, left: string) => left + " ".repeat(Math.max(0, 14 - visibleWidth(left)))));
    const writer = new FrameWriter();
    const incremental = ink.map((f) => writer.render(f, COLS, ROWS));
    const whole = ink.map((f) => `\x1b[H\x1b[2J${new FrameWriter().render(f, COLS, ROWS)}`);
    expect(incremental.filter((b) => /\x1b\[\d*M/.test(b)).length).toBeGreaterThan(FRAMES / 3);
    writeFileSync(join(dir, "player.mjs"), PLAYER);
    writeFileSync(join(dir, "incremental.json"), JSON.stringify(incremental));
    writeFileSync(join(dir, "whole.json"), JSON.stringify(whole));
    const start = (file: string) => TmuxSession.start(["node", join(dir, "player.mjs"), join(dir, file)], { cols: COLS, rows: ROWS });
    const [a, b] = await Promise.all([start("incremental.json"), start("whole.json")]);
    sessions.push(a, b);
    for (let i = 0; i < FRAMES; i++) {
      const label = `frame ${String(i).padStart(2, "0")}`;
      if (i > 0) await Promise.all([a.sendKeys("x"), b.sendKeys("x")]);
      await Promise.all([a.waitFor(label, { timeoutMs: 10_000 }), b.waitFor(label, { timeoutMs: 10_000 })]);
      const [sa, sb] = [cells(await a.captureStyled()), cells(await b.captureStyled())];
      expect(sa, label).toEqual(sb);
    }
  }, 120_000);
});

/**
 * A styled capture as rows of cells, each its character and the style it shows in (colours and
 * attributes), trailing unstyled blanks left out: tmux re-encodes styles its own way.
 */
function cells(capture: string): string[][] {
  // The capture carries the style from one row to the next.
  let attrs = new Set<string>();
  let fg = "";
  let bg = "";
  return capture.split("\n").map((row) => {
    const out: string[] = [];
    for (const part of row.split(/(\x1b\[[0-9;]*m)/)) {
      const sgr = /^\x1b\[([0-9;]*)m$/.exec(part);
      if (!sgr) {
        for (const ch of part) out.push(`${ch}|${fg}|${bg}|${[...attrs].sort().join("")}`);
        continue;
      }
      const p = (sgr[1] || "0").split(";");
      for (let i = 0; i < p.length; i++) {
        const c = p[i]!;
        if (c === "0" || c === "") [attrs, fg, bg] = [new Set(), "", ""];
        else if (c === "22") (attrs.delete("1"), attrs.delete("2"));
        else if (/^2[3-9]$/.test(c)) attrs.delete(String(Number(c) - 20));
        else if (/^[1-9]$/.test(c)) attrs.add(c);
        else if (c === "39") fg = "";
        else if (c === "49") bg = "";
        else if (c === "38" || c === "48") {
          const n = p[i + 1] === "5" ? 3 : 5;
          const value = p.slice(i, i + n).join(";");
          if (c === "38") fg = value;
          else bg = value;
          i += n - 1;
        } else if (/^(3|9)\d$/.test(c)) fg = c;
        else bg = c;
      }
    }
    while (out.length > 0 && /^ \|\|\|$/.test(out.at(-1)!)) out.pop();
    return out;
  });
}

function visibleWidth(text: string): number {
  return stringWidth(text.replace(/\x1b\[[0-9;]*m/g, ""));
}
