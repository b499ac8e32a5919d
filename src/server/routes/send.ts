// POST /messages: send a channel or direct message.

import { LIMITS, nowSeconds, type ServerContext } from "../context.js";
import { badRequest, channelIdNotFound, channelNameNotFound, missingArgument } from "../errors.js";
import { isInGroupSetting } from "../groups.js";
import type { RequestContext, Route } from "../http.js";
import { deliverMessage, notifyNewMessage } from "../messaging.js";
import { notifyLinkedUploads } from "./uploads.js";
import { ROLE, type Channel, type User } from "../state.js";
import { serverTopic } from "../wire.js";

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `to` of a channel message: an id or a name (plain, JSON, or a one-element JSON list). */
function resolveChannel(server: ServerContext, user: User, raw: string): Channel {
  let value = parseJsonOrText(raw);
  if (Array.isArray(value) && value.length === 1) value = value[0];
  let channel: Channel | undefined;
  if (typeof value === "number" && Number.isInteger(value)) {
    channel = server.state.channels.get(value);
    if (!channel || !server.state.canAccessChannel(user, channel)) throw channelIdNotFound(value);
    return channel;
  }
  const name = typeof value === "string" ? value : raw;
  channel = server.state.channelByName(name);
  if (!channel || (channel.inviteOnly && !server.state.canAccessChannel(user, channel))) {
    throw channelNameNotFound(name);
  }
  return channel;
}

/** `to` of a direct message: JSON list of ids or emails, or comma-separated emails. */
function resolveRecipients(server: ServerContext, raw: string): number[] {
  const value = parseJsonOrText(raw);
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === "number") items = [value];
  else items = String(value).split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) throw badRequest("Message must have recipients");
  return items.map((item) => {
    const user =
      typeof item === "number" ? server.state.users.get(item) : server.state.userByEmail(String(item));
    if (!user) {
      throw typeof item === "number" ? badRequest(`Invalid user ID ${item}`) : badRequest(`Invalid email '${String(item)}'`);
    }
    if (!user.isActive) throw badRequest(`'${user.email}' is no longer using ${server.state.realm.name}.`);
    return user.id;
  });
}

function checkCanPost(server: ServerContext, user: User, channel: Channel): void {
  if (channel.isArchived) throw badRequest(`Not authorized to send to channel '${channel.name}': the channel is archived`);
  const subscribed = server.state.subscription(user.id, channel.id) !== undefined;
  if (user.role === ROLE.guest && !subscribed) throw badRequest(`Not authorized to send to channel '${channel.name}'`);
  if (!isInGroupSetting(server.state, user, channel.groups.can_send_message_group)) {
    throw badRequest(`You do not have permission to post in this channel.`);
  }
}

/** The sending client's name: the product token of its User-Agent. */
function clientName(userAgent: string): string {
  return userAgent.split(/[\s/]/)[0] || "API";
}

function sendMessage(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const type = params.reqStr("type");
  const to = params.reqStr("to");
  const content = params.reqStr("content");
  const topicParam = params.str("topic") ?? params.str("subject");
  const queueId = params.str("queue_id");
  const localId = params.str("local_id");
  const readBySender = params.bool("read_by_sender");
  if (queueId !== undefined && localId === undefined) throw missingArgument("local_id");

  if (content.trim() === "") throw badRequest("Message must not be empty");
  if (content.includes("\u0000")) throw badRequest("Message must not contain null bytes");
  if ([...content].length > LIMITS.maxMessageLength) {
    throw badRequest(`Message is too long (limit: ${LIMITS.maxMessageLength} characters)`);
  }

  const base = { sender: user, content, client: clientName(ctx.userAgent), timestamp: nowSeconds(server) };
  let message;
  if (type === "stream" || type === "channel") {
    const channel = resolveChannel(server, user, to);
    checkCanPost(server, user, channel);
    const topic = serverTopic(server, topicParam ?? "");
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
    message = deliverMessage(server.state, { ...base, channel, topic, readBySender: readBySender ?? true });
  } else if (type === "direct" || type === "private") {
    const to2 = resolveRecipients(server, to);
    message = deliverMessage(server.state, { ...base, to: to2, readBySender: readBySender ?? true });
  } else {
    throw badRequest("Invalid message type");
  }
  notifyNewMessage(server, message, { queueId, localId });
  notifyLinkedUploads(server, message.content);
  return { id: message.id };
}

export const sendRoutes: Route[] = [
  {
    method: "POST",
    path: "/messages",
    handler: sendMessage,
  },
];
