/**
 * Loading for the recent conversations view: makes the request the plan
 * (model/recent-loading.ts) asks for, if any, and puts the answer in the
 * store. The view calls it when it opens, when it scrolls, and after each
 * answer, until the plan says the view has enough.
 */
import { describeError } from "../api/errors.js";
import type { ApiClient } from "../api/http.js";
import { getMessages } from "../api/routes/messages.js";
import { addRecentMessages } from "../model/recent-store.js";
import { beginRecentFetch, nextRecentFetch, recentFetchDone, recentFetchFailed, type RecentLoadState } from "../model/recent-loading.js";
import type { Store } from "../model/store.js";

/** One step: returns whether a request was made (false: nothing to load now). */
export async function loadRecentStep(client: ApiClient, store: Store, state: RecentLoadState, need: { wanted: number; complete: number }): Promise<boolean> {
  const req = nextRecentFetch(state, need);
  if (!req) return false;
  const generation = beginRecentFetch(state);
  try {
    const r = await getMessages(client, { ...req, apply_markdown: false, client_gravatar: true, allow_empty_topic_name: true });
    if (recentFetchDone(state, generation, r)) addRecentMessages(store, r.messages);
  } catch (err) {
    recentFetchFailed(state, generation, describeError(err));
  }
  return true;
}
