/**
 * The user's own records and what others did with a message: who read it
 * (read receipts), saved snippets, navigation views. The store follows
 * through the `saved_snippets` and `navigation_view` events. On a server too
 * old for one of them, or an organization that turned read receipts off, the
 * action says so and asks nothing.
 */
import { ApiError } from "../../api/errors.js";
import { addNavigationView, removeNavigationView as removeViewRoute, updateNavigationView } from "../../api/routes/navigation-views.js";
import { getReadReceipts } from "../../api/routes/read-receipts.js";
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet } from "../../api/routes/saved-snippets.js";
import { isBuiltInView } from "../../model/navigation-views.js";
import { readReceiptsUnavailable } from "../../model/selectors-personal.js";
import { actionError, command, failed, request, succeeded, unsupported, type ActionResult, type ActionSession } from "./result.js";

const RECEIPTS_OFF = "Read receipts are turned off in this organization.";

/** Who has read a message (user IDs; never its sender). Where they cannot be shown, the reason. */
export async function readReceipts(session: ActionSession, messageId: number): Promise<ActionResult<number[]>> {
  const store = session.machine.store;
  const why = store ? readReceiptsUnavailable(store) : undefined;
  if (why) return failed(why, "READ_RECEIPTS_UNAVAILABLE");
  try {
    return succeeded((await getReadReceipts(session.machine.client, messageId)).user_ids);
  } catch (err) {
    // Turned off since this client last heard: the server's refusal says the same as the check above.
    if (err instanceof ApiError && /read receipts are disabled/i.test(err.message)) return failed(RECEIPTS_OFF, "READ_RECEIPTS_UNAVAILABLE");
    return { ok: false, error: actionError(err) };
  }
}

/** Saves a snippet; the value is its ID. */
export async function createSnippet(session: ActionSession, p: { title: string; content: string }): Promise<ActionResult<number>> {
  const no = unsupported(session, "savedSnippets");
  if (no) return no;
  const r = await request(session, (c) => createSavedSnippet(c, p));
  return r.ok ? succeeded(r.value.saved_snippet_id) : r;
}

export function editSnippet(session: ActionSession, id: number, p: { title?: string; content?: string }): Promise<ActionResult> {
  const no = unsupported(session, "editSavedSnippets");
  if (no) return Promise.resolve(no);
  return command(session, (c) => editSavedSnippet(c, id, p));
}

export function deleteSnippet(session: ActionSession, id: number): Promise<ActionResult> {
  const no = unsupported(session, "savedSnippets");
  if (no) return Promise.resolve(no);
  return command(session, (c) => deleteSavedSnippet(c, id));
}

/** Adds a custom view (a fragment and a name), or records a built-in view's pin (no name). */
export function createNavigationView(session: ActionSession, p: { fragment: string; isPinned: boolean; name?: string }): Promise<ActionResult> {
  const no = unsupported(session, "navigationViews");
  if (no) return Promise.resolve(no);
  if (isBuiltInView(p.fragment) && p.name !== undefined) return Promise.resolve(failed("A built-in view keeps its own name."));
  if (!isBuiltInView(p.fragment) && !p.name?.trim()) return Promise.resolve(failed("A custom view needs a name."));
  return command(session, (c) => addNavigationView(c, { fragment: p.fragment, is_pinned: p.isPinned, name: p.name?.trim() }));
}

/**
 * Renames a custom view or pins/unpins any view. A built-in view the server holds no
 * record of yet (it shows with its defaults) gets one, as the web app does.
 */
export function editNavigationView(session: ActionSession, fragment: string, p: { isPinned?: boolean; name?: string }): Promise<ActionResult> {
  const no = unsupported(session, "navigationViews");
  if (no) return Promise.resolve(no);
  const known = session.machine.store?.personal.navigationViews.has(fragment) ?? true;
  if (isBuiltInView(fragment)) {
    if (p.name !== undefined) return Promise.resolve(failed("A built-in view keeps its own name."));
    if (!known) return command(session, (c) => addNavigationView(c, { fragment, is_pinned: p.isPinned ?? true }));
  }
  return command(session, (c) => updateNavigationView(c, fragment, { is_pinned: p.isPinned, name: p.name?.trim() }));
}

/** Removes a custom view; for a built-in one, forgets its record (it shows with its defaults again). */
export function removeNavigationView(session: ActionSession, fragment: string): Promise<ActionResult> {
  const no = unsupported(session, "navigationViews");
  if (no) return Promise.resolve(no);
  return command(session, (c) => removeViewRoute(c, fragment));
}
