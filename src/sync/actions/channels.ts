/**
 * Channel actions: a channel's settings (administrators), the reader's
 * subscription settings, a topic's visibility (mute, follow), and channel
 * folders (organization administrators). The store follows through events.
 */
import { createChannelFolder as createFolderRoute, updateChannelFolder } from "../../api/routes/channel-folders.js";
import { CHANNEL_GROUP_SETTINGS, updateChannel, type UpdateChannelParams } from "../../api/routes/channels.js";
import { updateSubscriptionSettings, type SubscriptionSetting } from "../../api/routes/subscriptions.js";
import { updateUserTopic, VisibilityPolicy } from "../../api/routes/user-topics.js";
import { command, type ActionResult, type ActionSession } from "./result.js";

export { CHANNEL_GROUP_SETTINGS, VisibilityPolicy };
export type { ChannelGroupSetting, TopicsPolicy, UpdateChannelParams } from "../../api/routes/channels.js";
export type { SubscriptionSetting } from "../../api/routes/subscriptions.js";

export function changeChannel(session: ActionSession, channelId: number, p: UpdateChannelParams): Promise<ActionResult> {
  return command(session, (c) => updateChannel(c, channelId, p));
}

export function changeSubscriptions(session: ActionSession, settings: SubscriptionSetting[]): Promise<ActionResult> {
  return command(session, (c) => updateSubscriptionSettings(c, settings));
}

export function setTopicVisibility(session: ActionSession, channelId: number, topic: string, policy: VisibilityPolicy): Promise<ActionResult> {
  return command(session, (c) => updateUserTopic(c, { stream_id: channelId, topic, visibility_policy: policy }));
}

export function createChannelFolder(session: ActionSession, p: { name: string; description?: string }): Promise<ActionResult> {
  return command(session, (c) => createFolderRoute(c, p));
}

export function changeChannelFolder(session: ActionSession, folderId: number, p: { name?: string; description?: string; is_archived?: boolean }): Promise<ActionResult> {
  return command(session, (c) => updateChannelFolder(c, folderId, p));
}
