// Scheduled messages ("send later"): GET/POST /scheduled_messages, PATCH and
// DELETE /scheduled_messages/{id}. A message is checked when it is scheduled
// or edited as if it were sent then, and again when it goes out (see
// scheduled-delivery.ts). Each change reaches the author's clients as a
// `scheduled_messages` event.

import { nowSeconds, type ServerContext } from "../context.js";
import { ApiError, badRequest } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { accessibleChannel, checkChannelTopic, checkContent, checkRecipientIds, clientName, type Addressee } from "../message-check.js";
import type { Params } from "../params.js";
import type { ScheduledMessage } from "../scheduled.js";
import { notifyScheduled, scheduledToWire } from "../scheduled-wire.js";
import type { User } from "../state.js";

const TYPES = new Set(["direct", "channel", "stream", "private"]);

/** The delivery time parameter, which must lie ahead of the server's clock. */
export function futureTimestamp(server: ServerContext, params: Params, required: true): number;
export function futureTimestamp(server: ServerContext, params: Params, required: false): number | undefined;
export function futureTimestamp(server: ServerContext, params: Params, required: boolean): number | undefined {
  const at = required ? params.reqInt("scheduled_delivery_timestamp") : params.int("scheduled_delivery_timestamp");
  if (at !== undefined && at <= nowSeconds(server)) throw badRequest("Scheduled delivery time must be in the future.");
  return at;
}

function readType(params: Params, required: boolean): "stream" | "private" | undefined {
  const raw = required ? params.reqStr("type") : params.str("type");
  if (raw === undefined) return undefined;
  const type = raw.trim().replace(/^"|"$/g, "");
  if (!TYPES.has(type)) throw badRequest("Invalid type");
  return type === "stream" || type === "channel" ? "stream" : "private";
}

function parseTo(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Checks where the message goes: a channel's ID (and topic), or the user IDs of a direct message. */
function checkAddressee(server: ServerContext, user: User, type: "stream" | "private", rawTo: string, topic: string): Addressee {
  const to = parseTo(rawTo);
  if (type === "stream") {
    const id = typeof to === "string" && /^\d+$/.test(to.trim()) ? Number(to) : to;
    if (typeof id !== "number" || !Number.isSafeInteger(id)) throw badRequest("Invalid data type for channel ID");
    const channel = accessibleChannel(server, user, id);
    return { kind: "channel", channel, topic: checkChannelTopic(server, user, channel, topic) };
  }
  if (!Array.isArray(to) || !to.every((x) => Number.isSafeInteger(x))) throw badRequest("Invalid data type for recipients");
  return { kind: "direct", userIds: checkRecipientIds(server, to as number[]) };
}

/** Where a checked addressee goes, in the record's terms. */
function placeOf(user: User, a: Addressee): Pick<ScheduledMessage, "type" | "channelId" | "topic" | "dmUserIds"> {
  return a.kind === "channel"
    ? { type: "stream", channelId: a.channel.id, topic: a.topic, dmUserIds: [] }
    : { type: "private", channelId: null, topic: "", dmUserIds: [...new Set([...a.userIds, user.id])].sort((x, y) => x - y) };
}

/** The user's own scheduled message with the path's ID (reminders are not scheduled messages here). */
function ownScheduled(ctx: RequestContext): ScheduledMessage {
  const raw = ctx.path["scheduled_message_id"] ?? "";
  const s = /^\d+$/.test(raw) ? ctx.server.state.scheduled.byId.get(Number(raw)) : undefined;
  if (!s || s.senderId !== ctx.user.id || s.deliveryType !== "send_later") {
    throw new ApiError(404, "BAD_REQUEST", "Scheduled message does not exist");
  }
  return s;
}

function create(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const type = readType(params, true)!;
  const rawTo = params.reqStr("to");
  const content = params.reqStr("content");
  const topic = params.str("topic") ?? "";
  const deliverAt = futureTimestamp(server, params, true);
  const readBySender = params.bool("read_by_sender");
  checkContent(content);
  const place = placeOf(user, checkAddressee(server, user, type, rawTo, topic));
  const toSelfOnly = place.type === "private" && place.dmUserIds.length === 1;
  const s = server.state.scheduled.add({
    senderId: user.id,
    deliveryType: "send_later",
    ...place,
    content,
    deliverAt,
    // As the service guesses for an interactive client: read, unless it is a note to oneself.
    readBySender: readBySender ?? !toSelfOnly,
    client: clientName(ctx.userAgent),
    failed: false,
    failureMessage: null,
  });
  notifyScheduled(server, s, "add");
  server.scheduler.arm();
  return { scheduled_message_id: s.id };
}

function edit(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const type = readType(params, false);
  const rawTo = params.str("to");
  const topic = params.str("topic");
  const content = params.str("content");
  const deliverAt = futureTimestamp(server, params, false);
  if (type === undefined && rawTo === undefined && topic === undefined && content === undefined && deliverAt === undefined) {
    throw badRequest("Nothing to change");
  }
  if (type !== undefined && rawTo === undefined) throw badRequest("Recipient required when updating type of scheduled message.");
  if (type === "stream" && topic === undefined) throw badRequest("Topic required when updating scheduled message type to stream.");
  const s = ownScheduled(ctx);
  // One that failed goes out again only at a new time.
  if (s.failed && deliverAt === undefined) throw badRequest("Scheduled delivery time must be in the future.");

  let place: ReturnType<typeof placeOf> | undefined;
  if (content !== undefined) checkContent(content);
  // New content is checked against where the message goes, as a new message would be.
  if (type !== undefined || rawTo !== undefined || content !== undefined) {
    const newType = type ?? s.type;
    const to = rawTo ?? JSON.stringify(s.type === "stream" ? s.channelId : s.dmUserIds.filter((id) => id !== user.id));
    place = placeOf(user, checkAddressee(server, user, newType, to, topic ?? s.topic));
  } else if (topic !== undefined && s.type === "stream") {
    const channel = accessibleChannel(server, user, s.channelId!);
    place = { type: "stream", channelId: channel.id, topic: checkChannelTopic(server, user, channel, topic), dmUserIds: [] };
  }
  if (place) Object.assign(s, place);
  if (content !== undefined) s.content = content;
  if (deliverAt !== undefined) s.deliverAt = deliverAt;
  s.client = clientName(ctx.userAgent);
  s.failed = false;
  s.failureMessage = null;
  notifyScheduled(server, s, "update");
  server.scheduler.arm();
  return {};
}

export const scheduledMessageRoutes: Route[] = [
  {
    method: "GET",
    path: "/scheduled_messages",
    handler({ server, user }) {
      return { scheduled_messages: server.state.scheduled.of(user.id, "send_later").map((s) => scheduledToWire(server, s)) };
    },
  },
  { method: "POST", path: "/scheduled_messages", handler: create },
  { method: "PATCH", path: "/scheduled_messages/:scheduled_message_id", handler: edit },
  {
    method: "DELETE",
    path: "/scheduled_messages/:scheduled_message_id",
    handler(ctx) {
      const s = ownScheduled(ctx);
      ctx.server.state.scheduled.byId.delete(s.id);
      notifyScheduled(ctx.server, s, "remove");
      ctx.server.scheduler.arm();
      return {};
    },
  },
];
