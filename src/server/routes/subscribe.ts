// POST /users/me/subscriptions (subscribe, creating channels when allowed)
// and DELETE /users/me/subscriptions (unsubscribe).

import { channelViewers, sendChannelCreate, sendChannelDelete, sendPeerEvent } from "../channel-events.js";
import { nowSeconds, type ServerContext } from "../context.js";
import { badRequest, channelNameNotFound } from "../errors.js";
import { isInGroupSetting } from "../groups.js";
import type { RequestContext, Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import {
  canCreateChannels,
  canCreateWebPublicChannels,
  canSeeChannel,
  insufficientPermission,
  isAdmin,
  parseGroupSetting,
  systemGroupId,
} from "../permissions.js";
import { defaultChannelGroups, subscribe, SUBSCRIPTION_COLORS, type SystemGroups } from "../seed/common.js";
import { CHANNEL_GROUP_SETTINGS, ROLE, type Channel, type User } from "../state.js";
import { subscriptionToWire } from "../wire.js";
import { checkChannelName, checkDescription, parseRetention } from "./channels.js";

interface Wanted {
  name: string;
  color?: string;
  description?: string;
}

function parseWanted(raw: unknown): Wanted[] {
  if (!Array.isArray(raw)) throw badRequest("subscriptions is not a list");
  return raw.map((item, i) => {
    if (!item || typeof item !== "object" || Array.isArray(item)) throw badRequest(`subscriptions[${i}] is not a dict`);
    const obj = item as Record<string, unknown>;
    if (typeof obj["name"] !== "string") throw badRequest(`name key is missing from subscriptions[${i}]`);
    if (obj["color"] !== undefined && (typeof obj["color"] !== "string" || !/^#[0-9a-fA-F]{6}$/.test(obj["color"]))) {
      throw badRequest(`subscriptions[${i}]["color"] is not a valid hex color code`);
    }
    if (obj["description"] !== undefined && typeof obj["description"] !== "string") {
      throw badRequest(`subscriptions[${i}]["description"] is not a string`);
    }
    return { name: obj["name"], color: obj["color"] as string | undefined, description: obj["description"] as string | undefined };
  });
}

/** principals: JSON list of emails or of user ids; default: the requester. */
function parsePrincipals(server: ServerContext, user: User, raw: unknown): User[] {
  if (raw === undefined) return [user];
  if (!Array.isArray(raw) || raw.length === 0) throw badRequest("principals is not a list");
  return raw.map((p) => {
    const target = typeof p === "number" ? server.state.users.get(p) : typeof p === "string" ? server.state.userByEmail(p) : undefined;
    if (!target || !target.isActive) throw badRequest("No such user");
    return target;
  });
}

function systemGroups(server: ServerContext): SystemGroups {
  const id = (n: string) => systemGroupId(server.state, `role:${n}`);
  return {
    nobody: id("nobody"), owners: id("owners"), administrators: id("administrators"), moderators: id("moderators"),
    fullmembers: id("fullmembers"), members: id("members"), everyone: id("everyone"), internet: id("internet"),
  };
}

function pickColor(server: ServerContext, userId: number): string {
  const used = new Set([...(server.state.subscriptions.get(userId)?.values() ?? [])].map((s) => s.color));
  return SUBSCRIPTION_COLORS.find((c) => !used.has(c)) ?? SUBSCRIPTION_COLORS[userId % SUBSCRIPTION_COLORS.length]!;
}

function createChannel(ctx: RequestContext, wanted: Wanted): Channel {
  const { server, params, user } = ctx;
  const { state } = server;
  const inviteOnly = params.bool("invite_only") ?? false;
  const webPublic = params.bool("is_web_public") ?? false;
  if (!canCreateChannels(state, user, inviteOnly)) throw insufficientPermission();
  if (webPublic && !canCreateWebPublicChannels(state, user)) throw insufficientPermission();
  if (inviteOnly && webPublic) throw badRequest("Invalid parameters");
  const history = params.bool("history_public_to_subscribers");
  if (!inviteOnly && history === false) throw badRequest("Invalid parameters");
  const retentionText = params.str("message_retention_days");
  if (retentionText !== undefined && user.role !== ROLE.owner) throw badRequest("Must be an organization owner");
  const groups = defaultChannelGroups(user.id, systemGroups(server));
  for (const name of CHANNEL_GROUP_SETTINGS) {
    const raw = params.json(name);
    if (raw !== undefined) groups[name] = parseGroupSetting(state, raw, name);
  }
  const folderRaw = params.json("folder_id");
  if (folderRaw !== undefined && folderRaw !== null && !(typeof folderRaw === "number" && state.folders.has(folderRaw))) {
    throw badRequest("Invalid channel folder ID");
  }
  const policy = params.str("topics_policy") ?? "inherit";
  if (!["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"].includes(policy)) throw badRequest("Invalid topics_policy");
  const channel = state.addChannel({
    id: state.allocate("channel"),
    name: checkChannelName(server, wanted.name),
    description: checkDescription(wanted.description ?? ""),
    dateCreated: nowSeconds(server),
    creatorId: user.id,
    inviteOnly,
    isWebPublic: webPublic,
    historyPublicToSubscribers: inviteOnly ? (history ?? true) : true,
    messageRetentionDays: retentionText !== undefined ? parseRetention(retentionText) : null,
    isArchived: false,
    folderId: typeof folderRaw === "number" ? folderRaw : null,
    topicsPolicy: policy as Channel["topicsPolicy"],
    recipientId: state.allocate("recipient"),
    groups,
  });
  if (params.bool("is_default_stream") === true && !inviteOnly) state.defaultChannelIds.push(channel.id);
  return channel;
}

function subscribeHandler(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const { state } = server;
  const wanted = parseWanted(params.reqJson("subscriptions"));
  const principals = parsePrincipals(server, user, params.json("principals"));
  const fatal = params.bool("authorization_errors_fatal") ?? true;
  params.accept("announce", "invite_only", "is_web_public", "is_default_stream", "history_public_to_subscribers",
    "message_retention_days", "folder_id", "topics_policy", ...CHANNEL_GROUP_SETTINGS);
  const others = principals.some((p) => p.id !== user.id);

  const unauthorized: string[] = [];
  const targets: { channel: Channel; color?: string; created: boolean }[] = [];
  for (const w of wanted) {
    const existing = state.channelByName(w.name.trim());
    if (!existing) {
      targets.push({ channel: createChannel(ctx, w), color: w.color, created: true });
      continue;
    }
    let allowed: boolean;
    if (others) {
      allowed = (isAdmin(user) || isInGroupSetting(state, user, existing.groups.can_add_subscribers_group) ||
        (!existing.inviteOnly && user.role !== ROLE.guest)) && canSeeChannel(state, user, existing);
      if (existing.inviteOnly && !isAdmin(user) && !state.subscription(user.id, existing.id) &&
        !isInGroupSetting(state, user, existing.groups.can_add_subscribers_group)) allowed = false;
    } else if (existing.inviteOnly) {
      allowed = state.subscription(user.id, existing.id) !== undefined ||
        isInGroupSetting(state, user, existing.groups.can_subscribe_group) ||
        isInGroupSetting(state, user, existing.groups.can_add_subscribers_group);
    } else {
      allowed = user.role !== ROLE.guest || isInGroupSetting(state, user, existing.groups.can_subscribe_group) ||
        state.subscription(user.id, existing.id) !== undefined;
    }
    if (existing.isArchived) allowed = false;
    if (!allowed) {
      if (fatal) throw badRequest(`Unable to access channel (${existing.name}).`);
      unauthorized.push(existing.name);
      continue;
    }
    targets.push({ channel: existing, color: w.color, created: false });
  }

  const subscribed: Record<string, string[]> = {};
  const already: Record<string, string[]> = {};
  for (const { channel, color, created } of targets) {
    const before = created ? new Set<number>() : channelViewers(server, channel);
    const added: User[] = [];
    for (const p of principals) {
      if (state.subscription(p.id, channel.id)) {
        (already[String(p.id)] ??= []).push(channel.name);
        continue;
      }
      const old = state.subscriptions.get(p.id)?.get(channel.id);
      if (old) old.active = true;
      else subscribe(state, p.id, channel.id, color ?? pickColor(server, p.id));
      (subscribed[String(p.id)] ??= []).push(channel.name);
      added.push(p);
    }
    if (created) sendChannelCreate(server, channel, channelViewers(server, channel));
    else {
      const after = channelViewers(server, channel);
      sendChannelCreate(server, channel, [...after].filter((id) => !before.has(id)));
    }
    for (const p of added) {
      const sub = state.subscription(p.id, channel.id)!;
      sendToUsers(server, [p.id], "subscription", {
        type: "subscription",
        op: "add",
        subscriptions: [subscriptionToWire(server, channel, sub, state.subscriberIds(channel.id))],
      });
    }
    sendPeerEvent(server, channel, "peer_add", added.map((p) => p.id));
  }
  const out: Record<string, unknown> = { subscribed, already_subscribed: already };
  if (!fatal || unauthorized.length > 0) out["unauthorized"] = unauthorized;
  return out;
}

function unsubscribeHandler(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const { state } = server;
  const names = params.reqJson("subscriptions");
  if (!Array.isArray(names) || !names.every((n) => typeof n === "string")) throw badRequest("subscriptions is not a list of strings");
  const principals = parsePrincipals(server, user, params.json("principals"));
  const channels = (names as string[]).map((name) => {
    const channel = state.channelByName(name);
    if (!channel || !canSeeChannel(state, user, channel)) throw channelNameNotFound(name.trim());
    return channel;
  });
  for (const channel of channels) {
    if (principals.every((p) => p.id === user.id)) continue;
    const mayRemove = isAdmin(user) || isInGroupSetting(state, user, channel.groups.can_remove_subscribers_group);
    if (!mayRemove) throw insufficientPermission();
  }
  const removed: string[] = [];
  const notRemoved: string[] = [];
  for (const channel of channels) {
    const before = channelViewers(server, channel);
    const gone: number[] = [];
    for (const p of principals) {
      const sub = state.subscription(p.id, channel.id);
      if (!sub) {
        notRemoved.push(channel.name);
        continue;
      }
      sub.active = false;
      gone.push(p.id);
      removed.push(channel.name);
      sendToUsers(server, [p.id], "subscription", {
        type: "subscription",
        op: "remove",
        subscriptions: [{ stream_id: channel.id, name: channel.name }],
      });
    }
    sendPeerEvent(server, channel, "peer_remove", gone);
    // Peer events to those who lose sight of the channel would be moot; they get stream delete.
    const after = channelViewers(server, channel);
    sendChannelDelete(server, channel, [...before].filter((id) => !after.has(id)));
  }
  return { removed, not_removed: notRemoved };
}

export const subscribeRoutes: Route[] = [
  { method: "POST", path: "/users/me/subscriptions", handler: subscribeHandler },
  { method: "DELETE", path: "/users/me/subscriptions", handler: unsubscribeHandler },
];
