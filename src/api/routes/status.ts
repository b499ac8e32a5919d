/** User status: one's own (text, emoji, away) and another user's. */
import type { ApiClient } from "../http.js";
import { getUserStatusResponseSchema } from "../schemas/responses-users.js";
import { emptySuccessSchema } from "../schemas/responses.js";

export type ReactionType = "unicode_emoji" | "realm_emoji" | "svc_extra_emoji" | "zulip_extra_emoji";

/** Only passed fields change. */
export interface UpdateStatusParams {
  /** Empty clears; at most 60 code points. */
  status_text?: string;
  /** Empty clears the emoji. */
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: ReactionType;
  /** Deprecated: equals not presence_enabled. */
  away?: boolean;
}

export const MAX_STATUS_TEXT_LENGTH = 60;

/** Setting the same status twice is harmless: retried on transient failures. */
export function updateStatus(client: ApiClient, p: UpdateStatusParams) {
  return client.request("POST", "users/me/status", { params: p, schema: emptySuccessSchema, idempotent: true });
}

export function getUserStatus(client: ApiClient, userId: number) {
  return client.request("GET", `users/${userId}/status`, { schema: getUserStatusResponseSchema });
}
