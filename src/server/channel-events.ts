// Events about channels: property updates to everyone who can see the
// channel, create/delete when a change makes it appear or disappear for
// someone, and peer_add/peer_remove to those who may see its subscribers.

import type { ServerContext } from "./context.js";
import { sendToUsers } from "./notify.js";
import { canSeeChannel, canSeeSubscribers } from "./permissions.js";
import type { Channel } from "./state.js";
import { channelToWire } from "./wire.js";

export function channelViewers(ctx: ServerContext, channel: Channel): Set<number> {
  const out = new Set<number>();
  for (const u of ctx.state.users.values()) if (canSeeChannel(ctx.state, u, channel)) out.add(u.id);
  return out;
}

export function subscriberViewers(ctx: ServerContext, channel: Channel): Set<number> {
  const out = new Set<number>();
  for (const u of ctx.state.users.values()) if (canSeeSubscribers(ctx.state, u, channel)) out.add(u.id);
  return out;
}

/** `stream` op `update` for one property. */
export function sendChannelUpdate(
  ctx: ServerContext,
  channel: Channel,
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
  name: string = channel.name,
): void {
  const event = { type: "stream", op: "update", stream_id: channel.id, name, property, value, ...extra };
  const viewers = channelViewers(ctx, channel);
  sendToUsers(ctx, viewers, "stream", (queue) => {
    // Clients without archived_channels support do not know archived channels.
    if (channel.isArchived && property !== "is_archived" && !queue.capability("archived_channels")) return null;
    return structuredClone(event);
  });
}

export function sendChannelCreate(ctx: ServerContext, channel: Channel, userIds: Iterable<number>): void {
  sendToUsers(ctx, userIds, "stream", (queue) => {
    if (channel.isArchived && !queue.capability("archived_channels")) return null;
    return { type: "stream", op: "create", streams: [channelToWire(ctx, channel)] };
  });
}

export function sendChannelDelete(ctx: ServerContext, channel: Channel, userIds: Iterable<number>): void {
  sendToUsers(ctx, userIds, "stream", { type: "stream", op: "delete", streams: [{ stream_id: channel.id }], stream_ids: [channel.id] });
}

/** After a change of privacy: create for those who now see it, delete for those who no longer do. */
export function announceVisibilityChange(ctx: ServerContext, channel: Channel, before: Set<number>): void {
  const after = channelViewers(ctx, channel);
  sendChannelCreate(ctx, channel, [...after].filter((id) => !before.has(id)));
  sendChannelDelete(ctx, channel, [...before].filter((id) => !after.has(id)));
}

export function sendPeerEvent(
  ctx: ServerContext,
  channel: Channel,
  op: "peer_add" | "peer_remove",
  userIds: number[],
  exclude: Set<number> = new Set(userIds),
): void {
  if (userIds.length === 0) return;
  const targets = [...subscriberViewers(ctx, channel)].filter((id) => !exclude.has(id));
  sendToUsers(ctx, targets, "subscription", { type: "subscription", op, stream_ids: [channel.id], user_ids: [...userIds].sort((a, b) => a - b) });
}
