/**
 * The terminal probe (src/ui/terminal/probe.ts) against fake terminals that answer its actual
 * questions as real ones do (test/fixtures/terminal-profiles.ts, terminal-answers.ts): the
 * answers travel as bytes through the patched input parser, cut into small reads with keys
 * typed between them, and land in the terminal's record; keys are never lost; a terminal that
 * answers nothing, or late, is handled. A terminal that sets more than TERM is played twice:
 * with the environment it gives its shell, and with TERM alone, as over SSH.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createInputParser } from "../../src/ui/ink-frame/input-parser.js";
import { resetTerminalAnswers, answersOwed } from "../../src/ui/terminal/answers.js";
import { resetTerminalCapabilities, terminalCapabilities } from "../../src/ui/terminal/capabilities.js";
import { parseColor, probeQueries, probeTerminal, QUERIES } from "../../src/ui/terminal/probe.js";
import { answersTo } from "../fixtures/terminal-answers.js";
import { PROBE_RESULTS, PROFILES, type ProfileName, type TerminalProfile } from "../fixtures/terminal-profiles.js";

/** The terminal's size in cells (its window's pixels are these cells times its cell size). */
const SIZE = { columns: 100, rows: 30 };

/** The whole of what `profile` answers to the probe's questions, as the terminal sends it back. */
function answerText(profile: TerminalProfile, written: string): string {
  return answersTo(profile, written, { cols: SIZE.columns, rows: SIZE.rows, cursor: { x: 0, y: 0 } }).join("");
}

afterEach(() => {
  resetTerminalAnswers();
  resetTerminalCapabilities();
});

/** Runs the probe against `profile`: its answers come back in reads of `step` characters, a key typed after each. */
async function probeAgainst(profile: TerminalProfile, opts: { step?: number; images?: boolean; waitMs?: number } = {}) {
  const parser = createInputParser();
  let written = "";
  const probe = probeTerminal({ write: (b) => (written += b), env: profile.env, images: opts.images ?? true, size: () => SIZE, waitMs: opts.waitMs ?? 200 });
  const answer = answerText(profile, written);
  const step = opts.step ?? 3;
  const keys: string[] = [];
  const typed: string[] = [];
  for (let i = 0; i < answer.length; i += step) {
    keys.push(...parser.push(answer.slice(i, i + step)));
    // A key typed meanwhile, in its own read (a terminal sends a key press as one write).
    if (!parser.hasPendingEscape()) {
      const key = String.fromCharCode(97 + (typed.length % 26));
      typed.push(key);
      keys.push(...parser.push(key));
    }
  }
  await probe.decided;
  probe.stop();
  return { written, keys, typed };
}

describe("the terminal probe", () => {
  // Over SSH only TERM reaches the program: what the terminal answers must be enough.
  const cases = (Object.keys(PROFILES) as ProfileName[]).flatMap((name) => {
    const profile: TerminalProfile = PROFILES[name];
    const local = [profile.label, name, profile] as const;
    if (Object.keys(profile.env).length === 1) return [local];
    return [local, [`${profile.label}, over SSH (TERM alone)`, name, { ...profile, env: { TERM: profile.env.TERM! } }] as const];
  });
  it.for(cases)("learns what %s can do, and loses no key typed meanwhile", async ([, name, profile]) => {
    const { keys, typed } = await probeAgainst(profile);
    const caps = terminalCapabilities();
    const learned = PROBE_RESULTS[name];
    expect(caps.graphics.mode).toBe(learned.graphics);
    expect(caps.cellPx).toEqual(learned.cellPx);
    expect(caps.background).toEqual(learned.background);
    expect(caps.synchronizedOutput).toBe(learned.synchronizedOutput);
    expect(keys.join("")).toBe(typed.join(""));
  });

  it("asks the device attributes last, and decides at their answer without waiting out the timeout", async () => {
    const kitty = PROFILES.kitty;
    const started = performance.now();
    const { written } = await probeAgainst(kitty, { waitMs: 60_000, step: 1 });
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(written.endsWith(QUERIES.deviceAttributes)).toBe(true);
    expect(written).toBe(Object.values(QUERIES).join(""));
    expect(answersOwed()).toBe(false);
  });

  it("does not ask about graphics inside tmux or screen, forced, or with previews off; asks the Linux console only what it knows", () => {
    expect(probeQueries({ TMUX: "/tmp/tmux-0/default,1,0", TERM: "tmux-256color" }, true)).not.toContain(QUERIES.kittyGraphics);
    expect(probeQueries({ STY: "1234.pts-0", TERM: "screen" }, true)).not.toContain(QUERIES.kittyGraphics);
    expect(probeQueries({ TERM: "xterm-256color", TERMCHAT_GRAPHICS: "sixel" }, true)).not.toContain(QUERIES.kittyGraphics);
    expect(probeQueries({ TERM: "xterm-256color" }, false)).not.toContain(QUERIES.kittyGraphics);
    expect(probeQueries({ TERM: "xterm-256color" }, true)[0]).toBe(QUERIES.kittyGraphics);
    expect(probeQueries({ TERM: "linux" }, true)).toEqual([QUERIES.deviceAttributes]);
  });

  it("keeps the mode forced by TERMCHAT_GRAPHICS, or off with previews off, whatever the terminal says", async () => {
    const kitty = PROFILES.kitty;
    await probeAgainst({ ...kitty, env: { ...kitty.env, TERMCHAT_GRAPHICS: "sixel" } });
    expect(terminalCapabilities().graphics.mode).toBe("sixel");
    await probeAgainst(kitty, { images: false });
    expect(terminalCapabilities().graphics.mode).toBe("off");
    expect(terminalCapabilities().background).toEqual({ r: 0, g: 0, b: 0 });
  });

  it("inside tmux (TMUX set), half-blocks even if the terminal says sixel", async () => {
    const tmux = PROFILES["tmux-ssh"];
    await probeAgainst({ ...tmux, env: { TMUX: "/tmp/tmux-0/default,1,0", TERM: "tmux-256color" } });
    expect(terminalCapabilities().graphics).toEqual({ mode: "halfblocks", depth: "256" });
  });

  it("half-blocks until the graphics answer; answers after the wait still count", async () => {
    const kitty = PROFILES.kitty;
    const parser = createInputParser();
    let written = "";
    const probe = probeTerminal({ write: (b) => (written += b), env: kitty.env, images: true, size: () => SIZE, waitMs: 30 });
    expect(terminalCapabilities().graphics.mode).toBe("halfblocks");
    await probe.decided; // the wait is over: nothing came
    expect(terminalCapabilities().graphics.mode).toBe("halfblocks");
    expect(parser.push(`x${answerText(kitty, written)}y`)).toEqual(["x", "y"]);
    expect(terminalCapabilities()).toMatchObject({ graphics: { mode: "kitty" }, cellPx: { width: 9, height: 20 }, synchronizedOutput: true });
    probe.stop();
  });

  it("reads colours in every form terminals write them", () => {
    expect(parseColor("rgb:ffff/8080/0000")).toEqual({ r: 255, g: 128, b: 0 });
    expect(parseColor("rgb:f/8/0")).toEqual({ r: 255, g: 136, b: 0 });
    expect(parseColor("rgba:ffff/ffff/ffff/ffff")).toEqual({ r: 255, g: 255, b: 255 });
    expect(parseColor("#1e1e1e")).toEqual({ r: 30, g: 30, b: 30 });
    expect(parseColor("#fff")).toEqual({ r: 255, g: 255, b: 255 });
    expect(parseColor("white")).toBeUndefined();
  });
});
