import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { processExists, TmuxSession, type TmuxOptions } from "./tmux.js";

/** A `node -e` script as argv (no shell involved). */
const node = (script: string): string[] => [process.execPath, "-e", script];

const UPPERCASE_ECHO = `
  const rl = require("node:readline").createInterface({ input: process.stdin });
  console.log("ready");
  rl.on("line", (l) => console.log("> " + l.toUpperCase()));
`;

describe("TmuxSession", () => {
  const sessions: TmuxSession[] = [];
  const start = async (command: string[], opts?: TmuxOptions) => {
    const s = await TmuxSession.start(command, opts);
    sessions.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.kill()));
  });

  const tmp = mkdtempSync(join(tmpdir(), "tmux-driver-test-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("types text and reads the program's answer", async () => {
    const s = await start(node(UPPERCASE_ECHO));
    await s.waitFor("ready");
    await s.type("hello world");
    await s.sendKeys("Enter");
    const screen = await s.waitFor("> HELLO WORLD");
    expect(screen.split("\n")).toContain("> HELLO WORLD");
    expect(await s.isAlive()).toBe(true);
    expect(await s.pid()).toBeGreaterThan(0);
    expect(await s.exitStatus()).toBeUndefined();
  });

  it("types literally: key names and leading dashes are just text", async () => {
    const s = await start(node(UPPERCASE_ECHO));
    await s.waitFor("ready");
    await s.type("-l Enter C-c ; x");
    await s.sendKeys("Enter");
    await s.waitFor("> -L ENTER C-C ; X");
  });

  it("sends named keys as terminal bytes", async () => {
    const s = await start(
      node(`
        process.stdin.setRawMode(true);
        console.log("raw");
        process.stdin.on("data", (d) => console.log("got " + JSON.stringify(d.toString())));
      `),
    );
    await s.waitFor("raw");
    await s.sendKeys("Up");
    await s.waitFor('got "\\u001b[A"');
    await s.sendKeys("C-c");
    await s.waitFor('got "\\u0003"');
    await s.sendKeys("Enter");
    await s.waitFor('got "\\r"');
  });

  it("passes an explicit environment: TERM, CI=false, opts.env, cwd — never the test's CI", async () => {
    const savedCI = process.env.CI;
    process.env.CI = "true";
    try {
      const s = await start(
        node(`console.log(["env", process.env.TERM, process.env.CI, process.env.E2E_X, process.stdout.isTTY, process.cwd()].join("|"))`),
        { env: { E2E_X: "x y" }, cwd: tmp },
      );
      await s.waitFor(`env|xterm-256color|false|x y|true|${tmp}`);
    } finally {
      if (savedCI === undefined) delete process.env.CI;
      else process.env.CI = savedCI;
    }
  });

  it("starts the terminal at the requested size and follows resize", async () => {
    const s = await start(
      node(`
        const show = () => console.log("size " + process.stdout.columns + "x" + process.stdout.rows);
        show();
        process.stdout.on("resize", show);
        setInterval(() => {}, 1000);
      `),
      { cols: 80, rows: 24 },
    );
    const first = await s.waitFor("size 80x24");
    expect(first.split("\n")).toHaveLength(24);
    await s.resize(120, 40);
    const second = await s.waitFor("size 120x40");
    expect(second.split("\n")).toHaveLength(40);
  });

  it("keeps the output of a program that exited, with its status", async () => {
    const s = await start(node(`console.log("first line"); console.log("goodbye"); process.exit(3)`), {
      rows: 5,
    });
    expect(await s.waitForExit()).toBe(3);
    expect(await s.isAlive()).toBe(false);
    expect(await s.exitStatus()).toBe(3);
    // remain-on-exit: the whole last screen is still readable, even the line
    // tmux scrolled away to write its "Pane is dead" notice.
    const screen = await s.capture();
    expect(screen).toMatch(/^first line\ngoodbye\n/);
    expect(screen).toMatch(/Pane is dead/);
  });

  it("reports exit status 0 and does not treat a running program as exited", async () => {
    const s = await start(node(`setTimeout(() => process.exit(0), 300)`));
    expect(await s.exitStatus()).toBeUndefined();
    expect(await s.waitForExit()).toBe(0);
  });

  it("reports no status for a program killed by a signal", async () => {
    const s = await start(node(`console.log("bye"); setTimeout(() => process.kill(process.pid, "SIGKILL"), 100)`));
    expect(await s.waitForExit()).toBeUndefined();
    expect(await s.isAlive()).toBe(false);
    expect(await s.capture()).toContain("bye");
  });

  it("waitForExit times out with the screen while the program runs", async () => {
    const s = await start(node(`console.log("still here"); setInterval(() => {}, 1000)`));
    await s.waitFor("still here");
    await expect(s.waitForExit({ timeoutMs: 200 })).rejects.toThrow(/to exit[\s\S]*still here/);
  });

  it("runs a one-word command without a shell", async () => {
    const s = await start(["true"]);
    expect(await s.waitForExit()).toBe(0);
  });

  it("waitFor times out with an error that shows the screen", async () => {
    const s = await start(node(`console.log("some screen text"); setInterval(() => {}, 1000)`));
    await s.waitFor("some screen text");
    const started = Date.now();
    const err = await s.waitFor(/never appears/, { timeoutMs: 300, intervalMs: 20 }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err?.message).toContain("/never appears/");
    expect(err?.message).toContain("some screen text");
    expect(err?.message).toContain("program still running");
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("waitFor gives up at once when the program has ended, with its status and screen", async () => {
    const s = await start(node(`console.log("crashed here"); process.exit(7)`));
    await s.waitForExit();
    const started = Date.now();
    await expect(s.waitFor("never", { timeoutMs: 5_000 })).rejects.toThrow(
      /program has ended[\s\S]*exited with status 7[\s\S]*crashed here/,
    );
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("waitForGone waits until text disappears", async () => {
    const s = await start(
      node(`console.log("loading…"); setTimeout(() => console.log("\\x1b[2J\\x1b[Hdone"), 200); setInterval(() => {}, 1000)`),
    );
    await s.waitFor("loading…");
    const screen = await s.waitForGone("loading…");
    expect(screen).toContain("done");
    await expect(s.waitForGone("done", { timeoutMs: 200 })).rejects.toThrow(/to disappear[\s\S]*done/);
  });

  it("a regex with the global flag matches on every poll", async () => {
    const s = await start(node(`console.log("abc"); setInterval(() => {}, 1000)`));
    const re = /abc/g;
    await s.waitFor(re);
    await s.waitFor(re);
  });

  it("reads wide and non-ASCII characters", async () => {
    const s = await start(node(`console.log("héllo ┌─┐ 日本語 ✓"); setInterval(() => {}, 1000)`));
    await s.waitFor("héllo ┌─┐ 日本語 ✓");
  });

  it("rawOutput holds escape sequences the screen does not show, from the first byte", async () => {
    const logFile = join(tmp, "it's #raw.log"); // quotes and tmux's format character survive
    const s = await start(
      node(`process.stdout.write("\\x1b]0;title\\x07hello\\r\\n"); setInterval(() => {}, 1000)`),
      { logFile },
    );
    const screen = await s.waitFor("hello");
    expect(screen).not.toContain("title");
    const raw = await s.waitForRaw("hello");
    expect(raw.includes(Buffer.from("\x1b]0;title\x07hello"))).toBe(true);
    expect((await s.rawOutput()).equals(raw) || (await s.rawOutput()).length >= raw.length).toBe(true);
  });

  it("rawOutput without logFile says what is missing", async () => {
    const s = await start(node(`setInterval(() => {}, 1000)`));
    await expect(s.rawOutput()).rejects.toThrow(/logFile/);
  });

  it("parallel sessions do not collide", async () => {
    const [a, b] = await Promise.all([
      start(node(`console.log("I am A"); setInterval(() => {}, 1000)`)),
      start(node(`console.log("I am B"); setInterval(() => {}, 1000)`)),
    ]);
    await a.waitFor("I am A");
    await b.waitFor("I am B");
    expect(await a.capture()).not.toContain("I am B");
    await a.kill();
    expect(await b.isAlive()).toBe(true);
  });

  it("kill is idempotent, never throws, and ends the program even if it ignores SIGHUP", async () => {
    const s = await start(node(`process.on("SIGHUP", () => {}); console.log("stubborn"); setInterval(() => {}, 1000)`));
    await s.waitFor("stubborn");
    const pid = await s.pid();
    expect(pid).toBeDefined();
    await Promise.all([s.kill(), s.kill()]);
    await s.kill();
    expect(await s.isAlive()).toBe(false);
    expect(await s.pid()).toBeUndefined();
    expect(await s.exitStatus()).toBeUndefined();
    await expect(s.capture()).rejects.toThrow(/killed/);
    await expect(s.waitFor("stubborn", { timeoutMs: 5_000 })).rejects.toThrow(/session killed/);
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      alive = processExists(pid!);
      if (alive) await new Promise((r) => setTimeout(r, 20));
    }
    expect(alive).toBe(false);
  });
});
