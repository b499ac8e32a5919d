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
  await session.waitFor(MESSAGE_TIME);
  return session;
}

/** Checks one settled screen of `cols`×`rows`: nothing wider than the terminal, one frame only, status line last. */
function checkLayout(screen: string, cols: number, rows: number): void {
  const lines = screen.split("\n");
  expect(lines.length).toBeLessThanOrEqual(rows);
  for (const line of lines) expect(stringWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(cols);
  // One frame: each fixed part appears exactly once (a frame drawn over an old one would repeat them).
  const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
  expect(count(/≡ Inbox/)).toBe(1);
  expect(count(/≡ Combined feed/)).toBe(1);
  expect(count(/\? help/)).toBe(1);
  // The status line is the last used row: the app keeps one row free below it.
  const used = lines.map((l) => l.trim() !== "").lastIndexOf(true);
  expect(lines[used]).toMatch(/connected.*Lighthouse Labs · Maya Okafor · \? help/);
  expect(used).toBe(rows - 2);
  // Sidebar and messages are both there.
  expect(screen).toMatch(/≡ Direct messages/);
  expect(screen).toMatch(MESSAGE_TIME);
}

/** Waits until the screen is laid out for `rows` rows (the status line on the row above the last). */
async function waitForLayout(s: TmuxSession, rows: number): Promise<string> {
  return s.waitFor(new RegExp(`^(?:.*\\n){${rows - 2}}.*\\? help`));
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
    checkLayout(await waitForLayout(s, 24), 80, 24);

    await s.resize(120, 40);
    const wide = await waitForLayout(s, 40);
    checkLayout(wide, 120, 40);
    // The wide layout really uses the width: some line is longer than 80 cells.
    expect(Math.max(...wide.split("\n").map((l) => stringWidth(l)))).toBeGreaterThan(80);

    await s.resize(80, 24);
    checkLayout(await waitForLayout(s, 24), 80, 24);
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
