// Personal subscription settings: GET /users/me/subscriptions,
// POST /users/me/subscriptions/properties (bulk) and
// POST /users/me/subscriptions/{stream_id} (one property).
// Subscribing and unsubscribing live in subscribe.ts.

import { badRequest } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import { canSeeSubscribers } from "../permissions.js";
import type { Subscription } from "../state.js";
import { subscriptionToWire } from "../wire.js";
import { subscribeRoutes } from "./subscribe.js";

const BOOLEAN_PROPERTIES: Record<string, keyof Subscription> = {
  is_muted: "isMuted",
  pin_to_top: "pinToTop",
  desktop_notifications: "desktopNotifications",
  audible_notifications: "audibleNotifications",
  push_notifications: "pushNotifications",
  email_notifications: "emailNotifications",
  wildcard_mentions_notify: "wildcardMentionsNotify",
};

interface Change {
  streamId: number;
  property: string;
  value: unknown;
}

function parseValue(property: string, raw: unknown): boolean | string {
  if (property === "color") {
    if (typeof raw !== "string" || !/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(raw)) {
      throw badRequest("color is not a valid hex color code");
    }
    return raw.toLowerCase();
  }
  if (property === "in_home_view" || property in BOOLEAN_PROPERTIES) {
    if (raw === "true" || raw === "false") return raw === "true";
    if (typeof raw !== "boolean") throw badRequest(`${property} is not a boolean`);
    return raw;
  }
  throw badRequest(`Unknown subscription property: ${property}`);
}

function applyChanges(ctx: RequestContext, changes: Change[]): void {
  const { server, user } = ctx;
  const { state } = server;
  const resolved: [Subscription, string, boolean | string][] = changes.map((c) => {
    const channel = state.channels.get(c.streamId);
    if (!channel || !state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
    const sub = state.subscription(user.id, channel.id);
    if (!sub) throw badRequest(`Not subscribed to channel ID ${channel.id}`);
    return [sub, c.property, parseValue(c.property, c.value)];
  });
  for (const [sub, property, value] of resolved) {
    const event = (p: string, v: unknown) => ({ type: "subscription", op: "update", stream_id: sub.channelId, property: p, value: v });
    if (property === "color") {
      sub.color = value as string;
      sendToUsers(server, [user.id], "subscription", event("color", value));
    } else if (property === "is_muted" || property === "in_home_view") {
      const muted = property === "is_muted" ? (value as boolean) : !(value as boolean);
      sub.isMuted = muted;
      // Since feature level 139: one event per name of the property.
      sendToUsers(server, [user.id], "subscription", event("in_home_view", !muted));
      sendToUsers(server, [user.id], "subscription", event("is_muted", muted));
    } else {
      const key = BOOLEAN_PROPERTIES[property]!;
      (sub as unknown as Record<string, unknown>)[key] = value;
      sendToUsers(server, [user.id], "subscription", event(property, value));
    }
  }
}

function parseSubscriptionData(raw: unknown): Change[] {
  if (!Array.isArray(raw)) throw badRequest("subscription_data is not a list");
  return raw.map((item, i) => {
    if (!item || typeof item !== "object" || Array.isArray(item)) throw badRequest(`subscription_data[${i}] is not a dict`);
    const obj = item as Record<string, unknown>;
    for (const key of ["stream_id", "property", "value"]) {
      if (!(key in obj)) throw badRequest(`${key} key is missing from subscription_data[${i}]`);
    }
    if (!Number.isInteger(obj["stream_id"])) throw badRequest(`subscription_data[${i}]["stream_id"] is not an integer`);
    if (typeof obj["property"] !== "string") throw badRequest(`subscription_data[${i}]["property"] is not a string`);
    return { streamId: obj["stream_id"] as number, property: obj["property"], value: obj["value"] };
  });
}

export const subscriptionRoutes: Route[] = [
  {
    method: "GET",
    path: "/users/me/subscriptions",
    handler({ server, params, user }) {
      const { state } = server;
      const raw = (params.str("include_subscribers") ?? "false").trim().replace(/^"|"$/g, "");
      if (raw !== "true" && raw !== "false" && raw !== "partial") throw badRequest("Invalid include_subscribers");
      const subscriptions = [...(state.subscriptions.get(user.id)?.values() ?? [])]
        .filter((s) => s.active)
        .sort((a, b) => a.channelId - b.channelId)
        .flatMap((sub) => {
          const channel = state.channels.get(sub.channelId);
          if (!channel) return [];
          const subscribers = raw === "false" ? undefined : canSeeSubscribers(state, user, channel) ? state.subscriberIds(channel.id) : [];
          return [subscriptionToWire(server, channel, sub, subscribers)];
        });
      return { subscriptions };
    },
  },
  {
    method: "POST",
    path: "/users/me/subscriptions/properties",
    handler(ctx) {
      applyChanges(ctx, parseSubscriptionData(ctx.params.reqJson("subscription_data")));
      return {};
    },
  },
  ...subscribeRoutes,
  {
    method: "POST",
    path: "/users/me/subscriptions/:stream_id",
    handler(ctx) {
      const raw = ctx.path["stream_id"] ?? "";
      if (!/^\d+$/.test(raw)) throw badRequest("Invalid channel ID");
      const property = ctx.params.reqStr("property");
      // Like the service (`Json[bool] | str`, left to right): JSON true/false is
      // a boolean, anything else the bare string (a colour such as #c2c2c2).
      const valueText = ctx.params.reqStr("value");
      const value: unknown = valueText === "true" ? true : valueText === "false" ? false : valueText;
      applyChanges(ctx, [{ streamId: Number(raw), property, value }]);
      return {};
    },
  },
];
