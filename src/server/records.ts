// The records an organization's state holds (users, channels, subscriptions, messages and the
// rest), as plain data: seeds build them directly and routes read and change them. state.ts
// keeps them and the indexes over them.

export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const;
export type RoleNumber = (typeof ROLE)[keyof typeof ROLE];

export type GroupSetting = number | { direct_members: number[]; direct_subgroups: number[] };

export interface User {
  id: number;
  email: string;
  fullName: string;
  role: RoleNumber;
  isBot: boolean;
  botType: number | null;
  botOwnerId: number | null;
  isActive: boolean;
  dateJoined: string;
  timezone: string;
  avatarVersion: number;
  apiKey: string;
  password: string;
}

export type TopicsPolicy = "inherit" | "allow_empty_topic" | "disable_empty_topic" | "empty_topic_only";

export interface Channel {
  id: number;
  name: string;
  description: string;
  dateCreated: number;
  creatorId: number | null;
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean;
  messageRetentionDays: number | null;
  isArchived: boolean;
  folderId: number | null;
  topicsPolicy: TopicsPolicy;
  recipientId: number;
  groups: Record<ChannelGroupSettingName, GroupSetting>;
}

export const CHANNEL_GROUP_SETTINGS = [
  "can_add_subscribers_group",
  "can_remove_subscribers_group",
  "can_administer_channel_group",
  "can_delete_any_message_group",
  "can_delete_own_message_group",
  "can_move_messages_out_of_channel_group",
  "can_move_messages_within_channel_group",
  "can_send_message_group",
  "can_subscribe_group",
  "can_resolve_topics_group",
  "can_create_topic_group",
] as const;
export type ChannelGroupSettingName = (typeof CHANNEL_GROUP_SETTINGS)[number];

export interface Subscription {
  userId: number;
  channelId: number;
  active: boolean;
  color: string;
  pinToTop: boolean;
  isMuted: boolean;
  desktopNotifications: boolean | null;
  emailNotifications: boolean | null;
  pushNotifications: boolean | null;
  audibleNotifications: boolean | null;
  wildcardMentionsNotify: boolean | null;
}

export interface ChannelFolder {
  id: number;
  name: string;
  description: string;
  order: number;
  dateCreated: number | null;
  creatorId: number | null;
  isArchived: boolean;
}

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  isSystem: boolean;
  dateCreated: number | null;
  creatorId: number | null;
  deactivated: boolean;
  settings: Record<string, GroupSetting>;
}

export interface Reaction {
  emojiName: string;
  emojiCode: string;
  reactionType: "unicode_emoji" | "realm_emoji" | "svc_extra_emoji";
  userId: number;
}

/** Wire-shaped edit history entry (see the Message record of the spec). */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

export interface Message {
  id: number;
  senderId: number;
  type: "stream" | "private";
  /** Channel messages only. */
  channelId: number | null;
  /** "" for direct messages. */
  topic: string;
  /** Direct messages only: every participant, sender included, sorted. */
  dmUserIds: number[];
  recipientId: number;
  content: string;
  timestamp: number;
  client: string;
  reactions: Reaction[];
  editHistory?: EditHistoryEntry[];
  lastEditTimestamp?: number;
  lastMovedTimestamp?: number;
}

export type Flag =
  | "read"
  | "starred"
  | "collapsed"
  | "mentioned"
  | "stream_wildcard_mentioned"
  | "topic_wildcard_mentioned"
  | "wildcard_mentioned"
  | "has_alert_word"
  | "historical";

export interface UserTopic {
  userId: number;
  channelId: number;
  topic: string;
  visibilityPolicy: number;
  lastUpdated: number;
}

export interface RealmInfo {
  name: string;
  description: string;
  /** Identifier used as sender_realm_str. */
  stringId: string;
  dateCreated: number;
  emptyTopicDisplayName: string;
  emailDomain: string;
  /** Whether members may see who read a message (`realm_enable_read_receipts`). */
  enableReadReceipts: boolean;
  /** Whether web-public channels may be read without an account (`enable_spectator_access`). */
  enableSpectatorAccess: boolean;
}

export interface RealmEmoji {
  id: string;
  name: string;
  sourceUrl: string;
  deactivated: boolean;
  authorId: number | null;
}

export interface Draft {
  id: number;
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface UserStatus {
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
  away?: boolean;
}

export interface Presence {
  active_timestamp: number;
  idle_timestamp: number;
}
