/**
 * Jumping to a date: runs the date search (model/date-jump.ts) over the
 * network, one request at a time, and says where the narrow opens.
 */
import type { ApiClient } from "../api/http.js";
import { ApiError } from "../api/errors.js";
import { getMessages } from "../api/routes/messages.js";
import { DateJump, type DateJumpOptions, type DateJumpOutcome } from "../model/date-jump.js";

/** The first message of the narrow on or after the moment (see DateJumpOutcome). Network and API errors are thrown as they come. */
export async function findDateAnchor(client: ApiClient, o: DateJumpOptions, signal?: AbortSignal): Promise<DateJumpOutcome> {
  const search = new DateJump(o);
  for (let req = search.next(); req; req = search.next()) {
    try {
      const r = await getMessages(client, { ...req, apply_markdown: false, client_gravatar: true, allow_empty_topic_name: true }, signal);
      search.answer(r);
    } catch (err) {
      // A server older than it says answers "Invalid anchor": search the way older servers allow.
      if (req.anchor === "date" && err instanceof ApiError && err.status === 400) {
        search.refused();
        continue;
      }
      throw err;
    }
  }
  return search.result() as DateJumpOutcome;
}
