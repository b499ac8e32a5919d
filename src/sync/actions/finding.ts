/**
 * The requests the finding screens make: the recent conversations view's
 * loading (a step of the plan in model/recent-loading.ts), and the first
 * message of a narrow on or after a moment (sync/date-jump.ts: anchor=date
 * where the server's feature level has it, a search by id where not).
 */
import type { NarrowTerm } from "../../api/schemas/common.js";
import type { DateJumpOutcome } from "../../model/date-jump.js";
import type { RecentLoadState } from "../../model/recent-loading.js";
import type { Store } from "../../model/store.js";
import { findDateAnchor } from "../date-jump.js";
import { loadRecentStep } from "../recent-loader.js";
import { request, type ActionResult, type ActionSession } from "./result.js";

/**
 * Loads the next batch the recent view needs, if any (`state` is the view's, kept per store):
 * true when a request was made (the store has its messages), false when there was nothing to load.
 * A failed request is kept in `state.error` for the view to show.
 */
export function loadRecent(session: Pick<ActionSession, "machine">, store: Store, state: RecentLoadState, need: { wanted: number; complete: number }): Promise<boolean> {
  return loadRecentStep(session.machine.client, store, state, need);
}

/** Where a narrow opens for a moment (ms): its first message on or after it. */
export function findDate(session: Pick<ActionSession, "machine">, store: Store, narrow: NarrowTerm[], at: number): Promise<ActionResult<DateJumpOutcome>> {
  return request(session, (client) => findDateAnchor(client, { narrow, at, featureLevel: store.realm.featureLevel }));
}
