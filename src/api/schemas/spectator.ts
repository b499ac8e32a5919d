/**
 * The register answer of a spectator (a request without credentials): the
 * organization and its web-public channels, no event queue (`queue_id` null)
 * and none of a user's data — no `user_id`, no users, no unread counts, no
 * settings. The register schema already lets every section be absent; this
 * one also holds the answer to what a spectator may be shown: web-public
 * channels only, whichever list the server put them in (the public service
 * sends them as subscriptions; a server that lists them as channels never
 * subscribed to is read the same), with the defaults of a new subscription.
 */
import * as z from "zod";
import { subscriptionSchema, type Subscription } from "./common.js";
import { registerResponseSchema } from "./register.js";

export const spectatorRegisterSchema = z.lazy(() => registerResponseSchema.transform((reg) => {
  const listed = reg.subscriptions.filter((s) => s.is_web_public && !s.is_archived);
  const seen = new Set(listed.map((s) => s.stream_id));
  const promoted: Subscription[] = [];
  for (const [id, channel] of reg.never_subscribed.all()) {
    if (seen.has(id) || !channel.is_web_public || channel.is_archived) continue;
    const sub = subscriptionSchema.safeParse(channel);
    if (sub.success) promoted.push(sub.data);
  }
  // No queue: a spectator is never sent events, whatever the answer says.
  return { ...reg, queue_id: null, subscriptions: [...listed, ...promoted], unsubscribed: [] };
}));
export type SpectatorRegister = z.infer<typeof spectatorRegisterSchema>;
