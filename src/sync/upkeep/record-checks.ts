/**
 * The register's users and joinable channels not checked yet are checked a
 * batch at a time once the screen is up (any asked for sooner already were);
 * when all are done, the malformed ones left out are reported in one line.
 */
import type { Store } from "../../model/store.js";
import { checkSomeRecords, malformedRecords } from "../../model/store-queries.js";

/** Register records checked per turn of the event loop (a few ms each). */
export const RECORD_CHECK_BATCH = 2000;

/** Runs `fn` on a later turn; returns how to cancel it. */
export type NextTurn = (fn: () => void) => () => void;

export const nextImmediate: NextTurn = (fn) => {
  const t = setImmediate(fn);
  return () => clearImmediate(t);
};

export interface RecordCheckOptions {
  batch?: number;
  nextTurn?: NextTurn;
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
  cancel = nextTurn(step);
  return () => cancel?.();
}
