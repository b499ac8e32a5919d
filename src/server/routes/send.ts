// POST /messages: send a channel or direct message.

import { nowSeconds, type ServerContext } from "../context.js";
import { badRequest, channelNameNotFound, missingArgument } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { accessibleChannel, checkChannelTopic, checkContent, checkRecipient, clientName } from "../message-check.js";
import { deliverMessage, notifyNewMessage } from "../messaging.js";
import { notifyLinkedUploads } from "./uploads.js";
import type { Channel, User } from "../state.js";

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
  if (typeof value === "number" && Number.isInteger(value)) return accessibleChannel(server, user, value);
  const name = typeof value === "string" ? value : raw;
  const channel = server.state.channelByName(name);
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
  return items.map((item) =>
    typeof item === "number"
      ? checkRecipient(server, server.state.users.get(item), item)
      : checkRecipient(server, server.state.userByEmail(String(item)), String(item)),
  );
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

  checkContent(content);

  const base = { sender: user, content, client: clientName(ctx.userAgent), timestamp: nowSeconds(server) };
  let message;
  if (type === "stream" || type === "channel") {
    const channel = resolveChannel(server, user, to);
    const topic = checkChannelTopic(server, user, channel, topicParam ?? "");
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
