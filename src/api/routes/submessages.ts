/** Submessages: the data of interactive messages (poll votes, to-do tasks). */
import type { ApiClient } from "../http.js";
import { emptySuccessSchema } from "../schemas/responses.js";

export interface SubmessageParams {
  message_id: number;
  /** `widget` for polls and to-do lists. */
  msg_type: string;
  /** The widget's JSON, as a string. */
  content: string;
}

/**
 * Adds a submessage to a message. Not retried: a repeated vote or strike
 * would count twice (a strike toggles).
 */
export function sendSubmessage(client: ApiClient, p: SubmessageParams) {
  return client.request("POST", "submessage", {
    params: { ...p },
    schema: emptySuccessSchema,
    idempotent: false,
  });
}
