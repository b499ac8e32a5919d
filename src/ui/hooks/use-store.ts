import { useCallback, useSyncExternalStore } from "react";
import type { Store } from "../../model/store.js";

/**
 * Store changes closer together than this are drawn together. A busy organization changes the
 * store fifty times a second, and each change drew the whole App again (React, then Ink's frame):
 * the work and the garbage of fifty frames a second, for what no one can read that fast. The
 * first change after a quiet spell is drawn at once; those that follow within the spell, once at
 * its end. A render for any other reason (a key) reads the store as it is, so nothing drawn is
 * ever older than the store.
 */
export const COALESCE_MS = 100;

/** `fn`, called at once when it was not called in the last `ms`, else once when that span ends. */
function coalesce(fn: () => void, ms: number): { call: () => void; cancel: () => void } {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = performance.now();
    fn();
  };
  return {
    call() {
      if (timer !== undefined) return;
      const wait = last + ms - performance.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** Re-renders the caller when the store changes (changes in a burst: see COALESCE_MS); returns its version. */
export function useStoreVersion(store: Store | undefined): number {
  const subscribe = useCallback(
    (fn: () => void) => {
      if (!store) return () => undefined;
      const notify = coalesce(fn, COALESCE_MS);
      const off = store.subscribe(notify.call);
      return () => {
        off();
        notify.cancel();
      };
    },
    [store],
  );
  return useSyncExternalStore(subscribe, () => store?.version ?? -1);
}

/** Re-renders the caller whenever presence changes (it has its own channel: see Store.presenceChanged). */
export function usePresenceVersion(store: Store | undefined): number {
  return useSyncExternalStore(
    (fn) => (store ? store.subscribePresence(fn) : () => undefined),
    () => store?.presenceVersion ?? -1,
  );
}
