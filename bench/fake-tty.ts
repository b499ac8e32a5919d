// A terminal for benchmarks that render the app in-process: it takes Ink's frames, remembers the
// last whole one, and can wait for the next write.
import { Writable } from "node:stream";

export class FakeTty extends Writable {
  readonly isTTY = true;
  frames = 0;
  last = "";
  /** When the first and the last write came (performance.now()). */
  firstWriteAt = 0;
  lastWriteAt = 0;
  /** Everything written since `record()` was called (undefined when not recording). */
  recorded: string | undefined;
  private waiters: Array<() => void> = [];

  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }

  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    this.frames++;
    this.lastWriteAt = performance.now();
    if (this.frames === 1) this.firstWriteAt = this.lastWriteAt;
    const text = chunk.toString();
    if (text.length > 64) this.last = text; // a frame, not the synchronized-output markers around it
    if (this.recorded !== undefined) this.recorded += text;
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
    done();
  }

  /** Keeps what is written from now on (the frame writer sends only the rows that changed, so a title drawn once is in no later frame). */
  record(): void {
    this.recorded = "";
  }

  /** Resolves at the next write (true), or false after `ms`. */
  nextWrite(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(t);
        resolve(true);
      };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        resolve(false);
      }, ms);
      this.waiters.push(wake);
    });
  }
}

/** Writes one key and waits for the frame it causes, then `gapMs` more (past Ink's render throttle); the latency in ms, or undefined without a frame. */
export async function pressForFrame(stdout: FakeTty, stdin: { write(s: string): unknown }, key: string, gapMs: number, timeoutMs: number): Promise<number | undefined> {
  const frame = stdout.nextWrite(timeoutMs);
  const t = performance.now();
  stdin.write(key);
  const ok = await frame;
  const ms = performance.now() - t;
  await new Promise<void>((r) => setTimeout(r, gapMs));
  return ok ? ms : undefined;
}
