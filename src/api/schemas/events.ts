/**
 * Events from `GET /events`. Each known type has a tolerant schema; an event
 * of a type (or op) we do not know becomes `{type: "unknown"}` with its raw
 * JSON, so a newer server never crashes the client.
 */
import { z } from "zod";
import { messageSchema, reactionTypeSchema, subscriptionSchema, successBase, userSchema } from "./common.js";

const id = z.number().int();
const ids = z.array(id);

const heartbeat = z.looseObject({ type: z.literal("heartbeat"), id });

const message = z.looseObject({
  type: z.literal("message"),
  id,
  message: messageSchema,
  flags: z.array(z.string()).default([]),
  local_message_id: z.string().optional(),
});

const updateMessage = z.looseObject({
  type: z.literal("update_message"),
  id,
  user_id: id.nullish(),
  message_id: id,
  message_ids: ids,
  flags: z.array(z.string()).default([]),
  edit_timestamp: z.number().optional(),
  rendering_only: z.boolean().optional(),
  stream_id: id.optional(),
  new_stream_id: id.optional(),
  propagate_mode: z.enum(["change_one", "change_later", "change_all"]).optional(),
  orig_subject: z.string().optional(),
  subject: z.string().optional(),
  content: z.string().optional(),
  orig_content: z.string().optional(),
  is_me_message: z.boolean().optional(),
});

const deleteMessage = z.looseObject({
  type: z.literal("delete_message"),
  id,
  message_id: id.optional(),
  message_ids: ids.optional(),
  message_type: z.enum(["stream", "private"]),
  stream_id: id.optional(),
  topic: z.string().optional(),
});

const reaction = z.looseObject({
  type: z.literal("reaction"),
  id,
  op: z.enum(["add", "remove"]),
  message_id: id,
  user_id: id,
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: reactionTypeSchema,
});

const updateMessageFlags = z.looseObject({
  type: z.literal("update_message_flags"),
  id,
  op: z.enum(["add", "remove"]).optional(),
  operation: z.enum(["add", "remove"]).optional(),
  flag: z.string(),
  messages: ids,
  all: z.boolean().default(false),
  message_details: z
    .record(
      z.string(),
      z.looseObject({
        type: z.enum(["stream", "private"]),
        mentioned: z.boolean().optional(),
        user_ids: ids.optional(),
        stream_id: id.optional(),
        topic: z.string().optional(),
        unmuted_stream_msg: z.boolean().optional(),
      }),
    )
    .optional(),
});

const subscription = z.looseObject({
  type: z.literal("subscription"),
  id,
  op: z.enum(["add", "remove", "update", "peer_add", "peer_remove"]),
  subscriptions: z.array(z.unknown()).optional(),
  stream_id: id.optional(),
  property: z.string().optional(),
  value: z.unknown().optional(),
  stream_ids: ids.optional(),
  user_ids: ids.optional(),
});

const realmUser = z.looseObject({
  type: z.literal("realm_user"),
  id,
  op: z.enum(["add", "update", "remove"]),
  person: z.looseObject({ user_id: id }),
});

const typing = z.looseObject({
  type: z.literal("typing"),
  id,
  op: z.enum(["start", "stop"]),
  message_type: z.enum(["stream", "direct", "private"]).optional(),
  sender: z.looseObject({ user_id: id, email: z.string().optional() }),
  recipients: z.array(z.looseObject({ user_id: id })).optional(),
  stream_id: id.optional(),
  topic: z.string().optional(),
});

const knownEvents = {
  heartbeat,
  message,
  update_message: updateMessage,
  delete_message: deleteMessage,
  reaction,
  update_message_flags: updateMessageFlags,
  subscription,
  realm_user: realmUser,
  typing,
} as const;

export type KnownEventType = keyof typeof knownEvents;
export type HeartbeatEvent = z.infer<typeof heartbeat>;
export type MessageEvent = z.infer<typeof message>;
export type UpdateMessageEvent = z.infer<typeof updateMessage>;
export type DeleteMessageEvent = z.infer<typeof deleteMessage>;
export type ReactionEvent = z.infer<typeof reaction>;
export type UpdateMessageFlagsEvent = z.infer<typeof updateMessageFlags>;
export type SubscriptionEvent = z.infer<typeof subscription>;
export type RealmUserEvent = z.infer<typeof realmUser>;
export type TypingEvent = z.infer<typeof typing>;
export interface UnknownEvent {
  type: "unknown";
  id: number;
  raw: Record<string, unknown>;
}
export type ServerEvent =
  | HeartbeatEvent
  | MessageEvent
  | UpdateMessageEvent
  | DeleteMessageEvent
  | ReactionEvent
  | UpdateMessageFlagsEvent
  | SubscriptionEvent
  | RealmUserEvent
  | TypingEvent
  | UnknownEvent;

/** Why one event could not be read. Carries the event so the caller can report it. */
export class MalformedEventError extends Error {
  constructor(readonly raw: unknown, readonly issues: z.core.$ZodIssue[]) {
    const first = issues[0];
    super(`malformed ${String((raw as { type?: unknown })?.type)} event: ${first ? `${first.path.join(".")}: ${first.message}` : "?"}`);
    this.name = "MalformedEventError";
  }
}

/** Reads one event; unknown types pass as `unknown`, malformed known ones throw MalformedEventError. */
export function parseEvent(raw: unknown): ServerEvent {
  const obj = (raw && typeof raw === "object" ? raw : {}) as Record<string, unknown>;
  const type = obj.type;
  const schema = typeof type === "string" ? (knownEvents as Record<string, z.ZodType>)[type] : undefined;
  const eventId = typeof obj.id === "number" ? obj.id : -1;
  if (!schema) return { type: "unknown", id: eventId, raw: obj };
  const parsed = schema.safeParse(obj);
  if (parsed.success) return parsed.data as ServerEvent;
  // A new `op` value is an unknown event, not a malformed one.
  if (parsed.error.issues.some((i) => i.path.length === 1 && i.path[0] === "op" && i.code === "invalid_value")) {
    return { type: "unknown", id: eventId, raw: obj };
  }
  throw new MalformedEventError(raw, parsed.error.issues);
}

export const eventsResponseSchema = z.looseObject({
  ...successBase,
  events: z.array(z.unknown()),
  queue_id: z.string().optional(),
});

/** Parsed subscription records of a `subscription` add event. */
export const subscriptionAddSchema = z.array(subscriptionSchema);
export const realmUserAddSchema = userSchema;
