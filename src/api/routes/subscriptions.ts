/** The user's subscriptions: list, subscribe, unsubscribe, personal per-channel settings. */
import type { ApiClient } from "../http.js";
import {
  getSubscriptionsResponseSchema,
  subscribeResponseSchema,
  unsubscribeResponseSchema,
} from "../schemas/responses-channels.js";
import { emptySuccessSchema } from "../schemas/responses.js";

export function getSubscriptions(client: ApiClient, p: { include_subscribers?: boolean | "partial" } = {}) {
  const inc = p.include_subscribers;
  return client.request("GET", "users/me/subscriptions", {
    params: { include_subscribers: inc === undefined ? undefined : String(inc) },
    schema: getSubscriptionsResponseSchema,
  });
}

export interface SubscribeParams {
  /** Channels by name; a missing one is created (with `description`) when permitted. */
  subscriptions: Array<{ name: string; description?: string }>;
  /** Other users to subscribe (IDs, or emails on old servers); default: oneself. */
  principals?: number[] | string[];
  authorization_errors_fatal?: boolean;
  announce?: boolean;
  invite_only?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  message_retention_days?: number | "realm_default" | "unlimited";
  folder_id?: number | null;
  topics_policy?: string;
  send_new_subscription_messages?: boolean;
}

/** Not retried: it may create channels and send announcements. */
export function subscribe(client: ApiClient, p: SubscribeParams) {
  return client.request("POST", "users/me/subscriptions", {
    params: p,
    schema: subscribeResponseSchema,
    idempotent: false,
  });
}

/** Unsubscribing twice is harmless (the second reports `not_removed`). */
export function unsubscribe(client: ApiClient, p: { subscriptions: string[]; principals?: number[] | string[] }) {
  return client.request("DELETE", "users/me/subscriptions", {
    params: p,
    schema: unsubscribeResponseSchema,
    idempotent: true,
  });
}

export type SubscriptionProperty =
  | "color"
  | "is_muted"
  | "in_home_view"
  | "pin_to_top"
  | "desktop_notifications"
  | "audible_notifications"
  | "push_notifications"
  | "email_notifications"
  | "wildcard_mentions_notify";

export type SubscriptionSetting =
  | { stream_id: number; property: "color"; value: string }
  | { stream_id: number; property: Exclude<SubscriptionProperty, "color">; value: boolean };

/** Sets personal settings of several channels at once (each emits subscription update events). */
export function updateSubscriptionSettings(client: ApiClient, subscriptionData: SubscriptionSetting[]) {
  return client.request("POST", "users/me/subscriptions/properties", {
    params: { subscription_data: subscriptionData },
    schema: emptySuccessSchema,
    idempotent: true,
  });
}

/** One property of one subscription: the same as a one-entry `updateSubscriptionSettings`. */
export type SubscriptionPropertyChange = SubscriptionSetting extends infer S
  ? S extends { stream_id: number } ? Omit<S, "stream_id"> : never
  : never;

/**
 * Sets one personal setting of one channel (`POST /users/me/subscriptions/{stream_id}`):
 * the value travels bare (a colour as `#rrggbb`, a boolean as `true`/`false`). Safe to repeat.
 */
export function updateSubscriptionProperty(client: ApiClient, channelId: number, change: SubscriptionPropertyChange) {
  return client.request("POST", `users/me/subscriptions/${channelId}`, {
    params: { property: change.property, value: change.value },
    schema: emptySuccessSchema,
    idempotent: true,
  });
}
