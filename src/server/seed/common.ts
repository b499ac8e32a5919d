// Building blocks shared by the data sets: users with derived API keys, the
// system user groups, default channel permissions and user settings.

import {
  ROLE,
  type Channel,
  type ChannelGroupSettingName,
  type GroupSetting,
  type RoleNumber,
  type State,
  type Subscription,
  type User,
} from "../state.js";
import type { DemoAccount } from "../types.js";
import { deriveApiKey } from "./prng.js";

export const DEMO_PASSWORD = "termchat-demo";
const KEY_SALT = "termchat-reference-server/v1";

export const SUBSCRIPTION_COLORS = [
  "#76ce90", "#fae589", "#a6c7e5", "#e79ab5", "#bfd56f", "#f4ae55", "#b0a5fd", "#addfe5",
  "#f5ce6e", "#c2726a", "#94c849", "#bd86e5", "#ee7e4a", "#a6dcbf", "#95a5fd", "#53a063",
] as const;

export interface UserSpec {
  email: string;
  fullName: string;
  role: RoleNumber;
  timezone: string;
  dateJoined: string;
  bot?: { type: number; ownerId: number | null };
  active?: boolean;
}

export function addUser(state: State, spec: UserSpec): User {
  return state.addUser({
    id: state.allocate("user"),
    email: spec.email,
    fullName: spec.fullName,
    role: spec.role,
    isBot: spec.bot !== undefined,
    botType: spec.bot?.type ?? null,
    botOwnerId: spec.bot?.ownerId ?? null,
    isActive: spec.active ?? true,
    dateJoined: spec.dateJoined,
    timezone: spec.timezone,
    avatarVersion: 1,
    apiKey: deriveApiKey(KEY_SALT, spec.email),
    password: DEMO_PASSWORD,
  });
}

export function accountOf(user: User): DemoAccount {
  const role = user.isBot
    ? "bot"
    : ({ [ROLE.owner]: "owner", [ROLE.admin]: "admin", [ROLE.moderator]: "moderator", [ROLE.member]: "member", [ROLE.guest]: "guest" } as const)[user.role];
  return { email: user.email, apiKey: user.apiKey, password: user.password, fullName: user.fullName, role, userId: user.id };
}

export interface SystemGroups {
  nobody: number;
  owners: number;
  administrators: number;
  moderators: number;
  fullmembers: number;
  members: number;
  everyone: number;
  internet: number;
}

/** Creates the role:* groups; each role group contains the next stronger one as a subgroup. */
export function createSystemGroups(state: State, dateCreated: number): SystemGroups {
  const byRole = (roles: number[]) =>
    [...state.users.values()].filter((u) => roles.includes(u.role) && !u.isBot).map((u) => u.id);
  const bots = [...state.users.values()].filter((u) => u.isBot).map((u) => u.id);
  const make = (name: string, description: string, members: number[], subgroups: number[]) => {
    const id = state.allocate("group");
    state.groups.set(id, {
      id, name, description, members, subgroups, isSystem: true, dateCreated, creatorId: null, deactivated: false,
      settings: { can_add_members_group: 1, can_join_group: 1, can_leave_group: 1, can_manage_group: 1, can_mention_group: 1, can_remove_members_group: 1 },
    });
    return id;
  };
  const nobody = make("role:nobody", "Nobody", [], []);
  const owners = make("role:owners", "Owners of this organization", byRole([ROLE.owner]), []);
  const administrators = make("role:administrators", "Administrators of this organization, including owners", byRole([ROLE.admin]), [owners]);
  const moderators = make("role:moderators", "Moderators of this organization, including administrators", byRole([ROLE.moderator]), [administrators]);
  const fullmembers = make("role:fullmembers", "Members of this organization, not including new accounts and guests", [...byRole([ROLE.member]), ...bots], [moderators]);
  const members = make("role:members", "Members of this organization, not including guests", [], [fullmembers]);
  const everyone = make("role:everyone", "Everyone in this organization, including guests", byRole([ROLE.guest]), [members]);
  const internet = make("role:internet", "Everyone on the Internet", [], [everyone]);
  for (const g of state.groups.values()) g.settings["can_mention_group"] = everyone;
  return { nobody, owners, administrators, moderators, fullmembers, members, everyone, internet };
}

export function defaultChannelGroups(creatorId: number, g: SystemGroups): Record<ChannelGroupSettingName, GroupSetting> {
  return {
    can_add_subscribers_group: g.nobody,
    can_remove_subscribers_group: g.administrators,
    can_administer_channel_group: { direct_members: [creatorId], direct_subgroups: [] },
    can_delete_any_message_group: g.administrators,
    can_delete_own_message_group: g.everyone,
    can_move_messages_out_of_channel_group: g.nobody,
    can_move_messages_within_channel_group: g.nobody,
    can_send_message_group: g.everyone,
    can_subscribe_group: g.nobody,
    can_resolve_topics_group: g.nobody,
    can_create_topic_group: g.everyone,
  };
}

export function addChannel(
  state: State,
  fields: Omit<Channel, "id" | "recipientId" | "groups" | "messageRetentionDays" | "topicsPolicy"> &
    Partial<Pick<Channel, "messageRetentionDays" | "topicsPolicy">>,
  groups: SystemGroups,
  overrides: Partial<Record<ChannelGroupSettingName, GroupSetting>> = {},
): Channel {
  return state.addChannel({
    messageRetentionDays: null,
    topicsPolicy: "inherit",
    ...fields,
    id: state.allocate("channel"),
    recipientId: state.allocate("recipient"),
    groups: { ...defaultChannelGroups(fields.creatorId ?? 0, groups), ...overrides },
  });
}

/** A subscription as it starts: active, unmuted, notifications as the user's settings say (null). */
export function newSubscription(userId: number, channelId: number, color: string, extra: Partial<Subscription> = {}): Subscription {
  return {
    userId,
    channelId,
    active: true,
    color,
    pinToTop: false,
    isMuted: false,
    desktopNotifications: null,
    emailNotifications: null,
    pushNotifications: null,
    audibleNotifications: null,
    wildcardMentionsNotify: null,
    ...extra,
  };
}

export function subscribe(state: State, userId: number, channelId: number, color: string, extra: Partial<Subscription> = {}): void {
  state.setSubscription(newSubscription(userId, channelId, color, extra));
}

export function defaultUserSettings(timezone: string): Record<string, unknown> {
  return {
    twenty_four_hour_time: true,
    enter_sends: true,
    presence_enabled: true,
    timezone,
    default_language: "en",
    emojiset: "google",
    color_scheme: 1,
    web_home_view: "inbox",
    starred_message_counts: true,
    display_emoji_reaction_users: true,
    receives_typing_notifications: true,
    send_private_typing_notifications: true,
    send_stream_typing_notifications: true,
    send_read_receipts: true,
    enable_drafts_synchronization: true,
    enable_desktop_notifications: true,
    enable_sounds: true,
    enable_stream_desktop_notifications: false,
    enable_stream_email_notifications: false,
    enable_stream_push_notifications: false,
    enable_stream_audible_notifications: false,
    enable_followed_topic_desktop_notifications: true,
    enable_offline_email_notifications: true,
    enable_offline_push_notifications: true,
    enable_online_push_notifications: true,
    wildcard_mentions_notify: true,
    pm_content_in_desktop_notifications: true,
    desktop_icon_count_display: 1,
    notification_sound: "zulip",
    email_address_visibility: 1,
    web_mark_read_on_scroll_policy: 1,
    automatically_follow_topics_policy: 3,
    automatically_unmute_topics_in_muted_streams_policy: 3,
    automatically_follow_topics_where_mentioned: true,
    user_list_style: 2,
    demote_inactive_streams: 1,
    translate_emoticons: false,
    left_side_userlist: false,
    fluid_layout_width: false,
    high_contrast_mode: false,
    allow_private_data_export: false,
  };
}
