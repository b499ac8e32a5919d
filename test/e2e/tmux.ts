/**
 * End-to-end test kit: run a command inside a real terminal (tmux) and drive it
 * like a user — type, press keys, read the screen.
 *
 * Every session runs on its own tmux server (socket in a fresh temp directory),
 * so parallel test files never collide, and killing a session kills its whole
 * server. Always clean up, even when a test fails:
 *
 * ```ts
 * import { afterEach, describe, expect, it } from "vitest";
 * import { hasTmux, TmuxSession } from "./tmux.js";
 *
 * describe("the app", () => {
 *   let session: TmuxSession | undefined;
 *   afterEach(async () => {
 *     await session?.kill(); // idempotent, never throws
 *     session = undefined;
 *   });
 *
 *   it("shows the sidebar", async () => {
 *     session = await TmuxSession.start(["node", "bin/termchat.cjs", "--demo"]);
 *     await session.waitFor(/Channels/);
 *     await session.type("hello");
 *     await session.sendKeys("Enter");
 *   });
 * });
 * ```
 *
 * As a last resort, sessions still alive when the test process exits are
 * killed by an `exit` hook, and each tmux server runs a watchdog that kills
 * it within a second of the test process's death (even by SIGKILL).
 *
 * Notes:
 * - The environment is explicit: the program sees a minimal base (PATH, HOME,
 *   USER, locale, TMPDIR…), `TERM=xterm-256color`, `CI=false` (Ink draws
 *   nothing until exit when `CI` is set) and `opts.env`. Nothing else from the
 *   test process leaks in (no `CI=true`, `FORCE_COLOR`, `TMUX`…).
 * - `remain-on-exit` is on: when the program exits or crashes its last screen
 *   stays readable. tmux then writes a "Pane is dead (status N, …)" line at the
 *   bottom, scrolling the screen up one line; `capture()` includes that
 *   scrolled line so the program's whole last screen is returned.
 * - Output logging (`logFile`) is attached before the program starts, so
 *   `rawOutput()` holds every byte from the first one.
 * - `sendKeys("Enter")` sends CR, like a real terminal; `type("a\nb")` sends a
 *   literal LF.
 */
import { execFile as execFileCb, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { baseEnv, describeMatch, pollUntil, processExists, reap, screenBlock, shQuote, sleep, toMatcher, type WaitOptions } from "./tmux-support.js";

export { processExists, type WaitOptions };

const execFile = promisify(execFileCb);

const TMUX = "tmux";
/** Upper bound for any single tmux client invocation. */
const TMUX_CALL_TIMEOUT_MS = 10_000;
/** Marker of the line tmux 3.x writes into a dead pane (remain-on-exit). */
const DEAD_PANE_LINE = /^Pane is dead\b/;
/** Consecutive failed captures after which polling gives up early (server gone). */
const MAX_CAPTURE_ERRORS = 5;

export interface TmuxOptions {
  /** Terminal width, default 100. */
  cols?: number;
  /** Terminal height, default 30. */
  rows?: number;
  /** Extra environment for the program (on top of the minimal explicit base). */
  env?: Record<string, string>;
  /** Working directory of the program (default: the test process's cwd). */
  cwd?: string;
  /** If set, every byte the program writes is appended to this file (pipe-pane -o). */
  logFile?: string;
}


let tmuxAvailable: Promise<boolean> | undefined;

/** Whether a usable tmux is installed (cached). */
export async function hasTmux(): Promise<boolean> {
  tmuxAvailable ??= execFile(TMUX, ["-V"], { timeout: TMUX_CALL_TIMEOUT_MS }).then(
    () => true,
    () => false,
  );
  return tmuxAvailable;
}

/** Sessions not yet killed, for the process-exit safety net. */
const liveSessions = new Set<TmuxSession>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const s of liveSessions) s.killSync();
  });
}

export class TmuxSession {
  private killed = false;
  private killing: Promise<void> | undefined;

  private constructor(
    /** Directory holding the socket; removed by kill(). */
    private readonly dir: string,
    private readonly socket: string,
    private readonly env: Record<string, string>,
    /** tmux pane id ("%0"), the target of every command. */
    private readonly pane: string,
    /** pid of the tmux server, to nudge it (see exitStatus). */
    private readonly serverPid: number,
    private readonly logFile: string | undefined,
    /** The command line, for error messages. */
    readonly command: readonly string[],
  ) {}

  /**
   * Start `command` (argv, not a shell string) in a new detached tmux session
   * on a private server.
   */
  static async start(command: string[], opts: TmuxOptions = {}): Promise<TmuxSession> {
    if (command.length === 0) throw new Error("TmuxSession.start: empty command");
    const cols = opts.cols ?? 100;
    const rows = opts.rows ?? 30;
    const cwd = resolve(opts.cwd ?? process.cwd());
    const logFile = opts.logFile === undefined ? undefined : resolve(opts.logFile);

    // Unix socket paths are limited to ~104 bytes; fall back to /tmp if TMPDIR is long.
    let base = tmpdir();
    if (base.length > 60) base = "/tmp";
    const dir = mkdtempSync(join(base, "tce2e-"));
    const socket = join(dir, "tmux.sock");
    // The program's local cache lives and dies with the session unless the test places it.
    const env = baseEnv({ XDG_CACHE_HOME: join(dir, "cache"), ...opts.env });

    // tmux runs a single-word command through `sh -c`; with several words it
    // execs argv directly. Keep argv semantics for one-word commands too.
    const argv = command.length === 1 ? ["env", "--", ...command] : command;
    const envFlags = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);

    let pane = "";
    let serverPid = 0;
    try {
      // 1. A server with a placeholder program, so options and the output pipe
      //    are in place before the real program writes its first byte.
      const { stdout } = await execFile(
        TMUX,
        [
          "-S", socket, "-f", "/dev/null",
          "new-session", "-d", "-s", "e2e", "-x", String(cols), "-y", String(rows),
          "-c", cwd, "-P", "-F", "#{pane_id} #{pid}",
          "sleep", "86400",
          ";", "set-option", "-g", "remain-on-exit", "on",
          ";", "set-option", "-g", "status", "off",
          ";", "set-option", "-g", "default-terminal", "xterm-256color",
          ";", "set-option", "-g", "history-limit", "5000",
        ],
        { env, timeout: TMUX_CALL_TIMEOUT_MS },
      );
      const m = /^(%\d+) (\d+)$/.exec(stdout.trim().split("\n")[0]?.trim() ?? "");
      if (!m?.[1] || !m[2]) throw new Error(`unexpected answer from tmux: ${JSON.stringify(stdout)}`);
      pane = m[1];
      serverPid = Number(m[2]);
    } catch (err) {
      await execFile(TMUX, ["-S", socket, "kill-server"], { env, timeout: TMUX_CALL_TIMEOUT_MS }).catch(() => {});
      await rm(dir, { recursive: true, force: true }).catch(() => {});
      throw new Error(`TmuxSession.start: could not start tmux: ${(err as Error).message}`);
    }

    const session = new TmuxSession(dir, socket, env, pane, serverPid, logFile, command);
    liveSessions.add(session);
    installExitHook();
    try {
      // 2. A watchdog inside the server: if the test process dies without
      //    calling kill() (crash, SIGKILL, a worker torn down), the server
      //    kills itself within a second. (A shell string, but only a number
      //    and a quoted path go into it.)
      await session.tmux(
        "run-shell", "-b",
        `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; tmux -S ${shQuote(socket)} kill-server; rm -rf ${shQuote(dir)}`,
      );
      // 3. Log raw output, if asked.
      if (logFile !== undefined) {
        await session.tmux("pipe-pane", "-o", "-t", pane, `cat >> ${shQuote(logFile)}`);
      }
      // 4. Replace the placeholder with the real program.
      await session.tmux("respawn-pane", "-k", "-t", pane, "-c", cwd, ...envFlags, ...argv);
    } catch (err) {
      await session.kill();
      throw err;
    }
    return session;
  }

  /** Run a tmux command against this session's server. */
  private async tmux(...args: string[]): Promise<string> {
    if (this.killed) throw new Error(`tmux session for ${this.describe()} was already killed`);
    const { stdout } = await execFile(TMUX, ["-S", this.socket, ...args], {
      env: this.env,
      timeout: TMUX_CALL_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  }

  private describe(): string {
    return JSON.stringify(this.command.join(" "));
  }

  private async format(fmt: string): Promise<string> {
    return (await this.tmux("display-message", "-p", "-t", this.pane, fmt)).replace(/\n$/, "");
  }

  /** Press keys, by tmux key name: "Enter", "Escape", "C-c", "Up", "BSpace", "F1"… */
  async sendKeys(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.tmux("send-keys", "-t", this.pane, "--", ...keys);
  }

  /** Type literal text (no key-name interpretation). */
  async type(text: string): Promise<void> {
    if (text === "") return;
    await this.tmux("send-keys", "-t", this.pane, "-l", "--", text);
  }

  /**
   * The visible screen as plain text, one line per row, trailing spaces trimmed.
   * For a dead pane: the program's whole last screen plus tmux's "Pane is dead" line.
   */
  async capture(): Promise<string> {
    return (await this.captureState()).screen;
  }

  /** The pane's scrollback and screen, oldest line first (what the user can scroll back to). */
  async history(): Promise<string> {
    return this.tmux("capture-pane", "-p", "-t", this.pane, "-S", "-", "-E", "-");
  }

  /** The visible screen with its colours and attributes (`capture-pane -e`): SGR sequences as tmux redraws them. */
  async captureStyled(): Promise<string> {
    return this.tmux("capture-pane", "-p", "-e", "-t", this.pane);
  }

  private async captureState(): Promise<{ screen: string; dead: boolean }> {
    // One tmux invocation, so state and contents are read atomically.
    const out = await this.tmux(
      "display-message", "-p", "-t", this.pane, "#{pane_dead}|#{history_size}",
      ";", "capture-pane", "-p", "-t", this.pane, "-S", "-1",
    );
    const lines = out.replace(/\n$/, "").split("\n");
    const [dead, historySize] = (lines.shift() ?? "").split("|");
    // `-S -1` returns one line of history when there is some. Keep it only
    // when tmux pushed it there by writing its "Pane is dead" line.
    if (Number(historySize) > 0) {
      const last = lines.at(-1) ?? "";
      const keep = dead === "1" && DEAD_PANE_LINE.test(last);
      if (!keep) lines.shift();
    }
    return { screen: lines.map((l) => l.replace(/[ \t]+$/, "")).join("\n"), dead: dead === "1" };
  }

  /**
   * Poll the screen until it matches; returns that screen. On timeout, throws
   * an Error with the last screen (and whether the program is still running).
   */
  async waitFor(match: string | RegExp, opts: WaitOptions = {}): Promise<string> {
    return this.poll(match, true, opts);
  }

  /** Poll the screen until it no longer matches; returns that screen. */
  async waitForGone(match: string | RegExp, opts: WaitOptions = {}): Promise<string> {
    return this.poll(match, false, opts);
  }

  private async poll(match: string | RegExp, present: boolean, opts: WaitOptions): Promise<string> {
    const test = toMatcher(match);
    let screen: string | undefined;
    let lastError: unknown;
    let errorsInARow = 0;
    let ended = false;
    const found = await pollUntil(opts, async () => {
      try {
        const state = await this.captureState();
        screen = state.screen;
        errorsInARow = 0;
        if (test(screen) === present) return true;
        // A dead pane's screen never changes again: fail now, not at the timeout.
        ended = state.dead;
        return ended ? "give-up" : false;
      } catch (err) {
        lastError = err;
        // Killed, or the server is gone: waiting longer cannot help.
        return this.killed || ++errorsInARow >= MAX_CAPTURE_ERRORS ? "give-up" : false;
      }
    });
    if (found && screen !== undefined) return screen;
    const state = await this.stateForError();
    const what = present ? "to appear" : "to disappear";
    const why = ended ? "Gave up (the program has ended)" : `Timed out after ${opts.timeoutMs ?? 20_000} ms`;
    const err = lastError === undefined ? "" : `\nlast tmux error: ${(lastError as Error).message}`;
    throw new Error(
      `${why} waiting for ${describeMatch(match)} ${what} ` +
        `(command ${this.describe()}, ${state}).${err}\n${screenBlock(screen)}`,
    );
  }

  private async stateForError(): Promise<string> {
    if (this.killed) return "session killed";
    try {
      if ((await this.format("#{pane_dead}")) !== "1") return "program still running";
    } catch {
      return "tmux server unreachable";
    }
    const status = await this.exitStatus();
    return status === undefined ? "program died (signal?)" : `program exited with status ${status}`;
  }

  /** Whether the program is still running (false once exited or killed). */
  async isAlive(): Promise<boolean> {
    if (this.killed) return false;
    try {
      return (await this.format("#{pane_dead}")) === "0";
    } catch {
      return false;
    }
  }

  /** The program's pid (the pane's process), or undefined if the session is gone. */
  async pid(): Promise<number | undefined> {
    if (this.killed) return undefined;
    try {
      const n = Number.parseInt(await this.format("#{pane_pid}"), 10);
      return Number.isFinite(n) && n > 0 ? n : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The program's exit status once tmux has collected it; undefined while it
   * runs, when it was killed by a signal (tmux 3.3 reports no status then), or
   * when the session is gone. tmux may see the terminal close a moment before
   * it collects the status: to wait for a program to end, use waitForExit().
   */
  async exitStatus(): Promise<number | undefined> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (this.killed) return undefined;
      let dead: string | undefined;
      let status: string | undefined;
      try {
        [dead, status] = (await this.format("#{pane_dead}|#{pane_dead_status}")).split("|");
      } catch {
        return undefined;
      }
      if (dead !== "1") return undefined;
      if (status) {
        const n = Number.parseInt(status, 10);
        return Number.isFinite(n) ? n : undefined;
      }
      // The terminal closed but tmux has no status: either the program died
      // of a signal, or tmux missed its SIGCHLD (seen here in ~30% of runs:
      // the child stays a zombie and the status never comes). Nudge the
      // server to run its waitpid loop, then look again.
      this.nudgeServer();
      await sleep(20);
    }
    return undefined;
  }

  private nudgeServer(): void {
    try {
      if (this.serverPid > 0) process.kill(this.serverPid, "SIGCHLD");
    } catch {
      // server gone
    }
  }

  /**
   * Wait until the program has exited; returns its exit status (undefined if
   * it was killed by a signal). Throws, with the screen, on timeout.
   */
  async waitForExit(opts: WaitOptions = {}): Promise<number | undefined> {
    /** Once the pane is dead, how long to wait for tmux to collect the status. */
    const statusGraceMs = 1_000;
    let deadSince: number | undefined;
    let status: number | undefined;
    if (this.killed) throw new Error(`tmux session for ${this.describe()} was already killed`);
    const done = await pollUntil(opts, async () => {
      if (this.killed) return "give-up";
      if (await this.isAlive()) return false;
      deadSince ??= Date.now();
      status = await this.exitStatus();
      return status !== undefined || Date.now() - deadSince >= statusGraceMs;
    });
    if (done || deadSince !== undefined) return status;
    const screen = await this.capture().catch(() => undefined);
    throw new Error(
      `Timed out after ${opts.timeoutMs ?? 20_000} ms waiting for ${this.describe()} to exit.\n${screenBlock(screen)}`,
    );
  }

  /**
   * Every byte the program has written so far (requires `logFile`). The pipe
   * is asynchronous: poll (see waitForRaw) rather than expecting the latest
   * bytes to be there at once.
   */
  async rawOutput(): Promise<Buffer> {
    if (this.logFile === undefined) {
      throw new Error("rawOutput() needs TmuxSession.start(…, { logFile }) to be set");
    }
    try {
      return await readFile(this.logFile);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return Buffer.alloc(0);
      throw err;
    }
  }

  /** Poll rawOutput() until it contains `needle` (string as UTF-8, or bytes); returns the output. */
  async waitForRaw(needle: string | Buffer, opts: WaitOptions = {}): Promise<Buffer> {
    let out: Buffer = Buffer.alloc(0);
    if (await pollUntil(opts, async () => (out = await this.rawOutput()).includes(needle))) return out;
    const tail = out.subarray(-2000).toString();
    throw new Error(
      `Timed out after ${opts.timeoutMs ?? 20_000} ms waiting for ${JSON.stringify(needle.toString())} ` +
        `in the raw output of ${this.describe()}; last ${Math.min(out.length, 2000)} bytes: ${JSON.stringify(tail)}`,
    );
  }

  /** Resize the terminal; the program gets SIGWINCH. */
  async resize(cols: number, rows: number): Promise<void> {
    await this.tmux("resize-window", "-t", this.pane, "-x", String(cols), "-y", String(rows));
  }

  /** Kill the tmux server (and with it the program). Idempotent; never throws. */
  async kill(): Promise<void> {
    this.killing ??= (async () => {
      const pid = (await this.isAlive()) ? await this.pid() : undefined;
      this.killed = true;
      liveSessions.delete(this);
      await execFile(TMUX, ["-S", this.socket, "kill-server"], {
        env: this.env,
        timeout: TMUX_CALL_TIMEOUT_MS,
      }).catch(() => {});
      // kill-server sends SIGHUP; a program that ignores it would outlive the test.
      if (pid !== undefined) await reap(pid);
      await rm(this.dir, { recursive: true, force: true }).catch(() => {});
    })();
    return this.killing;
  }

  /** Synchronous kill for the process-exit hook. Never throws. */
  killSync(): void {
    if (this.killed) return;
    this.killed = true;
    liveSessions.delete(this);
    try {
      execFileSync(TMUX, ["-S", this.socket, "kill-server"], {
        env: this.env,
        timeout: 2_000,
        stdio: "ignore",
      });
    } catch {
      // already gone
    }
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // ignore
    }
  }
}
