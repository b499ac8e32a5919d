/**
 * Draft actions. Every deletion goes through the journal and draft sync, so
 * the server's copy and the local one never disagree for long.
 */
import { perform, type ActionResult, type ActionSession } from "./result.js";

/** Deletes a draft of the journal (by key); draft sync removes the server's copy. */
export function deleteLocalDraft(session: ActionSession, key: string): ActionResult {
  session.journal.clear(key);
  return { ok: true, value: undefined };
}

/** Deletes a server draft the journal does not hold (another client's, say). */
export function deleteServerDraft(session: ActionSession, draftId: number): Promise<ActionResult> {
  return perform(() => session.drafts.deleteServerDraft(draftId));
}
