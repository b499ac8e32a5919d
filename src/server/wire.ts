// Converts entities to the JSON objects of the API (users, channels,
// subscriptions, messages), applying per-client choices: client_gravatar,
// apply_markdown and support for the empty topic name.

import { createHash } from "node:crypto";
import type { ServerContext } from "./context.js";
import { channelMessageStats } from "./message-index.js";
import { submessagesOf, submessageToWire } from "./submessages.js";
import { CHANNEL_GROUP_SETTINGS, ROLE, type Channel, type Message, type Subscription, type User, type UserGroup } from "./state.js";

export interface MessageView {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

export function avatarUrl(user: User, clientGravatar: boolean): string | null {
  if (clientGravatar) return null; // every account uses the gravatar source and shows its real email
  const hash = createHash("md5").update(user.email.toLowerCase()).digest("hex");
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatarVersion}`;
}

/** The topic as a client sees it: "" becomes the display name unless the client supports it. */
export function clientTopic(ctx: ServerContext, topic: string, allowEmpty: boolean): string {
  return topic === "" && !allowEmpty ? ctx.state.realm.emptyTopicDisplayName : topic;
}

/** A topic parameter from a client: the display name (or legacy "(no topic)") means "". */
export function serverTopic(ctx: ServerContext, topic: string): string {
  const t = topic.trim();
  return t === ctx.state.realm.emptyTopicDisplayName || t === "(no topic)" ? "" : t;
}

export function userToWire(user: User, clientGravatar: boolean, includeProfileData = true): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user_id: user.id,
    delivery_email: user.email,
    email: user.email,
    full_name: user.fullName,
    date_joined: user.dateJoined,
    is_active: user.isActive,
    is_owner: user.role === ROLE.owner,
    is_admin: user.role <= ROLE.admin,
    is_guest: user.role === ROLE.guest,
    is_bot: user.isBot,
    bot_type: user.botType,
    bot_owner_id: user.botOwnerId,
    role: user.role,
    timezone: user.timezone,
    avatar_url: avatarUrl(user, clientGravatar),
    avatar_version: user.avatarVersion,
    is_imported_stub: false,
  };
  if (includeProfileData && !user.isBot) out["profile_data"] = {};
  return out;
}

export function channelToWire(ctx: ServerContext, channel: Channel): Record<string, unknown> {
  const { state } = ctx;
  const stats = channelMessageStats(state, ctx.now() / 1000 - 7 * 86400).get(channel.id);
  const first = stats ? { id: stats.firstId } : undefined;
  const lastWeek = stats?.lastWeek ?? 0;
  const out: Record<string, unknown> = {
    stream_id: channel.id,
    name: channel.name,
    description: channel.description,
    rendered_description: ctx.markdown.render(channel.description),
    date_created: channel.dateCreated,
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: channel.isWebPublic,
    is_announcement_only: false,
    stream_post_policy: 1,
    message_retention_days: channel.messageRetentionDays,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    first_message_id: first?.id ?? null,
    folder_id: channel.folderId,
    topics_policy: channel.topicsPolicy,
    is_archived: channel.isArchived,
    is_recently_active: lastWeek > 0,
    stream_weekly_traffic: lastWeek,
    subscriber_count: state.subscriberCount(channel.id),
  };
  for (const name of CHANNEL_GROUP_SETTINGS) out[name] = channel.groups[name];
  return out;
}

export function subscriptionToWire(
  ctx: ServerContext,
  channel: Channel,
  sub: Subscription,
  subscribers: number[] | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...channelToWire(ctx, channel),
    color: sub.color,
    pin_to_top: sub.pinToTop,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    desktop_notifications: sub.desktopNotifications,
    email_notifications: sub.emailNotifications,
    push_notifications: sub.pushNotifications,
    audible_notifications: sub.audibleNotifications,
    wildcard_mentions_notify: sub.wildcardMentionsNotify,
  };
  if (subscribers) out["subscribers"] = subscribers;
  return out;
}

export function messageToWire(
  ctx: ServerContext,
  message: Message,
  view: MessageView,
): Record<string, unknown> {
  const { state } = ctx;
  const sender = state.users.get(message.senderId);
  const content = view.applyMarkdown ? ctx.markdown.render(message.content) : message.content;
  const out: Record<string, unknown> = {
    id: message.id,
    sender_id: message.senderId,
    sender_full_name: sender?.fullName ?? "Unknown user",
    sender_email: sender?.email ?? "",
    sender_realm_str: state.realm.stringId,
    avatar_url: sender ? avatarUrl(sender, view.clientGravatar) : null,
    client: message.client,
    content,
    content_type: view.applyMarkdown ? "text/html" : "text/x-markdown",
    recipient_id: message.recipientId,
    subject: message.type === "stream" ? clientTopic(ctx, message.topic, view.allowEmptyTopicName) : "",
    topic_links: [],
    timestamp: message.timestamp,
    type: message.type,
    is_me_message: /^\/me\s/.test(message.content),
    reactions: message.reactions.map((r) => ({
      emoji_name: r.emojiName,
      emoji_code: r.emojiCode,
      reaction_type: r.reactionType,
      user_id: r.userId,
    })),
    submessages: submessagesOf(state, message.id).map(submessageToWire),
  };
  if (message.type === "stream" && message.channelId !== null) {
    out["stream_id"] = message.channelId;
    out["display_recipient"] = state.channels.get(message.channelId)?.name ?? "";
  } else {
    out["display_recipient"] = message.dmUserIds.map((id) => {
      const u = state.users.get(id);
      return { id, email: u?.email ?? "", full_name: u?.fullName ?? "", is_mirror_dummy: false };
    });
  }
  if (message.editHistory) {
    out["edit_history"] = message.editHistory.map((e) => {
      const entry = { ...e };
      if (!view.allowEmptyTopicName) {
        if (entry.topic !== undefined) entry.topic = clientTopic(ctx, entry.topic, false);
        if (entry.prev_topic !== undefined) entry.prev_topic = clientTopic(ctx, entry.prev_topic, false);
      }
      return entry;
    });
  }
  if (message.lastEditTimestamp !== undefined) out["last_edit_timestamp"] = message.lastEditTimestamp;
  if (message.lastMovedTimestamp !== undefined) out["last_moved_timestamp"] = message.lastMovedTimestamp;
  return out;
}

/** A user group as the API shows it (register, GET /user_groups, user_group events). */
export function groupToWire(g: UserGroup): Record<string, unknown> {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    members: [...g.members],
    direct_subgroup_ids: [...g.subgroups],
    is_system_group: g.isSystem,
    date_created: g.dateCreated,
    creator_id: g.creatorId,
    deactivated: g.deactivated,
    ...structuredClone(g.settings),
  };
}
