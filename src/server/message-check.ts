// The checks a message passes before it is sent, shared by sending now
// (POST /messages), scheduling (POST and PATCH /scheduled_messages) and the
// delivery of a scheduled message at its time: the content, the channel and
// topic (who may post there, the channel's topics policy), and the direct
// message recipients.

import { LIMITS, type ServerContext } from "./context.js";
import { badRequest, channelIdNotFound } from "./errors.js";
import { isInGroupSetting } from "./groups.js";
import { ROLE, type Channel, type User } from "./state.js";
import { serverTopic } from "./wire.js";

/** Where a checked message goes. */
export type Addressee = { kind: "channel"; channel: Channel; topic: string } | { kind: "direct"; userIds: number[] };

export function checkContent(content: string): void {
  if (content.trim() === "") throw badRequest("Message must not be empty");
  if (content.includes("\u0000")) throw badRequest("Message must not contain null bytes");
  if ([...content].length > LIMITS.maxMessageLength) {
    throw badRequest(`Message is too long (limit: ${LIMITS.maxMessageLength} characters)`);
  }
}

export function checkCanPost(server: ServerContext, user: User, channel: Channel): void {
  if (channel.isArchived) throw badRequest(`Not authorized to send to channel '${channel.name}': the channel is archived`);
  const subscribed = server.state.subscription(user.id, channel.id) !== undefined;
  if (user.role === ROLE.guest && !subscribed) throw badRequest(`Not authorized to send to channel '${channel.name}'`);
  if (!isInGroupSetting(server.state, user, channel.groups.can_send_message_group)) {
    throw badRequest(`You do not have permission to post in this channel.`);
  }
}

/** The channel with this id if the user may see it, else the service's "does not exist". */
export function accessibleChannel(server: ServerContext, user: User, channelId: number): Channel {
  const channel = server.state.channels.get(channelId);
  if (!channel || !server.state.canAccessChannel(user, channel)) throw channelIdNotFound(channelId);
  return channel;
}

/** Checks that `user` may post to `topic` (as sent: the display name means "") of `channel`; the topic as stored. */
export function checkChannelTopic(server: ServerContext, user: User, channel: Channel, rawTopic: string): string {
  checkCanPost(server, user, channel);
  const topic = serverTopic(server, rawTopic);
  if (topic.includes("\u0000")) throw badRequest("Topic must not contain null bytes");
  if ([...topic].length > LIMITS.maxTopicLength) {
    throw badRequest(`Topic is too long (limit: ${LIMITS.maxTopicLength} characters)`);
  }
  if (topic === "" && channel.topicsPolicy === "disable_empty_topic") {
    throw badRequest(`Sending messages to ${server.state.realm.emptyTopicDisplayName} is not allowed in this channel.`);
  }
  if (topic !== "" && channel.topicsPolicy === "empty_topic_only") {
    throw badRequest("Only the empty topic is allowed in this channel.");
  }
  return topic;
}

/** A direct message's recipient: one the organization has and who still uses it. */
export function checkRecipient(server: ServerContext, user: User | undefined, asSent: number | string): number {
  if (!user) {
    throw typeof asSent === "number" ? badRequest(`Invalid user ID ${asSent}`) : badRequest(`Invalid email '${asSent}'`);
  }
  if (!user.isActive) throw badRequest(`'${user.email}' is no longer using ${server.state.realm.name}.`);
  return user.id;
}

/** Checks the recipients of a direct message given by user ID; the IDs without repeats, sorted. */
export function checkRecipientIds(server: ServerContext, ids: readonly number[]): number[] {
  if (ids.length === 0) throw badRequest("Message must have recipients");
  const out = ids.map((id) => checkRecipient(server, server.state.users.get(id), id));
  return [...new Set(out)].sort((a, b) => a - b);
}

/** The sending client's name: the product token of its User-Agent. */
export function clientName(userAgent: string): string {
  return userAgent.split(/[\s/]/)[0] || "API";
}
