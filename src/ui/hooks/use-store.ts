import { useSyncExternalStore } from "react";
import type { Store } from "../../model/store.js";

/** Re-renders the caller whenever the store changes; returns its version. */
export function useStoreVersion(store: Store | undefined): number {
  return useSyncExternalStore(
    (fn) => (store ? store.subscribe(fn) : () => undefined),
    () => store?.version ?? -1,
  );
}

/** Re-renders the caller whenever presence changes (it has its own channel: see Store.presenceChanged). */
export function usePresenceVersion(store: Store | undefined): number {
  return useSyncExternalStore(
    (fn) => (store ? store.subscribePresence(fn) : () => undefined),
    () => store?.presenceVersion ?? -1,
  );
}
