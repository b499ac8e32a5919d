/**
 * The terminal probe in the app's own chain: Ink (patched) reads a fake terminal's input, the
 * probe's questions go out after the first frame, the answers come back cut into small reads
 * with keys typed between them. Keys reach the handlers in order and nothing else does; what
 * the terminal said is in the record; a terminal that answers nothing takes keys at once; a
 * lone Esc is still Escape while answers are owed.
 */
import { EventEmitter } from "node:events";
import { act, createElement, type ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { answersTo } from "../fixtures/terminal-answers.js";
import { PROBE_RESULTS, PROFILES, type ProfileName, type TerminalProfile } from "../fixtures/terminal-profiles.js";

process.env.CI = "false"; // Ink draws frames only outside CI; decided when it loads
const ink = await import("ink");
const { KeypressProvider, useKeypress } = await import("../../src/ui/hooks/use-keypress.js");
const { TerminalProbe } = await import("../../src/ui/terminal/TerminalProbe.js");
const { QUERIES } = await import("../../src/ui/terminal/probe.js");
const { resetTerminalCapabilities, terminalCapabilities } = await import("../../src/ui/terminal/capabilities.js");
const { resetTerminalAnswers } = await import("../../src/ui/terminal/answers.js");
const { BEGIN_SYNC } = await import("../../src/ui/ink-frame/sync-mode.js");

/** A terminal: what the app writes, and a keyboard whose bytes the app reads as a tty's (paused mode, 'readable'). */
class FakeTerminal {
  readonly writes: string[] = [];
  private readonly pending: string[] = [];
  onQuestions: (written: string) => void = () => undefined;
  readonly stdin = Object.assign(new EventEmitter(), {
    isTTY: true,
    setEncoding: () => undefined,
    setRawMode: () => undefined,
    ref: () => undefined,
    unref: () => undefined,
    read: () => this.pending.shift() ?? null,
  });
  readonly stdout = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns: 60,
    rows: 12,
    write: (s: string) => {
      this.writes.push(s);
      if (s.includes(QUERIES.deviceAttributes)) this.onQuestions(s);
      return true;
    },
  });
  /** The terminal sends bytes (a key press, or part of an answer) in one read. */
  send(bytes: string): void {
    this.pending.push(bytes);
    this.stdin.emit("readable");
  }
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (ok()) return;
    await act(async () => tick(10)); // bounded: 500 looks, 10 ms apart
  }
  throw new Error(`timed out waiting for ${what}`);
}

function Recorder({ log }: { log: string[] }) {
  useKeypress((name) => {
    log.push(name);
    return true;
  });
  return createElement(ink.Text, null, "ready");
}

async function start(term: FakeTerminal, env: Record<string, string>) {
  const log: string[] = [];
  const tree = (children: ReactNode) => createElement(TerminalProbe, { images: true, env, children });
  let app!: ReturnType<typeof ink.render>;
  await act(async () => {
    app = ink.render(tree(createElement(KeypressProvider, null, createElement(Recorder, { log }))), {
      stdout: term.stdout as unknown as NodeJS.WriteStream,
      stdin: term.stdin as unknown as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: false,
    });
  });
  return { log, app };
}

afterEach(() => {
  resetTerminalCapabilities();
  resetTerminalAnswers();
});

/** Answers as `profile` does, each in reads of a few characters, a key typed after each; `answers` gets their count. */
function answerLike(term: FakeTerminal, profile: TerminalProfile, typed: string[], answers: { count?: number }) {
  term.onQuestions = (written) => {
    const state = { cols: term.stdout.columns, rows: term.stdout.rows, cursor: { x: 0, y: 0 } };
    const list = answersTo(profile, written, state);
    answers.count = list.length;
    void (async () => {
      for (const answer of list) {
        for (let i = 0; i < answer.length; i += 4) {
          term.send(answer.slice(i, i + 4));
          await tick(1);
        }
        // Between two answers (never inside one: a terminal writes each answer whole).
        const key = "abcdefghijklmnopqrst"[typed.length]!;
        typed.push(key);
        term.send(key);
      }
    })();
  };
}

describe("the terminal probe in the app", () => {
  for (const name of ["xterm-sixel", "kitty", "foot"] satisfies ProfileName[]) {
    it(`asks after the first frame, and with ${name} keys typed between the answers arrive in order, nothing else`, async () => {
      const profile: TerminalProfile = PROFILES[name];
      const learned = PROBE_RESULTS[name];
      const term = new FakeTerminal();
      const typed: string[] = [];
      const answers: { count?: number } = {};
      answerLike(term, profile, typed, answers);
      const { log, app } = await start(term, profile.env);
      await until("every answer and key", () => answers.count !== undefined && typed.length === answers.count && log.length === typed.length);
      const firstFrame = term.writes.findIndex((w) => w.includes("ready"));
      const questions = term.writes.findIndex((w) => w.includes(QUERIES.deviceAttributes));
      expect(firstFrame).toBeGreaterThanOrEqual(0);
      expect(questions).toBeGreaterThan(firstFrame);
      expect(log).toEqual(typed);
      expect(terminalCapabilities()).toMatchObject({ graphics: { mode: learned.graphics }, cellPx: learned.cellPx, background: learned.background, synchronizedOutput: learned.synchronizedOutput });
      // Keys after the probe: still keys.
      await act(async () => {
        term.send("j");
        await tick(20);
      });
      expect(log.at(-1)).toBe("j");
      if (learned.synchronizedOutput) {
        app.rerender(createElement(ink.Text, null, "next frame"));
        await until("the next frame", () => term.writes.some((w) => w.includes("next")));
        expect(term.writes.find((w) => w.includes("next"))!.startsWith(BEGIN_SYNC)).toBe(true);
      }
      app.unmount();
    });
  }

  it("with a terminal that answers nothing, keys work at once, and Esc alone is Escape", async () => {
    const term = new FakeTerminal();
    const { log, app } = await start(term, { TERM: "xterm-256color" });
    await act(async () => {
      term.send("j");
      await tick(20);
    });
    expect(log).toEqual(["j"]);
    await act(async () => {
      term.send("\x1b"); // while answers are owed it waits a little for the rest of one, then is Escape
      await tick(5);
    });
    await until("Escape", () => log.length === 2);
    await act(async () => {
      term.send("Q");
      await tick(20);
    });
    expect(log).toEqual(["j", "escape", "Q"]);
    expect(terminalCapabilities().graphics.mode).toBe("halfblocks");
    app.unmount();
  });
});
