/**
 * The register's users and joinable channels not checked yet are checked a
 * batch at a time once the screen is up (any asked for sooner already were);
 * when all are done, the malformed ones left out are reported in one line.
 */
import type { Store } from "../../model/store.js";
import { checkSomeRecords, malformedRecords } from "../../model/store-queries.js";

/** Register records checked per turn of the event loop (a few ms each). */
export const RECORD_CHECK_BATCH = 2000;

/**
 * How long after a store is shown its checks begin: its frame is drawn first. Begun at once,
 * their turns came between the turns of that frame's render, and on the link bench (`large`,
 * 50 ms / 20 Mbit) the live frame came 40-60 ms later.
 */
export const RECORD_CHECK_GRACE_MS = 250;

/** Runs `fn` on a later turn; returns how to cancel it. */
export type NextTurn = (fn: () => void) => () => void;

export const nextImmediate: NextTurn = (fn) => {
  const t = setImmediate(fn);
  return () => clearImmediate(t);
};

export interface RecordCheckOptions {
  batch?: number;
  nextTurn?: NextTurn;
  /** The first batch waits this long (ms; default none), then takes its turn. */
  startAfterMs?: number;
  /** Called once all are checked, with the line naming the malformed ones (if any). */
  onMalformed(text: string): void;
}

/** Starts checking the store's records a batch per turn; returns how to stop. */
export function checkRecordsInTurns(store: Store, o: RecordCheckOptions): () => void {
  const batch = o.batch ?? RECORD_CHECK_BATCH;
  const nextTurn = o.nextTurn ?? nextImmediate;
  let cancel: (() => void) | undefined;
  const step = () => {
    if (checkSomeRecords(store, batch) > 0) {
      cancel = nextTurn(step);
      return;
    }
    cancel = undefined;
    const text = malformedRecords(store);
    if (text) o.onMalformed(text);
  };
  const wait = o.startAfterMs ?? 0;
  if (wait > 0) {
    const timer = setTimeout(() => (cancel = nextTurn(step)), wait);
    timer.unref();
    cancel = () => clearTimeout(timer);
  } else {
    cancel = nextTurn(step);
  }
  return () => cancel?.();
}
