/**
 * Time, injectable. Everything in sync/ that waits takes a Clock, so tests
 * step time by hand (test/fixtures/fake-clock.ts) and nothing here keeps the
 * process alive at exit: the real clock's timers are unref'd.
 */

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms`; the timer never keeps the process alive. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};

/** Waits `ms` on `clock`; rejects with the signal's reason when it aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      timer.cancel();
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Full-jitter exponential backoff: a random delay in [0, min(max, base·2^attempt)]. */
export function jitteredDelay(attempt: number, bounds: { baseMs: number; maxMs: number }, random: () => number = Math.random): number {
  const cap = Math.min(bounds.maxMs, bounds.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(random() * cap);
}

/** A trailing debounce on a clock, with an upper bound on how long a change may wait. */
export class Debouncer {
  private timer: TimerHandle | undefined;
  private firstPendingAt: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly waitMs: number,
    private readonly fn: () => void,
    /** A stream of changes never postpones the call past this. */
    private readonly maxWaitMs = waitMs * 8,
  ) {}

  get pending(): boolean {
    return this.timer !== undefined;
  }

  trigger(): void {
    const now = this.clock.now();
    this.firstPendingAt ??= now;
    this.timer?.cancel();
    const due = Math.min(now + this.waitMs, this.firstPendingAt + this.maxWaitMs);
    this.timer = this.clock.setTimeout(() => this.fire(), due - now);
  }

  /** Runs a pending call now. */
  flush(): void {
    if (this.timer) this.fire();
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.firstPendingAt = undefined;
  }

  private fire(): void {
    this.cancel();
    this.fn();
  }
}
