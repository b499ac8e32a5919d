/** Users: look up one or all, one's own record, deactivation. */
import type { ApiClient } from "../http.js";
import { JsonInParts } from "../json-stream.js";
import { compactParsedUser } from "../schemas/user-record.js";
import {
  allUsersResponseSchema,
  getOwnUserResponseSchema,
  getUserResponseSchema,
  getUsersResponseSchema,
} from "../schemas/responses-users.js";
import { emptySuccessSchema } from "../schemas/responses.js";

export interface UserQuery {
  client_gravatar?: boolean;
  include_custom_profile_fields?: boolean;
}

export function getUser(client: ApiClient, userId: number, p: UserQuery = {}) {
  return client.request("GET", `users/${userId}`, { params: p, schema: getUserResponseSchema });
}

/**
 * By real email (when the target's email visibility allows it; feature
 * level 302) or by the dummy address user{id}@{realm_host}.
 */
export function getUserByEmail(client: ApiClient, email: string, p: UserQuery = {}) {
  return client.request("GET", `users/${encodeURIComponent(email)}`, { params: p, schema: getUserResponseSchema });
}

export function getUsers(client: ApiClient, p: UserQuery & { user_ids?: number[] } = {}) {
  return client.request("GET", "users", { params: p, schema: getUsersResponseSchema });
}

/**
 * Every user of the organization for the store (a start's register asks for none): a big
 * organization's list is megabytes, four fifths of its data, so it is parsed as it arrives and
 * never held whole, each user in the store's form as soon as its run is parsed, and checked
 * when first used. `beforeParse` runs once the answer's headers are in, before its body is read.
 */
export function getAllUsers(client: ApiClient, signal?: AbortSignal, beforeParse?: () => void) {
  return client.request("GET", "users", {
    params: { client_gravatar: true },
    schema: allUsersResponseSchema,
    parseAsItArrives: () => {
      beforeParse?.();
      return new JsonInParts({ members: compactParsedUser });
    },
    maxBytes: 128 * 1024 * 1024,
    timeoutMs: 60_000,
    signal,
  });
}

export function getOwnUser(client: ApiClient, signal?: AbortSignal) {
  return client.request("GET", "users/me", { schema: getOwnUserResponseSchema, signal });
}

export interface DeactivateUserParams {
  /** Applied first to the user's bots, then to the user. */
  actions?: {
    delete_profile?: boolean;
    delete_public_channel_messages?: boolean;
    delete_private_channel_messages?: boolean;
    delete_direct_messages?: boolean;
  };
  /**
   * When given (not null) the user is emailed; a non-empty value is custom
   * text for the email. null, like leaving it out, sends no email: it is a
   * plain string on the wire, so null is not sent (it would arrive as "null").
   */
  deactivation_notification_comment?: string | null;
}

/**
 * Deactivates a user (organization administrators). Not retried: it is
 * destructive, and a repeat after a lost answer would fail confusingly.
 */
export function deactivateUser(client: ApiClient, userId: number, p: DeactivateUserParams = {}) {
  const { deactivation_notification_comment: comment, ...rest } = p;
  return client.request("DELETE", `users/${userId}`, {
    params: { ...rest, deactivation_notification_comment: comment ?? undefined },
    schema: emptySuccessSchema,
    idempotent: false,
  });
}
