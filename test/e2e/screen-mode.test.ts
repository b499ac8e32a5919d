/**
 * The built client takes the terminal as full-screen programs do: the alternate screen, the
 * whole of it, and gives it back on every way out. In tmux: a marker line is printed, then the
 * client starts; after it quits, crashes (an uncaught exception), or is ended by a signal, the
 * normal screen shows the marker again and nothing of the client, and the scrollback holds none
 * of its frames. Also: with TMUX unset (what an SSH session started from tmux looks like) the
 * terminal probe is answered by tmux itself, and keys work.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, ensureBuilt } from "./app.js";
import { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
let dir: string | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const MARKER = "marker printed before termchat started";
const APP = /connected.*Maya Okafor/;

/** The demo started by a shell that first prints the marker; TMUX unset as over SSH. */
async function startAfterMarker(extraEnv: Record<string, string> = {}): Promise<TmuxSession> {
  dir = mkdtempSync(join(tmpdir(), "termchat-screen-"));
  const env = { XDG_CONFIG_HOME: join(dir, "config"), XDG_STATE_HOME: join(dir, "state"), XDG_CACHE_HOME: join(dir, "cache"), ...extraEnv };
  // exec: the pane's process is the client itself, so the test can signal it by its pid.
  const script = `echo '${MARKER}'; unset TMUX; exec "${process.execPath}" "${BIN}" --demo`;
  const s = await TmuxSession.start(["sh", "-c", script], { cols: 100, rows: 30, cwd: ROOT, env, logFile: join(dir, "output.log") });
  await s.waitFor(APP, { timeoutMs: 30_000 });
  return s;
}

/** The pane's whole history (scrollback and screen), as tmux holds it. */
function history(s: TmuxSession): Promise<string> {
  return s.history();
}

/** Polls the screen until it differs from `before` (bounded: 100 looks, 100 ms apart). */
async function changedFrom(s: TmuxSession, before: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const screen = await s.capture();
    if (screen !== before) return screen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the screen did not change:\n${before}`);
}

function expectGivenBack(screen: string): void {
  expect(screen).toContain(MARKER);
  expect(screen).not.toMatch(APP);
  expect(screen).not.toContain("Inbox");
}

describe("the alternate screen", () => {
  it("uses the terminal's whole height, and after q the normal screen is back as it was", async () => {
    session = await startAfterMarker();
    const screen = await session.capture();
    expect(screen).not.toContain(MARKER);
    // The status line is on the terminal's last row.
    expect(screen.split("\n")[29]).toMatch(APP);
    // A resize leaves nothing behind either.
    await session.resize(80, 24);
    await session.waitFor(APP);
    await session.resize(100, 30);
    await session.waitFor(APP);
    await session.sendKeys("Q");
    expect(await session.waitForExit({ timeoutMs: 15_000 })).toBe(0);
    const after = await history(session);
    expectGivenBack(after);
    const raw = (await session.rawOutput()).toString("latin1");
    expect(raw.lastIndexOf("\x1b[?1049l")).toBeGreaterThan(raw.lastIndexOf("\x1b[?1049h"));
    expect(raw.lastIndexOf("\x1b[?2004l")).toBeGreaterThan(raw.lastIndexOf("\x1b[?2004h"));
    expect(raw.lastIndexOf("\x1b[?25h")).toBeGreaterThan(raw.lastIndexOf("\x1b[?25l"));
  });

  it("after a crash (an uncaught exception) the normal screen is back, with the error on it", async () => {
    const trigger = join(tmpdir(), `termchat-crash-${process.pid}-${Date.now()}`);
    const hook = join(tmpdir(), `termchat-crash-hook-${process.pid}.cjs`);
    writeFileSync(
      hook,
      [
        "// Throws an uncaught exception in the client once the test creates a file.",
        'const fs = require("node:fs");',
        "let looks = 0;",
        "const timer = setInterval(() => {",
        "  if (++looks > 1200) return clearInterval(timer);",
        `  if (!fs.existsSync(${JSON.stringify(trigger)})) return;`,
        "  clearInterval(timer);",
        '  throw new Error("crash on demand");',
        "}, 50);",
        "timer.unref();",
      ].join("\n"),
    );
    try {
      session = await startAfterMarker({ NODE_OPTIONS: `--require=${hook}` });
      writeFileSync(trigger, "");
      expect(await session.waitForExit({ timeoutMs: 15_000 })).toBe(1);
      const after = await history(session);
      expectGivenBack(after);
      expect(after).toContain("Error: crash on demand");
      // The error comes after the marker, on the normal screen.
      expect(after.indexOf("crash on demand")).toBeGreaterThan(after.indexOf(MARKER));
    } finally {
      rmSync(trigger, { force: true });
      rmSync(hook, { force: true });
    }
  });

  for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
    it(`after ${signal} the normal screen is back`, async () => {
      session = await startAfterMarker();
      const pid = await session.pid();
      expect(pid).toBeDefined();
      process.kill(pid!, signal);
      await session.waitForExit({ timeoutMs: 15_000 });
      expectGivenBack(await history(session));
    });
  }
});

describe("tmux with TMUX unset (an SSH session started from tmux)", () => {
  it("asks the terminal, is answered by tmux, and takes keys: j moves, Q quits", async () => {
    session = await startAfterMarker();
    const raw = (await session.rawOutput()).toString("latin1");
    expect(raw).toContain("\x1b[c"); // the probe went out (tmux answers it itself)
    const before = await session.waitFor(/›/); // the Inbox's selected row
    await session.sendKeys("j");
    const screen = await changedFrom(session, before);
    // No answer was typed as text anywhere.
    expect(screen).not.toMatch(/\[\?\d+(;\d+)*c|rgb:|>\|tmux|Gi=31/);
    await session.sendKeys("Q");
    expect(await session.waitForExit({ timeoutMs: 15_000 })).toBe(0);
  });
});
