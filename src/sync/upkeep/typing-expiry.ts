/**
 * Typing notices expire on their own: one timer, set for the notice that
 * expires first, drops it (and any others due) from the store.
 */
import type { Store } from "../../model/store.js";
import type { Clock, TimerHandle } from "../clock.js";

/** Slack after the expiry time, so the notice is surely due when the timer fires. */
export const TYPING_EXPIRY_SLACK_MS = 10;

/** Sets the timer for the store's next typing expiry; undefined when no notice is showing. */
export function scheduleTypingExpiry(store: Store, clock: Clock): TimerHandle | undefined {
  const next = store.nextTypingExpiry();
  if (next === undefined) return undefined;
  return clock.setTimeout(() => store.expireTyping(clock.now()), Math.max(0, next - clock.now()) + TYPING_EXPIRY_SLACK_MS);
}

/**
 * The timer of one account's store, kept in step with it: told of every change,
 * it sets the timer again only when the first notice to expire is another one.
 */
export class TypingExpiry {
  private timer: TimerHandle | undefined;
  private at: number | undefined;
  private store: Store | undefined;

  constructor(private readonly clock: Clock) {}

  /** The store (or its content) changed. */
  update(store: Store): void {
    const next = store.nextTypingExpiry();
    if (store === this.store && next === this.at) return;
    this.cancel();
    this.store = store;
    this.at = next;
    if (next === undefined) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.at = undefined;
      store.expireTyping(this.clock.now());
      this.update(store);
    }, Math.max(0, next - this.clock.now()) + TYPING_EXPIRY_SLACK_MS);
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.at = undefined;
    this.store = undefined;
  }
}
