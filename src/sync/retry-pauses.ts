/**
 * The update machine's waits between attempts (update-machine.ts says when each is taken): the
 * backoff after a transient failure (full jitter, 100 ms doubling to 10 s by default, at least
 * what a 429's `retry-after` asks), and the slower one before a rebuild after a malformed answer
 * (1 s doubling to 60 s, its count forgotten after ten quiet minutes). A nudge cuts a wait short;
 * the machine's stop ends it with the stop's reason.
 */
import { jitteredDelay, sleep, type Clock } from "./clock.js";

export interface PauseBounds {
  baseMs: number;
  maxMs: number;
}

export class RetryPauses {
  private wake: AbortController | undefined;
  private lastMalformedAt = -Infinity;
  private rebuildsAfterMalformed = 0;

  constructor(
    private readonly o: { clock: Clock; stop: AbortSignal; backoff?: PauseBounds; rebuildBackoff?: PauseBounds; random?: () => number },
  ) {}

  /** Cuts a pending wait short. */
  nudge(): void {
    this.wake?.abort();
  }

  /** Waits `delay` ms, or until nudged; throws the stop's reason once the machine is stopped. */
  async wait(delay: number): Promise<void> {
    this.wake = new AbortController();
    try {
      await sleep(this.o.clock, delay, AbortSignal.any([this.o.stop, this.wake.signal]));
    } catch {
      if (this.o.stop.aborted) throw this.o.stop.reason;
      // else: nudged
    } finally {
      this.wake = undefined;
    }
  }

  /** After the `attempt`th transient failure in a row. */
  transient(attempt: number, err: unknown): Promise<void> {
    let delay = jitteredDelay(attempt, this.o.backoff ?? { baseMs: 100, maxMs: 10_000 }, this.o.random);
    // A 429 (or a 503) may say how long to stay away.
    const retryAfter = (err as { retryAfter?: unknown } | undefined)?.retryAfter;
    if (typeof retryAfter === "number") delay = Math.max(delay, retryAfter * 1000);
    return this.wait(delay);
  }

  /** Before a rebuild after a malformed answer. */
  malformed(): Promise<void> {
    const now = this.o.clock.now();
    // Trouble long ago does not make this one wait longer.
    if (now - this.lastMalformedAt > 10 * 60_000) this.rebuildsAfterMalformed = 0;
    this.lastMalformedAt = now;
    const delay = jitteredDelay(this.rebuildsAfterMalformed++, this.o.rebuildBackoff ?? { baseMs: 1000, maxMs: 60_000 }, this.o.random);
    return this.wait(delay);
  }
}
