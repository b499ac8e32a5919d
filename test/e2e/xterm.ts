/**
 * A real xterm with sixel graphics (`-ti vt340`) on a virtual X display (Xvfb), for tests that
 * need what a user would see of pictures: keys go in through the X server (xdotool), and the
 * window is read back as pixels (xwd, whose XWD format is read here). Debian packages: xterm,
 * xvfb, xdotool, x11-apps (xwd), xfonts-base (the 10x20 font); .ci/run installs them.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

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

export const XTERM_TOOLS = ["xterm", "Xvfb", "xdotool", "xwd"];

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
    // The window's id, and the pid of the command (the shell's, kept by exec) for what a failure says of it.
    const script = `echo "$WINDOWID" > ${JSON.stringify(idFile)}; echo $$ > ${JSON.stringify(join(dir, "pid"))}; exec "$@"`;
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, DISPLAY: display };
    delete childEnv.TMUX;
    delete childEnv.STY;
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
    await screen.focus();
    return screen;
  }

  async xdotool(...args: string[]): Promise<void> {
    await run("xdotool", args, { env: { ...process.env, DISPLAY: this.display } });
  }

  /**
   * Keys go where the X server's focus is: it is put on the window again before each send, so
   * that nothing on the display (a window mapped late, a focus that reverted) can take them.
   */
  private async focus(): Promise<void> {
    await this.xdotool("windowfocus", "--sync", this.window);
  }

  /** Keys by their X names (`j`, `Return`, `Escape`, `question`), one after another. */
  async keys(...names: string[]): Promise<void> {
    await this.focus();
    for (const k of names) await this.xdotool("key", "--delay", "60", k);
  }

  async type(text: string): Promise<void> {
    await this.focus();
    await this.xdotool("type", "--delay", "60", text);
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
    throw new Error(`the xterm window did not settle${changed ? "" : " (it never changed)"} within ${timeoutMs} ms; ${this.commandState()}`);
  }

  /** What the command in the window is doing (a failure says it): running or asleep, and its CPU time so far. */
  commandState(): string {
    try {
      const pid = readFileSync(join(this.dir, "pid"), "utf8").trim();
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]);
      return `the command (pid ${pid}) is in state ${fields[0]} with ${ticks} ticks of CPU time`;
    } catch {
      return "the command has exited";
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
