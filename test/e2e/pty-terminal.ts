/**
 * A test terminal the suite controls, for what tmux hides: a real pty (a small python3 bridge,
 * test/fixtures/pty-bridge.py, so no native addon) whose other end is read by xterm.js
 * (@xterm/headless), and which answers the app's questions as a given terminal does
 * (test/fixtures/terminal-profiles.ts), at once, late, split or between keys (AnswerTiming).
 * The app sees isatty, a window size in cells and pixels, SIGWINCH on resize, raw mode, SIGHUP
 * on close.
 *
 * The API follows TmuxSession (tmux.ts) where it can: start, waitFor, waitForGone, sendKeys
 * (tmux's key names), type, capture, resize, waitForExit, rawOutput, kill. Clean up in
 * afterEach with kill() (idempotent, never throws); an exit hook kills what is left, and the
 * bridge hangs up the terminal and kills the program by itself once the test process dies.
 *
 * Everything written to the program (keys and answers) goes through one queue, in order, as
 * a terminal writes: keys typed while an answer is being written a byte at a time come after it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { headlessTerminal, screenOf } from "../fixtures/headless-screen.js";
import { answerFor, printable, QueryScanner, type Exchange, type Query } from "../fixtures/terminal-answers.js";
import { PROFILES, type TerminalProfile } from "../fixtures/terminal-profiles.js";
import { keyBytes } from "./terminal-keys.js";
import { baseEnv, describeMatch, pollUntil, processExists, screenBlock, sleep, toMatcher, type WaitOptions } from "./tmux-support.js";

const BRIDGE = resolve(import.meta.dirname, "../fixtures/pty-bridge.py");
/** How long the bridge may take to start the program, and to end after a hang-up. */
const START_TIMEOUT_MS = 10_000;
const HANGUP_TIMEOUT_MS = 4_000;

/**
 * When the answers arrive: at once; late (after the app has stopped waiting); a byte at a time
 * (as a slow link splits them); or held until the test releases them, at a moment it chooses
 * (while the compose box is open, say) and, if it likes, one at a time with keys between them.
 */
export type AnswerTiming =
  | { kind: "at-once" }
  | { kind: "late"; afterMs: number }
  | { kind: "split"; byteGapMs: number }
  | { kind: "held" };

export interface PtyOptions {
  /** Terminal size in cells, default 100×30. */
  cols?: number;
  rows?: number;
  /** The pty reports no size (0×0), as a bare pty does; the screen read back keeps cols×rows. */
  sizeUnknown?: boolean;
  /** The terminal being played (its answers and environment), default xterm. */
  profile?: TerminalProfile;
  /** When its answers arrive, default at once. */
  timing?: AnswerTiming;
  /** Extra environment, over a minimal base and the profile's. */
  env?: Record<string, string>;
  cwd?: string;
}

export interface LoggedExchange extends Exchange {
  /** ms since start when the question was read, and when its answer was written (undefined: not yet, or never). */
  askedAt: number;
  answeredAt?: number;
}

type Terminal = ReturnType<typeof headlessTerminal>;

const live = new Set<PtyTerminal>();
let exitHookInstalled = false;

export class PtyTerminal {
  /** Every question read and what became of it, in order. */
  readonly exchanges: LoggedExchange[] = [];
  private readonly output: Buffer[] = [];
  private parsed: Promise<void> = Promise.resolve();
  private readonly queue: Array<{ bytes: string; gapMs: number; done?: () => void; exchange?: LoggedExchange }> = [];
  private pumping = false;
  private readonly held: Array<() => void> = [];
  private released = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private appPid: number | undefined;
  private ended: { status?: number; signal?: number } | undefined;
  private killing: Promise<void> | undefined;
  private bridgeErrors = "";
  private readonly t0 = Date.now();

  private constructor(
    private readonly bridge: ChildProcess,
    private readonly term: Terminal,
    private readonly dir: string,
    readonly command: readonly string[],
    readonly profile: TerminalProfile,
    private readonly timing: AnswerTiming,
  ) {
    let found: Array<{ query: Query; raw: string }> = [];
    const scanner = new QueryScanner((query, raw) => found.push({ query, raw }));
    this.stdout.on("data", (chunk: Buffer) => {
      this.output.push(chunk);
      scanner.feed(chunk.toString("latin1"));
      const asked = found;
      found = [];
      // Answer once the bytes before the question are on the screen (a cursor report needs them).
      this.parsed = new Promise((done) =>
        term.write(chunk, () => {
          for (const q of asked) this.answer(q.query, q.raw);
          done();
        }),
      );
    });
    bridge.stderr?.on("data", (b: Buffer) => (this.bridgeErrors = (this.bridgeErrors + b.toString()).slice(-2000)));
    let lines = "";
    this.control.on("data", (b: Buffer) => {
      lines += b.toString();
      for (let i = lines.indexOf("\n"); i >= 0; i = lines.indexOf("\n")) {
        const [word, n] = lines.slice(0, i).split(" ");
        lines = lines.slice(i + 1);
        if (word === "pid") this.appPid = Number(n);
        else if (word === "exit") this.ended = { status: Number(n) };
        else if (word === "signal") this.ended = { signal: Number(n) };
      }
    });
    this.control.on("error", () => undefined);
    bridge.stdin?.on("error", () => undefined);
    // "close" comes after the control channel's last line (the program's status).
    bridge.on("close", () => (this.ended ??= { signal: 9 }));
  }

  private get stdout(): Readable {
    return this.bridge.stdout!;
  }

  private get control(): Readable & Writable {
    return this.bridge.stdio[3] as unknown as Readable & Writable;
  }

  /** Starts `command` (argv) in a new pty of its own. */
  static async start(command: string[], opts: PtyOptions = {}): Promise<PtyTerminal> {
    if (command.length === 0) throw new Error("PtyTerminal.start: empty command");
    const cols = opts.cols ?? 100;
    const rows = opts.rows ?? 30;
    const profile = opts.profile ?? PROFILES.xterm;
    const dir = mkdtempSync(join(tmpdir(), "tcpty-"));
    const env = baseEnv({ XDG_CACHE_HOME: join(dir, "cache"), ...profile.env, ...opts.env });
    const px = profile.cellPx ?? { width: 0, height: 0 };
    const reported = opts.sizeUnknown ? ["0", "0", "0", "0"] : [String(cols), String(rows), String(px.width * cols), String(px.height * rows)];
    const args = [BRIDGE, ...reported, "--", ...command];
    const bridge = spawn("python3", args, { cwd: opts.cwd ?? process.cwd(), env, stdio: ["pipe", "pipe", "pipe", "pipe"] });
    const term = headlessTerminal(cols, rows, { convertEol: false });
    const session = new PtyTerminal(bridge, term, dir, command, profile, opts.timing ?? { kind: "at-once" });
    live.add(session);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once("exit", () => {
        for (const s of live) s.killSync();
      });
    }
    const spawnError = new Promise<Error>((res) => bridge.once("error", res));
    const up = await Promise.race([
      pollUntil({ timeoutMs: START_TIMEOUT_MS, intervalMs: 10 }, async () => session.appPid !== undefined || (session.ended ? "give-up" : false)),
      spawnError,
    ]);
    if (up !== true) {
      await session.kill();
      const why = up instanceof Error ? up.message : session.bridgeErrors || "no word from the pty bridge";
      throw new Error(`PtyTerminal.start: could not start ${JSON.stringify(command.join(" "))} (python3 ${BRIDGE}): ${why}`);
    }
    return session;
  }

  private elapsed(): number {
    return Date.now() - this.t0;
  }

  private answer(query: Query, raw: string): void {
    const buffer = this.term.buffer.active;
    const state = { cols: this.term.cols, rows: this.term.rows, cursor: { x: buffer.cursorX, y: buffer.cursorY } };
    const exchange: LoggedExchange = { query, raw, answer: answerFor(this.profile, query, state), askedAt: this.elapsed() };
    this.exchanges.push(exchange);
    const text = exchange.answer;
    if (text === undefined || this.killing) return;
    const send = (gapMs = 0) => void this.enqueue(gapMs ? [...text] : [text], gapMs, exchange);
    const t = this.timing;
    if (t.kind === "at-once") send();
    else if (t.kind === "split") send(t.byteGapMs);
    else if (t.kind === "held" && !this.released) this.held.push(() => send());
    else if (t.kind === "held") send();
    else this.after(t.afterMs, () => send());
  }

  private after(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  /** Writes pieces to the program after everything queued before them, `gapMs` before each piece. */
  private enqueue(pieces: string[], gapMs: number, exchange?: LoggedExchange): Promise<void> {
    return new Promise((done) => {
      pieces.forEach((bytes, i) => this.queue.push({ bytes, gapMs, done: i === pieces.length - 1 ? done : undefined, exchange }));
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    for (let item = this.queue.shift(); item; item = this.queue.shift()) {
      if (item.gapMs > 0) await sleep(item.gapMs);
      if (!this.killing && !this.ended) this.bridge.stdin?.write(Buffer.from(item.bytes, "utf8"));
      if (item.done && item.exchange) item.exchange.answeredAt = this.elapsed();
      item.done?.();
    }
    this.pumping = false;
  }

  /**
   * Lets held answers (timing "held") go, in the order they were asked for; with `gapMs`, one at
   * a time (room for keys between them). Questions asked after this are answered at once.
   */
  releaseAnswers(gapMs = 0): void {
    this.released = true;
    this.held.splice(0).forEach((send, i) => (gapMs > 0 ? this.after(i * gapMs, send) : send()));
  }

  /** How many answers have been written so far. */
  answersWritten(): number {
    return this.exchanges.filter((e) => e.answeredAt !== undefined).length;
  }

  /** Waits until every answer given so far has been written (none held, none on a timer, none half sent). */
  async waitForAnswers(opts: WaitOptions = {}): Promise<void> {
    const done = () => this.exchanges.every((e) => e.answer === undefined || e.answeredAt !== undefined);
    if (await pollUntil(opts, async () => done())) return;
    throw new Error(`Timed out after ${opts.timeoutMs ?? 20_000} ms waiting for the answers to be written:\n${this.describeExchanges()}`);
  }

  /** The questions and answers so far, one a line, for error messages and reports. */
  describeExchanges(): string {
    return this.exchanges
      .map((e) => `${e.askedAt} ms ${e.raw} → ${e.answer === undefined ? "(no answer)" : `${printable(e.answer)} at ${e.answeredAt ?? "(pending)"} ms`}`)
      .join("\n");
  }

  /** Presses keys, by tmux's names ("Enter", "Escape", "C-c", "Up", "BSpace", "BTab"…); anything else is sent as it is. */
  async sendKeys(...keys: string[]): Promise<void> {
    const cursorKeysApp = this.term.modes.applicationCursorKeysMode;
    for (const key of keys) await this.enqueue([keyBytes(key, cursorKeysApp)], 0);
  }

  /** Types literal text. */
  async type(text: string): Promise<void> {
    if (text !== "") await this.enqueue([text], 0);
  }

  /** The visible screen as plain text, one line per row, trailing spaces trimmed. */
  async capture(): Promise<string> {
    await this.parsed;
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < this.term.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
    return lines.join("\n");
  }

  /** The visible screen cell by cell (character, width, colours, attributes) and the cursor, as headless-screen.ts describes them. */
  async cells(): Promise<{ rows: string[]; cursor: string }> {
    await this.parsed;
    return screenOf(this.term);
  }

  async waitFor(match: string | RegExp, opts: WaitOptions = {}): Promise<string> {
    return this.poll(match, true, opts);
  }

  async waitForGone(match: string | RegExp, opts: WaitOptions = {}): Promise<string> {
    return this.poll(match, false, opts);
  }

  private async poll(match: string | RegExp, present: boolean, opts: WaitOptions): Promise<string> {
    const test = toMatcher(match);
    let screen = "";
    const found = await pollUntil(opts, async () => {
      const ended = this.ended !== undefined;
      screen = await this.capture();
      if (test(screen) === present) return true;
      return ended ? "give-up" : false;
    });
    if (found) return screen;
    const why = this.ended ? `Gave up (the program has ended: ${this.describeEnd()})` : `Timed out after ${opts.timeoutMs ?? 20_000} ms`;
    throw new Error(
      `${why} waiting for ${describeMatch(match)} to ${present ? "appear" : "disappear"} in ${this.profile.name} ` +
        `(command ${JSON.stringify(this.command.join(" "))}).\n${screenBlock(screen)}\n--- questions ---\n${this.describeExchanges()}`,
    );
  }

  private describeEnd(): string {
    return this.ended?.status !== undefined ? `status ${this.ended.status}` : `signal ${this.ended?.signal}`;
  }

  /** Whether the program is still running. */
  isAlive(): boolean {
    return this.ended === undefined && this.killing === undefined;
  }

  /** The program's pid (it leads its own session and process group). */
  pid(): number | undefined {
    return this.appPid;
  }

  /** Waits for the program to end; its exit status, or undefined if a signal ended it. */
  async waitForExit(opts: WaitOptions = {}): Promise<number | undefined> {
    if (await pollUntil(opts, async () => this.ended !== undefined)) return this.ended?.status;
    throw new Error(`Timed out after ${opts.timeoutMs ?? 20_000} ms waiting for ${JSON.stringify(this.command.join(" "))} to exit.\n${screenBlock(await this.capture())}`);
  }

  /** Every byte the program has written so far. */
  rawOutput(): Buffer {
    return Buffer.concat(this.output);
  }

  /** Resizes the terminal; the program gets SIGWINCH. */
  async resize(cols: number, rows: number): Promise<void> {
    await this.parsed;
    this.term.resize(cols, rows);
    const px = this.profile.cellPx ?? { width: 0, height: 0 };
    this.control.write(`resize ${cols} ${rows} ${px.width * cols} ${px.height * rows}\n`);
  }

  /** Closes the terminal (the program gets SIGHUP) and makes sure both processes are gone. Idempotent; never throws. */
  async kill(): Promise<void> {
    this.killing ??= (async () => {
      live.delete(this);
      for (const t of this.timers) clearTimeout(t);
      this.timers.clear();
      this.queue.length = 0;
      const gone = () => this.bridge.exitCode !== null || this.bridge.signalCode !== null;
      if (!gone()) {
        try {
          this.control.write("hangup\n");
        } catch {
          // the bridge is already going
        }
        await pollUntil({ timeoutMs: HANGUP_TIMEOUT_MS, intervalMs: 20 }, async () => gone());
      }
      this.killSync();
      this.term.dispose();
    })();
    return this.killing;
  }

  /** Synchronous last resort (the process-exit hook). Never throws. */
  killSync(): void {
    live.delete(this);
    const pid = this.appPid;
    for (const target of [pid !== undefined && processExists(pid) ? -pid : undefined, this.bridge.pid]) {
      try {
        if (target !== undefined) process.kill(target, "SIGKILL");
      } catch {
        // already gone
      }
    }
    for (const stream of [this.bridge.stdin, this.bridge.stdout, this.bridge.stderr, this.control]) stream?.destroy();
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // ignore
    }
  }
}
