/** Channel settings (the channel itself, not one's subscription to it). */
import type { ApiClient } from "../http.js";
import type { GroupSettingValue } from "../schemas/common.js";
import { getChannelIdResponseSchema } from "../schemas/responses-channels.js";
import { emptySuccessSchema } from "../schemas/responses.js";

/** A permission change: the new value and, optionally, the value the client believes is current. */
export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export type TopicsPolicy = "inherit" | "allow_empty_topic" | "disable_empty_topic" | "empty_topic_only";

/** The channel permission settings, each a group-setting value. */
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
export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

export type UpdateChannelParams = {
  description?: string;
  new_name?: string;
  is_private?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  is_default_stream?: boolean;
  /** `realm_default` (the organization's setting), `unlimited`, or a number of days. */
  message_retention_days?: number | "realm_default" | "unlimited";
  /** Only unarchiving is accepted. */
  is_archived?: boolean;
  /** null takes the channel out of its folder. */
  folder_id?: number | null;
  topics_policy?: TopicsPolicy;
} & { [K in ChannelGroupSetting]?: GroupSettingChange };

/**
 * Changes channel properties. Setting a property to a value twice is
 * harmless, so transient failures are retried (a repeated `{new, old}`
 * change fails its `old` check, which is the server refusing, not harm).
 */
export function updateChannel(client: ApiClient, channelId: number, p: UpdateChannelParams) {
  return client.request("PATCH", `streams/${channelId}`, { params: p, schema: emptySuccessSchema, idempotent: true });
}

/** The ID of the channel with this name. */
export function getChannelId(client: ApiClient, name: string) {
  return client.request("GET", "get_stream_id", { params: { stream: name }, schema: getChannelIdResponseSchema });
}
