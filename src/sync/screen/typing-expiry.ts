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
