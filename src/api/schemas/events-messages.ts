/** Events about messages: new, edited/moved, deleted, reactions, flags, typing. */
import * as z from "zod";
import { tolerantObject } from "./tolerant.js";
import { messageSchema, reactionTypeSchema } from "./common.js";

export const id = z.lazy(() => z.number().int());
export const ids = z.lazy(() => z.array(id));

export const heartbeatEvent = z.lazy(() => tolerantObject({ type: z.literal("heartbeat"), id }));

export const messageEvent = z.lazy(() => tolerantObject({
  type: z.literal("message"),
  id,
  message: messageSchema,
  flags: z.array(z.string()).default([]),
  local_message_id: z.string().optional(),
}));

export const updateMessageEvent = z.lazy(() => tolerantObject({
  type: z.literal("update_message"),
  id,
  user_id: id.nullish(),
  message_id: id,
  message_ids: ids,
  flags: z.array(z.string()).default([]),
  edit_timestamp: z.number().optional(),
  rendering_only: z.boolean().optional(),
  stream_name: z.string().optional(),
  stream_id: id.optional(),
  new_stream_id: id.optional(),
  /** `change_one`, `change_later`, `change_all`; a newer value is kept (the model acts only on change_all). */
  propagate_mode: z.string().optional(),
  orig_subject: z.string().optional(),
  subject: z.string().optional(),
  orig_content: z.string().optional(),
  orig_rendered_content: z.string().optional(),
  content: z.string().optional(),
  rendered_content: z.string().optional(),
  is_me_message: z.boolean().optional(),
}));

export const deleteMessageEvent = z.lazy(() => tolerantObject({
  type: z.literal("delete_message"),
  id,
  /** Without the bulk_message_deletion capability: one message per event. */
  message_id: id.optional(),
  message_ids: ids.optional(),
  /** `stream` or `private`; kept as a string (the ids say what to delete). */
  message_type: z.string(),
  stream_id: id.optional(),
  topic: z.string().optional(),
}));

const reactionFields = () => ({
  type: z.literal("reaction"),
  id,
  message_id: id,
  user_id: id,
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: reactionTypeSchema,
});
export const reactionAddEvent = z.lazy(() => tolerantObject({ ...reactionFields(), op: z.literal("add") }));
export const reactionRemoveEvent = z.lazy(() => tolerantObject({ ...reactionFields(), op: z.literal("remove") }));

export const updateMessageFlagsEvent = z.lazy(() => tolerantObject({
  type: z.literal("update_message_flags"),
  id,
  /** `op` is the modern name; servers before feature level 32 sent only `operation`. */
  op: z.enum(["add", "remove"]).optional(),
  operation: z.string().optional(),
  flag: z.string(),
  messages: ids,
  all: z.boolean().default(false),
  message_details: z
    .record(
      z.string(),
      tolerantObject({
        /** `stream` or `private`; details of another kind are not used. */
        type: z.string(),
        mentioned: z.boolean().optional(),
        user_ids: ids.optional(),
        stream_id: id.optional(),
        topic: z.string().optional(),
        unmuted_stream_msg: z.boolean().optional(),
      }),
    )
    .optional(),
}));

const typingFields = () => ({
  type: z.literal("typing"),
  id,
  /** `direct` (`private` before feature level 215) or `stream`; a newer name is kept (the fields say where). */
  message_type: z.string().optional(),
  sender: tolerantObject({ user_id: id, email: z.string().optional() }),
  recipients: z.array(tolerantObject({ user_id: id, email: z.string().optional() })).optional(),
  stream_id: id.optional(),
  topic: z.string().optional(),
});
export const typingStartEvent = z.lazy(() => tolerantObject({ ...typingFields(), op: z.literal("start") }));
export const typingStopEvent = z.lazy(() => tolerantObject({ ...typingFields(), op: z.literal("stop") }));

const typingEditFields = () => ({
  type: z.literal("typing_edit_message"),
  id,
  sender_id: id,
  message_id: id,
  recipient: tolerantObject({
    type: z.string(),
    user_ids: ids.optional(),
    channel_id: id.optional(),
    topic: z.string().optional(),
  }),
});
export const typingEditStartEvent = z.lazy(() => tolerantObject({ ...typingEditFields(), op: z.literal("start") }));
export const typingEditStopEvent = z.lazy(() => tolerantObject({ ...typingEditFields(), op: z.literal("stop") }));

/** A submessage added to a message (a vote, a new task…); `content` is the widget's JSON. */
export const submessageEvent = z.lazy(() => tolerantObject({
  type: z.literal("submessage"),
  id,
  msg_type: z.string(),
  message_id: id,
  submessage_id: id,
  sender_id: id,
  content: z.string(),
}));

export const messageEventTable = {
  heartbeat: heartbeatEvent,
  message: messageEvent,
  update_message: updateMessageEvent,
  delete_message: deleteMessageEvent,
  reaction: { ops: { add: reactionAddEvent, remove: reactionRemoveEvent } },
  update_message_flags: updateMessageFlagsEvent,
  typing: { ops: { start: typingStartEvent, stop: typingStopEvent } },
  typing_edit_message: { ops: { start: typingEditStartEvent, stop: typingEditStopEvent } },
  submessage: submessageEvent,
} as const;
