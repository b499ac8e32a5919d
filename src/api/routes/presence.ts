/** Presence: report one's own (and fetch others' in the same call), or fetch it. */
import type { ApiClient } from "../http.js";
import {
  getPresenceResponseSchema,
  getUserPresenceResponseSchema,
  updatePresenceResponseSchema,
} from "../schemas/responses-users.js";

export interface UpdatePresenceParams {
  /** `active` while the user is using the device, else `idle`. */
  status: "active" | "idle";
  /** -1 on the first call, then the last `presence_last_update_id`; forces the modern format. */
  last_update_id?: number;
  /** Oldest presence data to return (default 14 days); ignored when last_update_id > 0. */
  history_limit_days?: number;
  /** Only update one's own presence; the response carries no presence data. */
  ping_only?: boolean;
  /** Deprecated: request the modern format (last_update_id does too). */
  slim_presence?: boolean;
  new_user_input?: boolean;
}

/** Reporting the same status twice is harmless: retried on transient failures. */
export function updatePresence(client: ApiClient, p: UpdatePresenceParams, signal?: AbortSignal) {
  return client.request("POST", "users/me/presence", {
    params: p,
    schema: updatePresenceResponseSchema,
    idempotent: true,
    signal,
  });
}

/** Everyone's presence (legacy format, keyed by email). */
export function getPresence(client: ApiClient) {
  return client.request("GET", "realm/presence", { schema: getPresenceResponseSchema });
}

/** One user's presence by ID or email (legacy format: per client plus `aggregated`). */
export function getUserPresence(client: ApiClient, userIdOrEmail: number | string) {
  return client.request("GET", `users/${encodeURIComponent(String(userIdOrEmail))}/presence`, {
    schema: getUserPresenceResponseSchema,
  });
}
