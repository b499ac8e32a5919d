// The state sections of the register response. Each section is computed only
// when its event type is among fetch_event_types (null: all of them).

import { maxUploadMib } from "./uploads.js";
import { LIMITS, type ServerContext } from "./context.js";
import { legacySections } from "./initial-state-legacy.js";
import { MAX_REMINDER_NOTE_LENGTH } from "./reminder-content.js";
import { navigationViewToWire } from "./personal-records.js";
import { reminderToWire, scheduledToWire } from "./scheduled-wire.js";
import { ROLE, type Channel, type User } from "./state.js";
import { recentConversations, unreadMsgs, userHistory, type UserHistory } from "./user-history.js";
import { avatarUrl, channelToWire, clientTopic, groupToWire, subscriptionToWire, userToWire } from "./wire.js";

export interface RegisterView {
  user: User;
  fetchTypes: Set<string> | null;
  clientGravatar: boolean;
  includeSubscribers: "true" | "false" | "partial";
  slimPresence: boolean;
  capabilities: Record<string, boolean>;
}

type Section = Record<string, unknown>;

export function buildInitialState(ctx: ServerContext, view: RegisterView): Section {
  const want = (...types: string[]) => view.fetchTypes === null || types.some((t) => view.fetchTypes!.has(t));
  const out: Section = {};
  if (want("realm")) Object.assign(out, realmSection(ctx));
  if (want("realm_user")) Object.assign(out, realmUserSection(ctx, view));
  if (want("subscription")) Object.assign(out, subscriptionSection(ctx, view));
  if (want("stream")) out["streams"] = visibleChannels(ctx, view).map((c) => channelToWire(ctx, c));
  if (want("channel_folder", "channel_folders")) out["channel_folders"] = channelFolders(ctx, view);
  // The sections drawn from the user's own messages share one pass over them.
  let history: UserHistory | undefined;
  const mine = () => (history ??= userHistory(ctx, view.user));
  if (want("message")) out["max_message_id"] = mine().maxId;
  if (view.fetchTypes === null || (view.fetchTypes.has("message") && view.fetchTypes.has("update_message_flags"))) {
    out["unread_msgs"] = unreadMsgs(ctx, view.user, mine(), view.capabilities["empty_topic_name"] === true);
  }
  if (want("starred_messages")) out["starred_messages"] = mine().starred;
  if (want("recent_private_conversations")) out["recent_private_conversations"] = recentConversations(mine());
  if (want("presence")) Object.assign(out, presenceSection(ctx, view));
  if (want("realm_user_groups")) out["realm_user_groups"] = userGroups(ctx, view);
  if (want("user_topic")) out["user_topics"] = userTopics(ctx, view);
  if (want("user_settings")) out["user_settings"] = { ...(ctx.state.userSettings.get(view.user.id) ?? {}) };
  if (want("user_status")) out["user_status"] = userStatus(ctx);
  if (want("realm_emoji")) out["realm_emoji"] = realmEmoji(ctx);
  if (want("realm_linkifiers")) out["realm_linkifiers"] = view.capabilities["linkifier_url_template"] ? ctx.state.linkifiers : [];
  if (want("drafts")) out["drafts"] = (ctx.state.drafts.get(view.user.id) ?? []).map((d) => ({ ...d }));
  if (want("saved_snippets")) {
    out["saved_snippets"] = (ctx.state.savedSnippets.get(view.user.id) ?? []).map((s) => ({
      id: s.id, title: s.title, content: s.content, date_created: s.dateCreated,
    }));
  }
  if (want("navigation_views", "navigation_view")) {
    out["navigation_views"] = (ctx.state.navigationViews.get(view.user.id) ?? []).map(navigationViewToWire);
  }
  if (want("muted_users")) out["muted_users"] = [];
  if (want("alert_words")) out["alert_words"] = [...(ctx.state.alertWords.get(view.user.id) ?? [])];
  if (want("custom_profile_fields")) Object.assign(out, { custom_profile_fields: [], custom_profile_field_types: {} });
  if (want("default_streams")) out["realm_default_streams"] = [...ctx.state.defaultChannelIds];
  if (want("realm_bot")) out["realm_bots"] = realmBots(ctx, view.user);
  if (want("scheduled_messages")) {
    const allowEmpty = view.capabilities["empty_topic_name"] === true;
    out["scheduled_messages"] = ctx.state.scheduled.of(view.user.id, "send_later").map((s) => scheduledToWire(ctx, s, allowEmpty));
  }
  if (want("reminders")) out["reminders"] = ctx.state.scheduled.of(view.user.id, "remind").map((s) => reminderToWire(ctx, s));
  Object.assign(out, legacySections(ctx, view.user.id, view.fetchTypes));
  return out;
}

function realmSection(ctx: ServerContext): Section {
  const realm = ctx.state.realm;
  return {
    realm_name: realm.name,
    realm_description: ctx.markdown.render(realm.description),
    realm_url: ctx.realmUrl,
    realm_uri: ctx.realmUrl,
    realm_date_created: realm.dateCreated,
    realm_empty_topic_display_name: realm.emptyTopicDisplayName,
    realm_mandatory_topics: false,
    realm_topics_policy: "allow_empty_topic",
    realm_allow_message_editing: true,
    realm_message_content_edit_limit_seconds: 600,
    realm_message_content_delete_limit_seconds: null,
    realm_enable_read_receipts: realm.enableReadReceipts,
    realm_presence_disabled: false,
    realm_enable_spectator_access: realm.enableSpectatorAccess,
    realm_default_code_block_language: "",
    realm_waiting_period_threshold: 0,
    realm_bot_domain: realm.emailDomain,
    realm_icon_url: "",
    realm_icon_source: "G",
    realm_can_access_all_users_group: 7,
    realm_can_create_public_channel_group: 6,
    realm_can_create_private_channel_group: 6,
    realm_can_create_web_public_channel_group: 2,
    realm_can_resolve_topics_group: 6,
    realm_can_move_messages_between_topics_group: 6,
    realm_can_add_subscribers_group: 6,
    realm_direct_message_permission_group: 7,
    realm_direct_message_initiator_group: 7,
    realm_message_retention_days: -1,
    realm_org_type: 10,
    realm_plan_type: 1,
    server_web_public_streams_enabled: true,
    server_thumbnail_formats: ctx.options.thumbnailFormats.map((f) => ({ ...f })),
    development_environment: false,
    max_stream_name_length: LIMITS.maxStreamNameLength,
    max_stream_description_length: LIMITS.maxStreamDescriptionLength,
    max_topic_length: LIMITS.maxTopicLength,
    max_message_length: LIMITS.maxMessageLength,
    max_channel_folder_name_length: LIMITS.maxChannelFolderNameLength,
    max_channel_folder_description_length: LIMITS.maxChannelFolderDescriptionLength,
    max_reminder_note_length: MAX_REMINDER_NOTE_LENGTH,
    max_file_upload_size_mib: maxUploadMib(ctx.state),
    event_queue_longpoll_timeout_seconds: ctx.options.longpollTimeoutSecs,
  };
}

function realmUserSection(ctx: ServerContext, view: RegisterView): Section {
  const users = [...ctx.state.users.values()];
  const me = view.user;
  return {
    realm_users: users.filter((u) => u.isActive).map((u) => userToWire(u, view.clientGravatar)),
    realm_non_active_users: users.filter((u) => !u.isActive).map((u) => userToWire(u, view.clientGravatar)),
    cross_realm_bots: [],
    user_id: me.id,
    email: me.email,
    delivery_email: me.email,
    full_name: me.fullName,
    is_owner: me.role === ROLE.owner,
    is_admin: me.role <= ROLE.admin,
    is_moderator: me.role <= ROLE.moderator,
    is_guest: me.role === ROLE.guest,
    avatar_source: "G",
    avatar_url: avatarUrl(me, false),
    avatar_url_medium: avatarUrl(me, false),
    can_create_streams: me.role !== ROLE.guest,
    can_create_public_streams: me.role !== ROLE.guest,
    can_create_private_streams: me.role !== ROLE.guest,
    can_create_web_public_streams: me.role <= ROLE.admin,
    can_subscribe_other_users: me.role !== ROLE.guest,
    can_invite_others_to_realm: me.role <= ROLE.admin,
  };
}

/** Channels the user can know about (archived ones only for clients that support them). */
function visibleChannels(ctx: ServerContext, view: RegisterView): Channel[] {
  const { state } = ctx;
  return [...state.channels.values()].filter((c) => {
    if (c.isArchived && !view.capabilities["archived_channels"]) return false;
    return state.canAccessChannel(view.user, c) || (c.inviteOnly && view.user.role <= ROLE.admin);
  });
}

function subscriptionSection(ctx: ServerContext, view: RegisterView): Section {
  const { state } = ctx;
  const me = view.user;
  const withSubscribers = view.includeSubscribers !== "false";
  const subscribersOf = (c: Channel): number[] | undefined => {
    if (!withSubscribers) return undefined;
    const known = state.subscription(me.id, c.id) !== undefined || !c.inviteOnly;
    return known ? state.subscriberIds(c.id) : [];
  };
  const subscriptions: Section[] = [];
  const unsubscribed: Section[] = [];
  const neverSubscribed: Section[] = [];
  for (const channel of visibleChannels(ctx, view)) {
    const sub = state.subscriptions.get(me.id)?.get(channel.id);
    if (sub?.active) subscriptions.push(subscriptionToWire(ctx, channel, sub, subscribersOf(channel)));
    else {
      const wire = channelToWire(ctx, channel);
      const subscribers = subscribersOf(channel);
      if (subscribers) wire["subscribers"] = subscribers;
      (sub ? unsubscribed : neverSubscribed).push(sub ? { ...subscriptionToWire(ctx, channel, sub, subscribers) } : wire);
    }
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

function channelFolders(ctx: ServerContext, view: RegisterView): Section[] {
  return [...ctx.state.folders.values()]
    .filter((f) => !f.isArchived || view.capabilities["archived_channels"])
    .sort((a, b) => a.order - b.order || a.id - b.id)
    .map((f) => ({
      id: f.id,
      name: f.name,
      description: f.description,
      rendered_description: ctx.markdown.render(f.description),
      order: f.order,
      date_created: f.dateCreated,
      creator_id: f.creatorId,
      is_archived: f.isArchived,
    }));
}

function presenceSection(ctx: ServerContext, view: RegisterView): Section {
  const { state } = ctx;
  const nowSecs = ctx.now() / 1000;
  const presences: Record<string, unknown> = {};
  for (const [userId, p] of state.presence) {
    const user = state.users.get(userId);
    if (!user?.isActive) continue;
    if (state.userSettings.get(userId)?.["presence_enabled"] === false) continue;
    if (view.slimPresence) {
      presences[String(userId)] = { ...p };
    } else {
      const active = nowSecs - p.active_timestamp < 140;
      const status = active ? "active" : "idle";
      const timestamp = Math.max(p.active_timestamp, p.idle_timestamp);
      const record = { client: "website", status, timestamp, pushable: false };
      presences[user.email] = { aggregated: { client: "website", status, timestamp }, website: record };
    }
  }
  return { presences, presence_last_update_id: state.presenceLastUpdateId, server_timestamp: nowSecs };
}

function userGroups(ctx: ServerContext, view: RegisterView): Section[] {
  return [...ctx.state.groups.values()]
    .filter((g) => !g.deactivated || view.capabilities["include_deactivated_groups"])
    .map(groupToWire);
}

function userTopics(ctx: ServerContext, view: RegisterView): Section[] {
  const allowEmpty = view.capabilities["empty_topic_name"] === true;
  return ctx.state.userTopics
    .filter((t) => t.userId === view.user.id)
    .map((t) => ({
      stream_id: t.channelId,
      topic_name: clientTopic(ctx, t.topic, allowEmpty),
      last_updated: t.lastUpdated,
      visibility_policy: t.visibilityPolicy,
    }));
}

function userStatus(ctx: ServerContext): Section {
  const out: Section = {};
  for (const [userId, status] of ctx.state.userStatus) out[String(userId)] = { ...status };
  return out;
}

function realmEmoji(ctx: ServerContext): Section {
  const out: Section = {};
  for (const e of ctx.state.realmEmoji.values()) {
    out[e.id] = { id: e.id, name: e.name, source_url: e.sourceUrl, still_url: null, deactivated: e.deactivated, author_id: e.authorId };
  }
  return out;
}

function realmBots(ctx: ServerContext, user: User): Section[] {
  return [...ctx.state.users.values()]
    .filter((u) => u.isBot && (user.role <= ROLE.admin || u.botOwnerId === user.id))
    .map((u) => ({
      user_id: u.id,
      full_name: u.fullName,
      api_key: u.apiKey,
      avatar_url: avatarUrl(u, false),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      owner_id: u.botOwnerId,
      bot_type: u.botType,
      is_active: u.isActive,
      services: [],
      email: u.email,
    }));
}
