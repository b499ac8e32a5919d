/**
 * Messages that wait for their time, and the user's other personal records:
 * scheduled messages ("send later"), message reminders, read receipts and
 * navigation views, with their response envelopes and events. Tolerant like
 * the rest: unknown fields pass, a newer kind of message stays a string.
 */
import * as z from "zod";
import { tolerantObject } from "./tolerant.js";
import { navigationViewSchema, successBase } from "./common.js";
import { id, ids } from "./events-messages.js";

/** `to`: a channel's ID, or the user IDs of a direct message (the others; oneself alone for a note to self). */
const recipientsSchema = z.lazy(() => z.union([id, ids]));

export const scheduledMessageSchema = z.lazy(() => tolerantObject({
  scheduled_message_id: id,
  /** `stream` or `private` (a newer name is kept as sent). */
  type: z.string(),
  to: recipientsSchema,
  /** Channel messages only. */
  topic: z.string().optional(),
  content: z.string(),
  rendered_content: z.string().optional(),
  scheduled_delivery_timestamp: z.number(),
  /** The server tried to send it and could not (feature level 181; absent before: not failed). */
  failed: z.boolean().default(false),
}));
export type ScheduledMessage = z.infer<typeof scheduledMessageSchema>;

export const reminderSchema = z.lazy(() => tolerantObject({
  reminder_id: id,
  type: z.string().default("private"),
  to: recipientsSchema.default([]),
  content: z.string(),
  rendered_content: z.string().optional(),
  scheduled_delivery_timestamp: z.number(),
  failed: z.boolean().default(false),
  reminder_target_message_id: id,
}));
export type Reminder = z.infer<typeof reminderSchema>;

export const getScheduledMessagesResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), scheduled_messages: z.array(scheduledMessageSchema) }));
export const createScheduledMessageResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), scheduled_message_id: id }));
export const getRemindersResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), reminders: z.array(reminderSchema) }));
export const createReminderResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), reminder_id: id }));
export const readReceiptsResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), user_ids: ids }));
export const getNavigationViewsResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), navigation_views: z.array(navigationViewSchema) }));

export const scheduledMessagesAddEvent = z.lazy(() => tolerantObject({
  type: z.literal("scheduled_messages"),
  id,
  op: z.literal("add"),
  scheduled_messages: z.array(scheduledMessageSchema),
}));
export const scheduledMessagesUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("scheduled_messages"),
  id,
  op: z.literal("update"),
  scheduled_message: scheduledMessageSchema,
}));
export const scheduledMessagesRemoveEvent = z.lazy(() => tolerantObject({
  type: z.literal("scheduled_messages"),
  id,
  op: z.literal("remove"),
  scheduled_message_id: id,
}));

export const remindersAddEvent = z.lazy(() => tolerantObject({ type: z.literal("reminders"), id, op: z.literal("add"), reminders: z.array(reminderSchema) }));
export const remindersRemoveEvent = z.lazy(() => tolerantObject({ type: z.literal("reminders"), id, op: z.literal("remove"), reminder_id: id }));

export const scheduledEventTable = {
  scheduled_messages: { ops: { add: scheduledMessagesAddEvent, update: scheduledMessagesUpdateEvent, remove: scheduledMessagesRemoveEvent } },
  reminders: { ops: { add: remindersAddEvent, remove: remindersRemoveEvent } },
} as const;
