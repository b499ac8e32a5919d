/**
 * One account's change feed: everything that changes in an account runtime,
 * told through one subscription with typed kinds, in the order it happened.
 * The screen (or anything else watching the account) listens here instead of
 * to the machine, the store, the outbox and the journal one by one.
 */
import type { Move } from "../model/moves.js";
import type { Store } from "../model/store.js";
import type { Note } from "./upkeep/notifications.js";
import type { ConnectionState, StoreReason } from "./update-machine.js";

/** A line for the status line. */
export interface Notice {
  text: string;
  kind: "info" | "error";
}

export type AccountChange =
  /** A new store replaced the old one (the first, a rebuild, the server's after the cache's). */
  | { kind: "store"; store: Store; reason: StoreReason }
  /** The store's content changed (its version went up). */
  | { kind: "changed"; store: Store }
  | { kind: "connection"; state: ConnectionState }
  /** Messages waiting to be sent (or edits waiting to be saved) changed. */
  | { kind: "outbox" }
  /** The draft journal changed (typed here, or synced from another client). */
  | { kind: "journal" }
  /** A line to show: a kept edit saved or refused, malformed records left out, a newer server… */
  | { kind: "notice"; notice: Notice }
  /** A new message asks to be notified of (at most one a second: a burst comes as one). */
  | { kind: "notify"; note: Note }
  /** Messages moved to another topic or channel (by anyone); the store has applied it. */
  | { kind: "moved"; move: Move; store: Store };

export type ChangeListener = (change: AccountChange) => void;

/** Notices told while nobody listened, kept for the first screen that does (the newest few). */
const KEPT_NOTICES = 8;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();
  private readonly unheard: Notice[] = [];

  subscribe(fn: ChangeListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  emit(change: AccountChange): void {
    if (change.kind === "notice" && this.listeners.size === 0) {
      this.unheard.push(change.notice);
      if (this.unheard.length > KEPT_NOTICES) this.unheard.shift();
    }
    for (const fn of this.listeners) fn(change);
  }

  /** The notices told before anyone listened, once. */
  takeUnheard(): Notice[] {
    return this.unheard.splice(0);
  }

  get listening(): number {
    return this.listeners.size;
  }
}
