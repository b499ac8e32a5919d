/**
 * The client in real terminals of different sizes and colour settings: usable
 * at 80×24, following resizes without leaving old frames behind, no colour at
 * all with NO_COLOR or --no-color, and only the 16 basic colours with the
 * "16" theme. Colours are checked in the raw bytes the client wrote.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import stringWidth from "string-width";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
let dir: string | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const MESSAGE_TIME = /\w+ \w+ {2}(\w{3} \d+ )?\d{1,2}:\d{2}/;

/** Starts `termchat --demo` with its own settings directory (optionally a settings file) and raw output logging. */
async function startDemo(opts: { cols: number; rows: number; args?: string[]; env?: Record<string, string>; settings?: object }) {
  dir = mkdtempSync(join(tmpdir(), "termchat-terminal-"));
  const config = join(dir, "config");
  if (opts.settings) {
    mkdirSync(join(config, "termchat"), { recursive: true });
    writeFileSync(join(config, "termchat", "config.json"), JSON.stringify(opts.settings));
  }
  const logFile = join(dir, "raw.log");
  const port = await freePort();
  session = await startApp(["--demo", "--port", String(port), ...(opts.args ?? [])], {
    cols: opts.cols,
    rows: opts.rows,
    logFile,
    env: { HOME: dir, XDG_CONFIG_HOME: config, ...opts.env },
  });
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  // Whatever the start view, the checks below look at the Combined feed (a), from the sidebar (Esc).
  await session.waitFor(/≡ Combined feed/);
  await new Promise((r) => setTimeout(r, 300));
  await session.sendKeys("a");
  await session.waitFor(MESSAGE_TIME);
  await session.sendKeys("Escape");
  return session;
}

/** What is wrong with a screen of `cols`×`rows` (empty: nothing wider than the terminal, one frame only, status line on the last row). */
function layoutProblems(screen: string, cols: number, rows: number): string[] {
  const problems: string[] = [];
  const lines = screen.split("\n");
  if (lines.length > rows) problems.push(`${lines.length} lines on a ${rows}-row terminal`);
  for (const line of lines) if (stringWidth(line) > cols) problems.push(`wider than ${cols}: ${JSON.stringify(line)}`);
  // One frame: each fixed part appears exactly once (a frame drawn over an old one would repeat them).
  for (const re of [/≡ Inbox/, /≡ Combined feed/, /≡ Direct messages/, /\? help/]) {
    const n = lines.filter((l) => re.test(l)).length;
    if (n !== 1) problems.push(`${String(re)} appears ${n} times`);
  }
  // The status line is the last used row: on the alternate screen, the terminal's last row.
  const used = lines.map((l) => l.trim() !== "").lastIndexOf(true);
  if (!/connected.*Lighthouse Labs · Maya Okafor · \? help/.test(lines[used] ?? "")) problems.push(`last used row is not the status line: ${JSON.stringify(lines[used])}`);
  if (used !== rows - 1) problems.push(`status line on row ${used + 1}, expected ${rows}`);
  if (!MESSAGE_TIME.test(screen)) problems.push("no message in the pane");
  return problems;
}

/**
 * Polls the screen until it is laid out right for `cols`×`rows` (a capture may catch Ink in the
 * middle of drawing a frame); returns that screen, or fails with what was wrong with the last one.
 */
async function settledLayout(s: TmuxSession, cols: number, rows: number): Promise<string> {
  let screen = "";
  let problems: string[] = [];
  for (let i = 0; i < 100; i++) {
    screen = await s.capture();
    problems = layoutProblems(screen, cols, rows);
    if (problems.length === 0) return screen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`layout at ${cols}×${rows} not right after 10 s:\n${problems.join("\n")}\n--- screen ---\n${screen}`);
}

/** The SGR colour parameters (foreground, background, 256-colour, truecolour) in raw output. */
function colourCodes(raw: Buffer): { basic: Set<string>; extended: Set<string> } {
  const basic = new Set<string>();
  const extended = new Set<string>();
  for (const m of raw.toString("utf8").matchAll(/\x1b\[([0-9;]*)m/g)) {
    const params = (m[1] ?? "").split(";").map(Number);
    for (let i = 0; i < params.length; i++) {
      const p = params[i]!;
      if (p === 38 || p === 48) {
        extended.add(params.slice(i, i + (params[i + 1] === 2 ? 5 : 3)).join(";"));
        i += params[i + 1] === 2 ? 4 : 2;
      } else if ((p >= 30 && p <= 37) || (p >= 40 && p <= 47) || (p >= 90 && p <= 97) || (p >= 100 && p <= 107)) {
        basic.add(String(p));
      }
    }
  }
  return { basic, extended };
}

/** Opens a few screens so that every kind of coloured element has been drawn: the sidebar, a channel's topics, messages, help. */
async function browse(s: TmuxSession): Promise<void> {
  for (const key of ["j", "j", "Enter", "Tab", "k", "k", "Escape", "?"]) {
    await s.sendKeys(key);
    await new Promise((r) => setTimeout(r, 300));
  }
  await s.sendKeys("Escape");
  await new Promise((r) => setTimeout(r, 500)); // the output pipe is asynchronous
}

describe("terminal size", () => {
  it("is usable at 80×24 and follows a resize to 120×40 and back", async () => {
    const s = await startDemo({ cols: 80, rows: 24 });
    await settledLayout(s, 80, 24);

    await s.resize(120, 40);
    const wide = await settledLayout(s, 120, 40);
    // The wide layout really uses the width: some line is longer than 80 cells.
    expect(Math.max(...wide.split("\n").map((l) => stringWidth(l)))).toBeGreaterThan(80);

    await s.resize(80, 24);
    await settledLayout(s, 80, 24);
    // Still responsive after the resizes: the help screen opens and closes.
    await s.sendKeys("?");
    await s.waitFor(/termchat keys/);
    await s.sendKeys("Escape");
    await s.waitForGone(/termchat keys/);
    expect(await s.isAlive()).toBe(true);
  }, 60_000);
});

describe("colours", () => {
  it("NO_COLOR=1: no colour codes at all", async () => {
    const s = await startDemo({ cols: 100, rows: 30, env: { NO_COLOR: "1" } });
    await browse(s);
    const { basic, extended } = colourCodes(await s.rawOutput());
    expect([...basic, ...extended]).toEqual([]);
  }, 60_000);

  it("--no-color: no colour codes at all", async () => {
    const s = await startDemo({ cols: 100, rows: 30, args: ["--no-color"] });
    await browse(s);
    const { basic, extended } = colourCodes(await s.rawOutput());
    expect([...basic, ...extended]).toEqual([]);
  }, 60_000);

  it('the "16" theme uses only the 16 basic colours; the default theme does use more', async () => {
    const s16 = await startDemo({ cols: 100, rows: 30, settings: { theme: "16" } });
    await browse(s16);
    const sixteen = colourCodes(await s16.rawOutput());
    expect(sixteen.basic.size).toBeGreaterThan(0);
    expect([...sixteen.extended]).toEqual([]);
    await s16.kill();
    rmSync(dir!, { recursive: true, force: true });

    // The same screens in the dark theme show the channels' own colours (256 colours here), so the check above can fail.
    const dark = await startDemo({ cols: 100, rows: 30 });
    await browse(dark);
    expect(colourCodes(await dark.rawOutput()).extended.size).toBeGreaterThan(0);
  }, 90_000);
});
