/**
 * A real xterm with sixel graphics (`-ti vt340`) on a virtual X display (Xvfb), for tests that
 * need what a user would see of pictures. The command runs behind a small pty relay
 * (../fixtures/pty-relay.py) that passes everything between it and xterm byte for byte and takes
 * the test's keys from a FIFO, so that keys arrive as a pty brings them, whatever the display does
 * with keyboard focus; the window is resized with xdotool and read back as pixels (xwd, whose XWD
 * format is read here). Debian packages: xterm, xvfb, xdotool, x11-apps (xwd), xfonts-base (the
 * 10x20 font), python3; .ci/run installs them.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { baseEnv } from "./tmux-support.js";

const run = promisify(execFile);

/** The window's pixels, as xwd dumped them (read where needed: comparing two dumps needs no decoding). */
export class Shot {
  private readonly start: number;
  private readonly step: number;
  private readonly bytesPerLine: number;
  private readonly littleEndian: boolean;
  readonly width: number;
  readonly height: number;

  /** An XWD dump (ZPixmap, 24 or 32 bits a pixel). */
  constructor(readonly raw: Buffer) {
    const field = (i: number) => raw.readUInt32BE(i * 4);
    const [headerSize, bitsPerPixel, colours] = [field(0), field(11), field(19)];
    if (bitsPerPixel !== 32 && bitsPerPixel !== 24) throw new Error(`xwd: ${bitsPerPixel} bits a pixel`);
    this.width = field(4);
    this.height = field(5);
    this.littleEndian = field(7) === 0;
    this.bytesPerLine = field(12);
    this.step = bitsPerPixel / 8;
    this.start = headerSize + colours * 12;
  }

  /** The pixel's colour as 0xRRGGBB. */
  at(x: number, y: number): number {
    const o = this.start + y * this.bytesPerLine + x * this.step;
    const v = this.littleEndian ? this.raw.readUIntLE(o, 3) : this.raw.readUIntBE(o + this.step - 3, 3);
    return v & 0xffffff;
  }
}

export function sameShot(a: Shot, b: Shot): boolean {
  return a.raw.equals(b.raw);
}

/** Pixels that differ (every pixel when the sizes differ). */
export function shotDifference(a: Shot, b: Shot): number {
  if (a.width !== b.width || a.height !== b.height) return Math.max(a.width * a.height, b.width * b.height);
  if (sameShot(a, b)) return 0;
  let n = 0;
  for (let y = 0; y < a.height; y++) for (let x = 0; x < a.width; x++) if (a.at(x, y) !== b.at(x, y)) n++;
  return n;
}

export const XTERM_TOOLS = ["xterm", "Xvfb", "xdotool", "xwd", "python3"];

/** The font whose cells are 10×20 pixels, as Debian's xfonts-base installs it. */
const FONT_FILE = "/usr/share/fonts/X11/misc/10x20-ISO8859-1.pcf.gz";

/** What of the tools and the font is missing. */
export async function hasXterm(): Promise<string[]> {
  const missing: string[] = [];
  for (const tool of XTERM_TOOLS) {
    try {
      await run("sh", ["-c", `command -v ${tool}`]);
    } catch {
      missing.push(tool);
    }
  }
  if (!existsSync(FONT_FILE)) missing.push("the 10x20 font");
  return missing;
}

/** The pty between xterm and the command: keys are written into it, not sent through the X server. */
const RELAY = fileURLToPath(new URL("../fixtures/pty-relay.py", import.meta.url));

/** What xterm sends for the keys named by their X names (others: the character itself). */
const KEY_BYTES: Record<string, string> = { Return: "\r", Escape: "\x1b", question: "?", space: " ", Tab: "\t", BackSpace: "\x7f" };

/** Bytes queued on a terminal, each way (FIONREAD: typed, not yet read; TIOCOUTQ: written, not yet taken). */
const TTY_QUEUES = `
import array, fcntl, os, sys, termios
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
def queued(request):
    count = array.array("i", [0])
    fcntl.ioctl(fd, request, count)
    return count[0]
print(f"{queued(termios.FIONREAD)} bytes typed and unread, {queued(termios.TIOCOUTQ)} written and not taken")
`;

/** A process's state, CPU time (in ticks) and kernel wait channel, from /proc. */
function describeProcess(pid: number | undefined): string {
  if (!pid) return "not known";
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[11]) + Number(fields[12]);
    let wchan = "?";
    try {
      wchan = readFileSync(`/proc/${pid}/wchan`, "utf8").trim() || "-";
    } catch {
      // Not readable here.
    }
    return `pid ${pid}, state ${fields[0]}, ${ticks} ticks of CPU time, waiting in ${wchan}`;
  } catch {
    return `pid ${pid}, exited`;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class XtermScreen {
  private constructor(
    private readonly xvfb: ChildProcess,
    private readonly xterm: ChildProcess,
    private readonly display: string,
    readonly window: string,
    private readonly dir: string,
  ) {}

  /** Starts a display and an xterm of `cols`×`rows` cells of 10×20 pixels running `command`. */
  static async start(command: string[], { cols, rows, env = {} }: { cols: number; rows: number; env?: Record<string, string> }): Promise<XtermScreen> {
    const dir = mkdtempSync(join(tmpdir(), "termchat-xterm-"));
    // -displayfd: the server picks a free display and says which.
    const xvfb = spawn("Xvfb", ["-displayfd", "3", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"], { stdio: ["ignore", "ignore", "ignore", "pipe"] });
    const display = await new Promise<string>((resolve, reject) => {
      let text = "";
      const timer = setTimeout(() => reject(new Error("Xvfb did not start")), 15_000);
      xvfb.stdio[3]!.on("data", (d: Buffer) => {
        text += d.toString();
        if (text.includes("\n")) {
          clearTimeout(timer);
          resolve(`:${text.trim()}`);
        }
      });
      xvfb.once("exit", (code) => reject(new Error(`Xvfb exited (${code})`)));
    });
    const idFile = join(dir, "window");
    const keysFifo = join(dir, "keys");
    await run("mkfifo", [keysFifo]);
    // The window's id; the command behind the relay, which writes its pid for what a failure says of it.
    const script = `echo "$WINDOWID" > ${JSON.stringify(idFile)}; exec python3 ${JSON.stringify(RELAY)} ${JSON.stringify(keysFifo)} ${JSON.stringify(join(dir, "pid"))} -- "$@"`;
    // The environment is explicit, as for the tmux tests (no proxy, locale or multiplexer of the
    // machine's), the compiled code kept in the test's own directory; xterm sets TERM itself.
    const childEnv: NodeJS.ProcessEnv = { ...baseEnv({ XDG_CACHE_HOME: join(dir, "cache"), ...env }), DISPLAY: display };
    delete childEnv.TERM;
    const xterm = spawn(
      "xterm",
      ["-ti", "vt340", "-fn", "10x20", "-geometry", `${cols}x${rows}+0+0`, "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256", "-e", "sh", "-c", script, "sh", ...command],
      { env: childEnv, stdio: "ignore" },
    );
    const deadline = Date.now() + 15_000;
    for (let i = 0; i < 300 && Date.now() < deadline && !existsSync(idFile); i++) await sleep(50);
    const window = existsSync(idFile) ? readFileSync(idFile, "utf8").trim() : "";
    const screen = new XtermScreen(xvfb, xterm, display, window, dir);
    if (!window) {
      await screen.stop();
      throw new Error("xterm did not start");
    }
    return screen;
  }

  async xdotool(...args: string[]): Promise<void> {
    await run("xdotool", args, { env: { ...process.env, DISPLAY: this.display } });
  }

  /** Bytes for the command, as if typed (through the relay). */
  private async send(bytes: string): Promise<void> {
    // The relay holds the FIFO open for reading from its start: opening it to write never waits long.
    await appendFile(join(this.dir, "keys"), bytes);
  }

  /** Keys by their X names (`j`, `Return`, `Escape`, `question`), one after another, as a typist spaces them. */
  async keys(...names: string[]): Promise<void> {
    for (const k of names) {
      const bytes = KEY_BYTES[k] ?? (k.length === 1 ? k : undefined);
      if (bytes === undefined) throw new Error(`no bytes known for the key ${k}`);
      await this.send(bytes);
      await sleep(60);
    }
  }

  /** Text typed a character at a time. */
  async type(text: string): Promise<void> {
    for (const c of text) {
      await this.send(c);
      await sleep(60);
    }
  }

  /** The window's pixels now. */
  async shot(): Promise<Shot> {
    const { stdout } = await run("xwd", ["-silent", "-id", this.window], { env: { ...process.env, DISPLAY: this.display }, encoding: "buffer", maxBuffer: 64 * 1024 * 1024 });
    return new Shot(stdout);
  }

  /**
   * The window once it has changed from `from` (when given) and then stayed the same over three
   * looks: a frame is drawn in a few milliseconds, a look takes longer.
   */
  async settled(from?: Shot, timeoutMs = 15_000): Promise<Shot> {
    const deadline = Date.now() + timeoutMs;
    let last: Shot | undefined;
    let same = 0;
    let changed = from === undefined;
    for (let i = 0; i < 500 && Date.now() < deadline; i++) {
      await sleep(120);
      const now = await this.shot();
      if (!changed && from && !sameShot(now, from)) changed = true;
      same = last && sameShot(now, last) ? same + 1 : 0;
      last = now;
      if (changed && same >= 2) return now;
    }
    throw new Error(`the xterm window did not settle${changed ? "" : " (it never changed)"} within ${timeoutMs} ms; ${await this.diagnosis()}`);
  }

  /**
   * What a failure says of the command in the window and of xterm: each one's state (running,
   * asleep), CPU time and where in the kernel it waits (`wchan`: `ep_poll` is an idle event loop,
   * a tty write is a terminal that stopped reading); the app's terminal modes and the bytes queued
   * on it each way (typed but unread, written but not yet taken).
   */
  async diagnosis(): Promise<string> {
    const parts = [`the command: ${describeProcess(this.commandPid())}`, `xterm: ${describeProcess(this.xterm.pid)}`];
    const pid = this.commandPid();
    let tty: string | undefined;
    try {
      tty = readlinkSync(`/proc/${pid}/fd/0`);
    } catch {
      // It has exited: nothing more to say of its terminal.
    }
    if (tty?.startsWith("/dev/")) {
      const queued = await run("python3", ["-c", TTY_QUEUES, tty]).then((r) => r.stdout.trim(), (err: Error) => `unknown (${err.message.split("\n")[0]})`);
      const modes = await run("stty", ["-F", tty]).then((r) => r.stdout.replace(/\s+/g, " ").trim(), (err: Error) => `unknown (${err.message.split("\n")[0]})`);
      parts.push(`its terminal ${tty}: ${queued}; stty: ${modes}`);
    }
    return parts.join("; ");
  }

  private commandPid(): number | undefined {
    try {
      return Number(readFileSync(join(this.dir, "pid"), "utf8").trim()) || undefined;
    } catch {
      return undefined;
    }
  }

  /** Resizes the window to `cols`×`rows` cells; the screen after it has settled. */
  async resize(cols: number, rows: number): Promise<Shot> {
    const before = await this.shot();
    // The font's cells plus xterm's inner border (2 pixels each side).
    await this.xdotool("windowsize", "--sync", this.window, String(cols * 10 + 4), String(rows * 20 + 4));
    return this.settled(before);
  }

  async stop(): Promise<void> {
    for (const p of [this.xterm, this.xvfb]) {
      if (p.exitCode === null && p.pid) {
        const exited = new Promise((r) => p.once("exit", r));
        p.kill("SIGTERM");
        await Promise.race([exited, sleep(3000)]);
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
