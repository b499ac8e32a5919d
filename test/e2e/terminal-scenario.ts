/**
 * The key scenarios for every-terminal.test.ts, on any terminal a case starts (the test terminal,
 * tmux, screen in the test terminal), with one demo per case: its own server on a free port,
 * throw-away home and XDG directories, and everything it started cleaned up when it ends.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExpectStatic, TestContext } from "vitest";
import { BIN, freePort, ROOT, topicMessages } from "./app.js";
import { PtyTerminal, type PtyOptions } from "./pty-terminal.js";
import { TmuxSession, type TmuxOptions } from "./tmux.js";

/** What the scenarios need of a terminal; TmuxSession and PtyTerminal both have it. */
export type Driver = Pick<PtyTerminal, "waitFor" | "waitForGone" | "sendKeys" | "type" | "capture"> & {
  waitForExit(opts?: { timeoutMs?: number }): Promise<number | undefined>;
  kill(): Promise<void>;
};

/** The draft the demo keeps for Maya in #engineering > release 2.4: the compose box starts with it. */
export const DRAFT = "Approved, go ahead with 2.4.1 —";
/** Pieces of terminal answers that must never reach the screen as text. */
const ANSWER_TEXT = /rgb:|\]1[01];|\[\?\d+;|\$y|;OK|>\||Gi=|kitty\(|XTerm\(|VTE\(|WezTerm 2|foot\(|iTerm2 3/;
/** A popup's frame: nothing in the scenarios opens one. */
const POPUP = /[╭╮╰╯]/;
/** For each step after the start: a key's effect shows well within this, even on a busy machine. */
const STEP = { timeoutMs: 10_000 };
const STEP_POLL = { timeout: 10_000 };

export interface Demo {
  site: string;
  home: string;
  /** The demo's command line. */
  args: string[];
  env: Record<string, string>;
}

/** At most `n` bodies at once (each case runs a demo, and the machine has two cores). */
export function slots(n: number): <T>(body: () => Promise<T>) => Promise<T> {
  let free = n;
  const waiting: Array<() => void> = [];
  return async (body) => {
    if (free > 0) free--;
    else await new Promise<void>((go) => waiting.push(go));
    try {
      return await body();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/** One test's terminals, demo and clean-up; assertions through the test's own expect (tests run concurrently). */
export class Case {
  private readonly steps: Array<() => Promise<void> | void> = [];
  private ended = false;

  constructor(readonly expect: ExpectStatic, onTestFinished: TestContext["onTestFinished"]) {
    onTestFinished(() => this.cleanUp());
  }

  /** Ends everything the case started; after this (a test that timed out, say) it starts nothing more. */
  async cleanUp(): Promise<void> {
    this.ended = true;
    for (const step of this.steps.splice(0).reverse()) await step();
  }

  private checkLive(): void {
    if (this.ended) throw new Error("the test has already ended: nothing more is started");
  }

  async demo(): Promise<Demo> {
    this.checkLive();
    const port = await freePort();
    const home = mkdtempSync(join(tmpdir(), "tcterm-"));
    this.steps.push(() => rmSync(home, { recursive: true, force: true }));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_STATE_HOME: join(home, "state"), XDG_CACHE_HOME: join(home, "cache") };
    return { site: `http://127.0.0.1:${port}`, home, args: [process.execPath, BIN, "--demo", "--port", String(port)], env };
  }

  async pty(command: string[], opts: PtyOptions): Promise<PtyTerminal> {
    return this.keep(await PtyTerminal.start(command, { cols: 100, rows: 30, cwd: ROOT, ...opts }));
  }

  async tmux(command: string[], opts: TmuxOptions): Promise<TmuxSession> {
    return this.keep(await TmuxSession.start(command, { cols: 100, rows: 30, cwd: ROOT, ...opts }));
  }

  /** A terminal to kill at the end; killed at once if the test ended while it was starting. */
  private async keep<T extends { kill(): Promise<void> }>(t: T): Promise<T> {
    this.steps.push(() => t.kill());
    if (this.ended) await this.cleanUp();
    this.checkLive();
    return t;
  }

  /** The screen has no answer text (nor bytes the terminal echoed before the first row) and no popup; returns it. */
  async clean(t: Driver, where: string): Promise<string> {
    const screen = await t.capture();
    this.expect(screen, `terminal answers shown as text (${where})`).not.toMatch(ANSWER_TEXT);
    this.expect(screen.split("\n")[0], `the first row is the sidebar's Inbox (${where})`).toMatch(/^[ ›]≡ Inbox /);
    this.expect(screen, `a popup opened (${where})`).not.toMatch(POPUP);
    return screen;
  }

  /** Maya's last message in #engineering > release 2.4, read on the server by Ben. */
  async lastSent(site: string): Promise<string | undefined> {
    const messages = await topicMessages(site, "ben@lighthouse.test", "engineering", "release 2.4");
    return messages.filter((m) => m.sender_email === "maya@lighthouse.test").at(-1)?.content;
  }

  /** The whole scenario from the Inbox on: `label` goes into the message, `quit` ends it. */
  async scenario(t: Driver, site: string, label: string, quit: "Q" | "C-c"): Promise<void> {
    // j/k in the Inbox's list, then open a topic.
    await press(t, [["j", /▌ @ Omar Haddad/], ["j", /▌▾ #engineering/], ["k", /▌ @ Omar Haddad/], ["j", /▌▾ #engineering/], ["j", /▌ {4}release 2\.4 ★/]]);
    await press(t, [["Enter", "#engineering > release 2.4"]]);
    // j/k among its messages: the selected one has a bar.
    await t.waitFor(/▌Diego Alvarez /, STEP);
    await press(t, [["k", /▌Priya Raman /], ["j", /▌Diego Alvarez /]]);
    await this.clean(t, "in the topic");
    // Compose and send: the server has exactly the draft and what was typed.
    await press(t, [["r", "Enter send"]]);
    const text = ` from ${label} ${Date.now() % 100_000}`;
    await t.type(text);
    await t.waitFor(DRAFT + text, STEP);
    await this.clean(t, "while composing");
    await t.sendKeys("Enter");
    await t.waitForGone("Enter send", STEP);
    await t.waitFor(text, STEP);
    // The outbox sends in the background: the server has it soon after the box closed.
    await this.expect.poll(() => this.lastSent(site), STEP_POLL).toBe(DRAFT + text);
    // j/k in the sidebar (its cursor starts on the open topic), then open the row it is on.
    await t.sendKeys("h", "j", "j", "k");
    await press(t, [["Enter", "#engineering > postgres upgrade"]]);
    await this.clean(t, "after the sidebar");
    await t.sendKeys(quit);
    this.expect(await t.waitForExit(STEP)).toBe(0);
  }
}

/** Up to the Inbox, its cursor on the first conversation. */
export async function started(t: Driver): Promise<void> {
  await t.waitFor(/connected/, { timeoutMs: 30_000 });
  await t.waitFor(/Inbox {2}\d+ unread/, STEP);
  await t.waitFor(/▌ @ Lena Fischer/, STEP);
}

/** Keys, each waiting for what it should show, as a reader would. */
export async function press(t: Driver, steps: Array<[string, string | RegExp]>): Promise<void> {
  for (const [key, shows] of steps) {
    await t.sendKeys(key);
    await t.waitFor(shows, STEP);
  }
}
