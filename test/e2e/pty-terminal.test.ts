/**
 * The test terminal itself (pty-terminal.ts): a real pty as a program sees it, a screen read
 * cell by cell, answers as a profile gives them and when its timing says, and no process left
 * behind.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PtyTerminal, type PtyOptions } from "./pty-terminal.js";
import { PROFILES } from "../fixtures/terminal-profiles.js";
import { processExists } from "./tmux-support.js";

const node = (script: string): string[] => [process.execPath, "-e", script];
const BRIDGE = resolve(import.meta.dirname, "../fixtures/pty-bridge.py");

/** Prints what it sees of its terminal, then every chunk it reads in raw mode as JSON. */
const PROBE = `
  const out = process.stdout;
  console.log("tty " + process.stdin.isTTY + " " + out.isTTY + " size " + out.columns + "x" + out.rows);
  process.on("SIGWINCH", () => console.log("winch " + out.columns + "x" + out.rows));
  process.stdin.setRawMode(true);
  process.stdin.on("data", (d) => {
    console.log("got " + JSON.stringify(d.toString()));
    if (d.toString() === "q") process.exit(3);
    if (d.toString() === "r") process.stdout.write("\\x1b[7mR\\x1b[0m\\n");
  });
  console.log("ready");
`;

/** Asks the questions in argv[1] (JSON) once ready, and prints what comes back, gathered for 300 ms. */
const ASKER = `
  process.stdin.setRawMode(true);
  let got = "";
  process.stdin.on("data", (d) => (got += d.toString()));
  process.stdout.write(JSON.parse(process.argv[1]));
  setTimeout(() => { console.log("\\nanswers " + JSON.stringify(got)); }, 300);
  setTimeout(() => process.exit(0), 60000);
`;

describe("PtyTerminal", () => {
  const sessions: PtyTerminal[] = [];
  const start = async (command: string[], opts?: PtyOptions) => {
    const s = await PtyTerminal.start(command, opts);
    sessions.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.kill()));
  });

  it("is a real terminal: isatty, its size, SIGWINCH on resize, raw keys, the exit status", async () => {
    const s = await start(node(PROBE), { cols: 90, rows: 25 });
    await s.waitFor("ready");
    expect(await s.capture()).toContain("tty true true size 90x25");
    await s.sendKeys("Up", "C-c", "Enter");
    await s.type("é");
    const screen = await s.waitFor(/got "[^"]*é"/);
    // The keys arrive in order, however the reads cut them.
    const got = [...screen.matchAll(/^got (".*")$/gm)].map((m) => JSON.parse(m[1]!) as string).join("");
    expect(got).toBe("\x1b[A\x03\ré");
    // Cell by cell: the program's inverse "R" at the start of a row.
    await s.type("r");
    await s.waitFor("got \"r\"");
    const { rows } = await s.cells();
    expect(rows.some((row) => row.startsWith("R/1/0:-1/0:-1/000010 "))).toBe(true);
    await s.resize(120, 40);
    await s.waitFor("winch 120x40");
    await s.type("q");
    expect(await s.waitForExit({ timeoutMs: 5000 })).toBe(3);
    expect(s.isAlive()).toBe(false);
  });

  it("answers each question as its profile says, at once", async () => {
    const questions = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\\x1b[>q\x1b[?2026$p\x1b]11;?\x07\x1b[16t\x1b[14t\x1b[c";
    const s = await start(node(ASKER).concat(JSON.stringify(questions)), { profile: PROFILES.kitty, cols: 80, rows: 24 });
    await s.waitFor("answers");
    const answers = JSON.parse(/answers (".*")/.exec(s.rawOutput().toString())![1]!) as string;
    expect(answers).toBe(
      "\x1b_Gi=31;OK\x1b\\" + "\x1bP>|kitty(0.43.1)\x1b\\" + "\x1b[?2026;2$y" + "\x1b]11;rgb:0000/0000/0000\x1b\\" + "\x1b[6;20;9t" + "\x1b[4;480;720t" + "\x1b[?62;52;c",
    );
    expect(s.exchanges.map((e) => e.query.kind)).toEqual(["kitty", "xtversion", "decrqm", "osc-color", "window-report", "window-report", "da1"]);
  });

  it("stays silent where the terminal does: the Linux console answers only DA1", async () => {
    const questions = "\x1b_Gi=31,a=q;AAAA\x1b\\\x1b[>0q\x1b[?2026$p\x1b]11;?\x1b\\\x1b[16t\x1b[c";
    const s = await start(node(ASKER).concat(JSON.stringify(questions)), { profile: PROFILES.linux });
    await s.waitFor("answers");
    expect(await s.capture()).toContain('answers "\\u001b[?6c"');
  });

  it("holds answers until released, and writes split answers a byte at a time", async () => {
    const asker = await start(node(ASKER).concat(JSON.stringify("\x1b[c")), { profile: PROFILES.xterm, timing: { kind: "held" } });
    await asker.waitFor("answers");
    expect(await asker.capture()).toContain('answers ""');
    asker.releaseAnswers();
    await asker.waitForAnswers({ timeoutMs: 2000 });
    expect(asker.exchanges[0]!.answeredAt).toBeGreaterThan(asker.exchanges[0]!.askedAt);

    const split = await start(node(PROBE.replace("console.log(\"ready\");", "console.log(\"ready\"); process.stdout.write(\"\\x1b[c\");")), {
      profile: PROFILES.linux,
      timing: { kind: "split", byteGapMs: 30 },
    });
    await split.waitFor('got "c"'); // ESC [ ? 6 c, one read each
    const screen = await split.capture();
    for (const piece of ['got "\\u001b"', 'got "["', 'got "?"', 'got "6"']) expect(screen).toContain(piece);
  });

  it("leaves no process behind when the test process dies: the bridge hangs up and kills the program", async () => {
    // A stand-in test process that starts the bridge, says the program's pid, and is then killed with SIGKILL.
    const parent = spawn(
      process.execPath,
      ["-e", `
        const { spawn } = require("node:child_process");
        const b = spawn("python3", [process.argv[1], "80", "24", "0", "0", "--", "sleep", "600"], { stdio: ["pipe", "ignore", "inherit", "pipe"] });
        b.stdio[3].on("data", (d) => process.stdout.write(d));
        setInterval(() => {}, 1000);
      `, BRIDGE],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      let said = "";
      parent.stdout.on("data", (d: Buffer) => (said += d.toString()));
      await expect.poll(() => /pid (\d+)/.exec(said)?.[1], { timeout: 10_000 }).toBeDefined();
      const pid = Number(/pid (\d+)/.exec(said)![1]);
      expect(processExists(pid)).toBe(true);
      parent.kill("SIGKILL");
      await expect.poll(() => processExists(pid), { timeout: 5000 }).toBe(false);
    } finally {
      parent.kill("SIGKILL");
    }
  });

  it("leaves no process behind: kill() hangs up the terminal and ends the program", async () => {
    const s = await start(node(`process.on("SIGHUP", () => {}); setInterval(() => {}, 1000); console.log("stubborn");`));
    await s.waitFor("stubborn");
    const pid = s.pid()!;
    expect(processExists(pid)).toBe(true);
    await s.kill();
    expect(processExists(pid)).toBe(false);
    await s.kill(); // idempotent
  });
});
