/**
 * The key scenarios of the e2e suite (move with j/k in a list, among messages and in the
 * sidebar, open a conversation, compose and send a message the server then holds, quit with
 * Q or Ctrl-C) in every terminal we can play or run: the test terminal (pty-terminal.ts)
 * answering as each profile of test/fixtures/terminal-profiles.ts does, and reporting no size (a
 * bare pty: 0×0), tmux with TMUX unset and
 * TERM=xterm-256color (an SSH session started from tmux), and GNU screen with and without its
 * variables. Then the answers' timing: late, a byte at a time, between keys, and into the
 * compose box: an answer must never act as a key nor show up as typed text.
 *
 * The cases run concurrently, three demos at a time (`vitest run --maxConcurrency=1` runs them
 * one by one, and then shows each case's own time); terminal-scenario.ts has the scenario.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, it, type TestContext } from "vitest";
import { ensureBuilt } from "./app.js";
import { Case, DRAFT, press, slots, started } from "./terminal-scenario.js";
import { PROFILES, type ProfileName } from "../fixtures/terminal-profiles.js";

const DEMOS_AT_ONCE = 3;
const slot = slots(DEMOS_AT_ONCE);

/** A test body with its own Case, run when a slot is free; the case is cleaned up before the slot goes to the next. */
const run = (body: (c: Case) => Promise<void>) => (ctx: TestContext) => {
  const c = new Case(ctx.expect, ctx.onTestFinished);
  return slot(async () => {
    try {
      await body(c);
    } finally {
      await c.cleanUp();
    }
  });
};

beforeAll(() => ensureBuilt());

const AT_ONCE = Object.keys(PROFILES) as ProfileName[];

describe.concurrent("the key scenarios in every terminal, answers at once", () => {
  it.for(AT_ONCE.map((name, i) => [name, i % 2 ? "C-c" : "Q"] as const))("%s (quit with %s)", ([name, quit], ctx) =>
    run(async (c) => {
      const d = await c.demo();
      const t = await c.pty(d.args, { profile: PROFILES[name], env: d.env });
      await started(t);
      await c.scenario(t, d.site, name, quit);
    })(ctx),
  );

  it("a terminal that reports no size (0×0, as a bare pty does)", (ctx) =>
    run(async (c) => {
      const d = await c.demo();
      const t = await c.pty(d.args, { profile: PROFILES.xterm, env: d.env, sizeUnknown: true });
      await started(t);
      await c.scenario(t, d.site, "no size", "Q");
    })(ctx),
  );

  it("tmux with TMUX unset and TERM=xterm-256color (an SSH session started from tmux)", (ctx) =>
    run(async (c) => {
      const d = await c.demo();
      const t = await c.tmux(["env", "-u", "TMUX", "-u", "TMUX_PANE", ...d.args], { env: { ...d.env, TERM: "xterm-256color" } });
      await started(t);
      await c.scenario(t, d.site, "tmux", "Q");
    })(ctx),
  );

  it.for([
    ["as it sets them (STY, TERM=screen)", [] as string[], "C-c"],
    ["with STY unset and TERM=xterm-256color", ["env", "-u", "STY", "TERM=xterm-256color"], "Q"],
  ] as const)("GNU screen %s, in an xterm", ([, prefix, quit], ctx) =>
    run(async (c) => {
      const d = await c.demo();
      const screenDir = join(d.home, "screens");
      mkdirSync(screenDir, { mode: 0o700 });
      const rc = join(d.home, "screenrc");
      // autodetach off: when the terminal hangs up (a failed case's clean-up), the session ends instead of living on detached.
      writeFileSync(rc, "startup_message off\nautodetach off\n");
      const command = ["screen", "-q", "-c", rc, "-S", `tc${process.pid}-${prefix.length}`, ...prefix, ...d.args];
      const t = await c.pty(command, { profile: PROFILES.xterm, env: { ...d.env, SCREENDIR: screenDir } });
      await started(t);
      await c.scenario(t, d.site, "screen", quit);
    })(ctx),
  );
});

describe.concurrent("answers late, split, between keys or into the compose box: never keys, never text", () => {
  it.for([
    ["kitty, every answer 1.5 s late (after the app stopped waiting)", "kitty", { kind: "late", afterMs: 1500 }, "Q"],
    ["xterm with sixel, every answer a byte at a time, 40 ms apart", "xterm-sixel", { kind: "split", byteGapMs: 40 }, "C-c"],
  ] as const)("%s", ([, name, timing, quit], ctx) =>
    run(async (c) => {
      const d = await c.demo();
      const t = await c.pty(d.args, { profile: PROFILES[name], timing, env: d.env });
      await started(t);
      await t.waitForAnswers({ timeoutMs: 15_000 });
      // A key after the answers shows they have been read: exactly one row down, nothing else.
      await press(t, [["j", /▌ @ Omar Haddad/]]);
      c.expect(await c.clean(t, "after the answers")).toMatch(/Inbox {2}\d+ unread/);
      await press(t, [["k", /▌ @ Lena Fischer/]]);
      await c.scenario(t, d.site, timing.kind, quit);
    })(ctx),
  );

  it("WezTerm, answers one at a time with keys typed between them", (ctx) =>
    run(async (c) => {
      const d = await c.demo();
      const t = await c.pty(d.args, { profile: PROFILES.wezterm, timing: { kind: "held" }, env: d.env });
      await started(t);
      const held = () => t.exchanges.filter((e) => e.answer !== undefined).length;
      await c.expect.poll(held, { timeout: 10_000 }).toBeGreaterThan(1);
      const answers = held();
      t.releaseAnswers(250);
      // A j after each of the first three answers: three rows down, whatever came between them.
      for (let n = 1; n <= 3; n++) {
        await c.expect.poll(() => t.answersWritten(), { timeout: 5000 }).toBeGreaterThanOrEqual(Math.min(n, answers));
        await t.sendKeys("j");
      }
      await t.waitForAnswers({ timeoutMs: 10_000 });
      await t.waitFor(/▌ {4}release 2\.4 ★/, { timeoutMs: 10_000 });
      await c.clean(t, "after the answers and keys");
      await press(t, [["k", /▌▾ #engineering/], ["k", /▌ @ Omar Haddad/], ["k", /▌ @ Lena Fischer/]]);
      await c.scenario(t, d.site, "mixed", "Q");
    })(ctx),
  );

  it.for(["foot", "xterm"] as const)("%s, answers held until the compose box is open: they never become its text", (name, ctx) =>
    run(async (c) => {
      const d = await c.demo();
      const t = await c.pty(d.args, { profile: PROFILES[name], timing: { kind: "held" }, env: d.env });
      await started(t);
      await press(t, [["j", /▌ @ Omar Haddad/], ["j", /▌▾ #engineering/], ["j", /▌ {4}release 2\.4 ★/], ["Enter", "#engineering > release 2.4"], ["r", "Enter send"]]);
      await t.type(" before");
      await t.waitFor(`${DRAFT} before`, { timeoutMs: 10_000 });
      t.releaseAnswers();
      await t.waitForAnswers({ timeoutMs: 5000 });
      await t.type(" after");
      await t.waitFor(`${DRAFT} before after`, { timeoutMs: 10_000 });
      await c.clean(t, "with the answers come while composing");
      await t.sendKeys("Enter");
      await t.waitForGone("Enter send", { timeoutMs: 10_000 });
      await c.expect.poll(() => c.lastSent(d.site), { timeout: 10_000 }).toBe(`${DRAFT} before after`);
      await t.sendKeys("Q");
      c.expect(await t.waitForExit({ timeoutMs: 10_000 })).toBe(0);
    })(ctx),
  );
});
