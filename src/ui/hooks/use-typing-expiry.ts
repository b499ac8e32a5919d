/** Typing notices expire on their own while the screen is up. */
import { useEffect } from "react";
import type { Store } from "../../model/store.js";
import { realClock, type Clock } from "../../sync/clock.js";
import { scheduleTypingExpiry } from "../../sync/screen/typing-expiry.js";

export function useTypingExpiry(store: Store | undefined, version: number, clock: Clock = realClock): void {
  useEffect(() => {
    if (!store) return;
    const timer = scheduleTypingExpiry(store, clock);
    return () => timer?.cancel();
  }, [store, version, clock]);
}
