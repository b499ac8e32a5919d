// PATCH /streams/{stream_id}: update a channel (and GET /streams/{stream_id},
// GET /get_stream_id).
// Validation happens first for every parameter; then the changes are applied
// and each emits its `stream` update event, plus create/delete events for
// users who gain or lose sight of the channel.

import {
  announceVisibilityChange,
  channelViewers,
  sendChannelCreate,
  sendChannelDelete,
  sendChannelUpdate,
} from "../channel-events.js";
import { LIMITS, type ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import {
  activeUserIds,
  canAdministerChannel,
  canCreateWebPublicChannels,
  canSeeChannel,
  isSubscribed,
  parseGroupSettingUpdate,
  requireOwner,
  systemGroupId,
} from "../permissions.js";
import { CHANNEL_GROUP_SETTINGS, ROLE, type Channel, type ChannelGroupSettingName, type GroupSetting, type TopicsPolicy, type User } from "../state.js";
import { channelToWire } from "../wire.js";

const TOPICS_POLICIES: TopicsPolicy[] = ["inherit", "allow_empty_topic", "disable_empty_topic", "empty_topic_only"];
/** Settings whose change needs content access to a private channel (the others need metadata access). */
const CONTENT_ACCESS_SETTINGS = new Set<string>(["can_add_subscribers_group", "can_subscribe_group"]);

export function invalidChannelId(): ReturnType<typeof badRequest> {
  return badRequest("Invalid channel ID");
}

/** A channel by path id that the user may know about, or "Invalid channel ID". */
export function channelFromPath(server: ServerContext, user: User, raw: string | undefined): Channel {
  const id = /^\d+$/.test(raw ?? "") ? Number(raw) : NaN;
  const channel = server.state.channels.get(id);
  if (!channel || !canSeeChannel(server.state, user, channel)) throw invalidChannelId();
  return channel;
}

/** Validates a channel name (new or renamed); returns it trimmed. */
export function checkChannelName(server: ServerContext, raw: string, self?: Channel): string {
  const name = raw.trim();
  if (name === "") throw badRequest("Channel name can't be empty.");
  if ([...name].length > LIMITS.maxStreamNameLength) {
    throw badRequest(`Channel name too long (limit: ${LIMITS.maxStreamNameLength} characters).`);
  }
  const bad = [...name].findIndex((ch) => /[\u0000-\u001f\u007f-\u009f]/.test(ch));
  if (bad >= 0) throw badRequest(`Invalid character in channel name, at position ${bad + 1}.`);
  const other = server.state.channelByName(name);
  if (other && other !== self) throw badRequest(`Channel '${other.name}' already exists`);
  return name;
}

export function checkDescription(raw: string): string {
  const text = raw.replace(/\r?\n/g, " ");
  if ([...text].length > LIMITS.maxStreamDescriptionLength) {
    throw badRequest(`description is too long (limit: ${LIMITS.maxStreamDescriptionLength} characters)`);
  }
  return text;
}

/** `realm_default` → null, `unlimited` → -1, or a positive number of days. */
export function parseRetention(raw: string): number | null {
  const text = raw.trim().replace(/^"(.*)"$/, "$1");
  if (text === "realm_default") return null;
  if (text === "unlimited") return -1;
  if (/^\d+$/.test(text) && Number(text) >= 1) return Number(text);
  throw badRequest(`Bad value for 'message_retention_days': ${text}`);
}

interface Changes {
  description?: string;
  name?: string;
  privacy?: { inviteOnly: boolean; webPublic: boolean; history: boolean };
  isDefault?: boolean;
  retention?: number | null;
  unarchive?: boolean;
  folderId?: number | null;
  topicsPolicy?: TopicsPolicy;
  groups: [ChannelGroupSettingName, GroupSetting][];
}

function validate(ctx: RequestContext, channel: Channel): Changes {
  const { server, params, user } = ctx;
  const { state } = server;
  const changes: Changes = { groups: [] };
  const isArchived = params.bool("is_archived");
  if (isArchived === true && !channel.isArchived) {
    throw badRequest("Channels are archived with DELETE /streams/{stream_id}, not by this endpoint.");
  }
  if (isArchived === false && channel.isArchived) changes.unarchive = true;

  const description = params.str("description");
  if (description !== undefined) changes.description = checkDescription(description);
  const newName = params.str("new_name");
  if (newName !== undefined) {
    const name = checkChannelName(server, newName, channel);
    if (name !== channel.name) changes.name = name;
  }

  const isPrivate = params.bool("is_private");
  const isWebPublic = params.bool("is_web_public");
  const history = params.bool("history_public_to_subscribers");
  if (isPrivate !== undefined || isWebPublic !== undefined || history !== undefined) {
    if (channel.inviteOnly && !isSubscribed(state, user, channel)) throw badRequest("Invalid channel ID");
    if (isPrivate === true && isWebPublic === true) throw badRequest("Invalid parameters");
    if (isWebPublic === true) {
      if (!canCreateWebPublicChannels(state, user)) throw badRequest("Insufficient permission");
    }
    let webPublic = isWebPublic ?? (isPrivate === true ? false : channel.isWebPublic);
    const inviteOnly = isWebPublic === true ? false : (isPrivate ?? (webPublic ? false : channel.inviteOnly));
    if (inviteOnly) webPublic = false;
    let hist: boolean;
    if (!inviteOnly) {
      if (history === false) throw badRequest("Invalid parameters");
      hist = true;
    } else {
      hist = history ?? (isPrivate === true && !channel.inviteOnly ? true : channel.historyPublicToSubscribers);
      if (!hist && channel.groups.can_create_topic_group !== systemGroupId(state, "role:everyone")) {
        throw badRequest("Channel history can only be protected when everyone may create topics in it.");
      }
    }
    changes.privacy = { inviteOnly, webPublic, history: hist };
  }

  const isDefault = params.bool("is_default_stream");
  if (isDefault !== undefined) {
    const inviteOnly = changes.privacy?.inviteOnly ?? channel.inviteOnly;
    if (isDefault && inviteOnly) throw badRequest("Private channels cannot be made default.");
    changes.isDefault = isDefault;
  }

  const retention = params.str("message_retention_days");
  if (retention !== undefined) {
    requireOwner(user);
    changes.retention = parseRetention(retention);
  }

  if (params.has("folder_id")) {
    const raw = params.json("folder_id");
    if (raw === null) changes.folderId = null;
    else if (typeof raw === "number" && state.folders.has(raw)) changes.folderId = raw;
    else throw badRequest("Invalid channel folder ID");
  }

  const topicsPolicy = params.str("topics_policy");
  if (topicsPolicy !== undefined) {
    const policy = topicsPolicy.trim().replace(/^"(.*)"$/, "$1") as TopicsPolicy;
    if (!TOPICS_POLICIES.includes(policy)) throw badRequest("Invalid topics_policy");
    if (policy === "empty_topic_only" && state.messages.some((m) => m.channelId === channel.id && m.topic !== "")) {
      throw badRequest("To enable this configuration, all messages in this channel must be in the empty topic.");
    }
    changes.topicsPolicy = policy;
  }

  for (const name of CHANNEL_GROUP_SETTINGS) {
    const raw = params.json(name);
    if (raw === undefined) continue;
    if (channel.inviteOnly && CONTENT_ACCESS_SETTINGS.has(name) && !isSubscribed(state, user, channel)) {
      throw badRequest("Invalid channel ID");
    }
    const value = parseGroupSettingUpdate(state, raw, name, channel.groups[name]);
    changes.groups.push([name, value]);
  }
  return changes;
}

function apply(server: ServerContext, channel: Channel, changes: Changes): void {
  const { state } = server;
  if (changes.unarchive) {
    const before = channelViewers(server, channel);
    channel.isArchived = false;
    sendChannelUpdate(server, channel, "is_archived", false);
    // Clients without archived_channels support learn about the channel anew.
    sendToUsers(server, before, "stream", (queue) =>
      queue.capability("archived_channels") ? null : { type: "stream", op: "create", streams: [channelToWire(server, channel)] },
    );
  }
  if (changes.name !== undefined) {
    const old = channel.name;
    channel.name = changes.name;
    sendChannelUpdate(server, channel, "name", changes.name, {}, old);
  }
  if (changes.description !== undefined && changes.description !== channel.description) {
    channel.description = changes.description;
    sendChannelUpdate(server, channel, "description", changes.description, {
      rendered_description: server.markdown.render(changes.description),
    });
  }
  if (changes.privacy) {
    const { inviteOnly, webPublic, history } = changes.privacy;
    const before = channelViewers(server, channel);
    const was = { inviteOnly: channel.inviteOnly, webPublic: channel.isWebPublic, history: channel.historyPublicToSubscribers };
    channel.inviteOnly = inviteOnly;
    channel.isWebPublic = webPublic;
    channel.historyPublicToSubscribers = history;
    if (inviteOnly) {
      const idx = state.defaultChannelIds.indexOf(channel.id);
      if (idx >= 0) state.defaultChannelIds.splice(idx, 1);
    }
    const extra = { history_public_to_subscribers: history, is_web_public: webPublic };
    // Tell everyone who could see it before or can see it now; then create/delete for the difference.
    const after = channelViewers(server, channel);
    const both = [...before].filter((id) => after.has(id));
    const events: [string, unknown, Record<string, unknown>][] = [];
    if (was.inviteOnly !== inviteOnly) events.push(["invite_only", inviteOnly, extra]);
    if (was.history !== history) events.push(["history_public_to_subscribers", history, {}]);
    if (was.webPublic !== webPublic) events.push(["is_web_public", webPublic, {}]);
    for (const [property, value, more] of events) {
      sendToUsers(server, both, "stream", { type: "stream", op: "update", stream_id: channel.id, name: channel.name, property, value, ...more });
    }
    sendChannelCreate(server, channel, [...after].filter((id) => !before.has(id)));
    sendChannelDelete(server, channel, [...before].filter((id) => !after.has(id)));
  }
  if (changes.isDefault !== undefined) {
    const idx = state.defaultChannelIds.indexOf(channel.id);
    const changed = changes.isDefault ? idx < 0 : idx >= 0;
    if (changes.isDefault && idx < 0) state.defaultChannelIds.push(channel.id);
    if (!changes.isDefault && idx >= 0) state.defaultChannelIds.splice(idx, 1);
    if (changed) {
      const ids = activeUserIds(server, (u) => u.role !== ROLE.guest);
      sendToUsers(server, ids, "default_streams", { type: "default_streams", default_streams: [...state.defaultChannelIds] });
    }
  }
  if (changes.retention !== undefined && changes.retention !== channel.messageRetentionDays) {
    channel.messageRetentionDays = changes.retention;
    sendChannelUpdate(server, channel, "message_retention_days", changes.retention);
  }
  if (changes.folderId !== undefined && changes.folderId !== channel.folderId) {
    channel.folderId = changes.folderId;
    sendChannelUpdate(server, channel, "folder_id", changes.folderId);
  }
  if (changes.topicsPolicy !== undefined && changes.topicsPolicy !== channel.topicsPolicy) {
    channel.topicsPolicy = changes.topicsPolicy;
    sendChannelUpdate(server, channel, "topics_policy", changes.topicsPolicy);
  }
  for (const [name, value] of changes.groups) {
    const before = channelViewers(server, channel);
    channel.groups[name] = value;
    sendChannelUpdate(server, channel, name, value);
    announceVisibilityChange(server, channel, before);
  }
}

function updateChannel(ctx: RequestContext): Record<string, unknown> {
  const { server, path, user } = ctx;
  const channel = channelFromPath(server, user, path["stream_id"]);
  if (!canAdministerChannel(server.state, user, channel)) {
    throw badRequest("You do not have permission to administer this channel.");
  }
  if (channel.isArchived) {
    // Only unarchiving is accepted for an archived channel.
    const unarchive = ctx.params.bool("is_archived") === false;
    const others = ctx.params.unsupported().filter((n) => n !== "is_archived");
    if (!unarchive || others.length > 0) throw badRequest("You cannot modify an archived channel; unarchive it first.");
  }
  const changes = validate(ctx, channel);
  apply(server, channel, changes);
  return {};
}

export const channelRoutes: Route[] = [
  { method: "PATCH", path: "/streams/:stream_id", handler: updateChannel },
  {
    method: "GET",
    path: "/streams/:stream_id",
    handler({ server, path, user }) {
      return { stream: channelToWire(server, channelFromPath(server, user, path["stream_id"])) };
    },
  },
  {
    // The ID of a channel by name (the client's `getChannelId`); unknown or
    // invisible names give the service's "Invalid channel name" error.
    method: "GET",
    path: "/get_stream_id",
    handler({ server, params, user }) {
      const name = params.reqStr("stream");
      const wanted = name.trim().toLowerCase();
      const channel = [...server.state.channels.values()].find((c) => c.name.toLowerCase() === wanted);
      if (!channel || !canSeeChannel(server.state, user, channel)) throw badRequest(`Invalid channel name '${name}'`);
      return { stream_id: channel.id };
    },
  },
];
