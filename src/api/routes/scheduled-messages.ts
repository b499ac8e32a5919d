/**
 * Scheduled messages ("send later"; feature levels 173-184) and message
 * reminders (feature levels 381 and 399): the server sends them at their time.
 */
import type { ApiClient } from "../http.js";
import { emptySuccessSchema } from "../schemas/responses.js";
import {
  createReminderResponseSchema,
  createScheduledMessageResponseSchema,
  getRemindersResponseSchema,
  getScheduledMessagesResponseSchema,
} from "../schemas/scheduled.js";

/** Where a scheduled message goes: a channel and topic, or people (user IDs). */
export type ScheduledTarget = { type: "stream"; to: number; topic: string } | { type: "direct"; to: number[] };

export function getScheduledMessages(client: ApiClient) {
  return client.request("GET", "scheduled_messages", { schema: getScheduledMessagesResponseSchema });
}

/** Not retried: a repeat would schedule the message twice. `at`: UNIX seconds, in the future. */
export function createScheduledMessage(client: ApiClient, p: ScheduledTarget & { content: string; at: number; read_by_sender?: boolean }) {
  const { at, ...rest } = p;
  return client.request("POST", "scheduled_messages", {
    params: { ...rest, scheduled_delivery_timestamp: at },
    schema: createScheduledMessageResponseSchema,
    idempotent: false,
  });
}

export interface ScheduledMessageChange {
  /** With `type`, `to` is needed; a channel as the new target needs `topic` too. */
  type?: "stream" | "direct";
  to?: number | number[];
  topic?: string;
  content?: string;
  /** UNIX seconds; needed to send again one that failed. */
  at?: number;
}

/** Sets fields to the values given: safe to repeat. */
export function updateScheduledMessage(client: ApiClient, scheduledMessageId: number, p: ScheduledMessageChange) {
  const { at, ...rest } = p;
  return client.request("PATCH", `scheduled_messages/${scheduledMessageId}`, {
    params: { ...rest, scheduled_delivery_timestamp: at },
    schema: emptySuccessSchema,
    idempotent: true,
  });
}

/** Cancels it (an ID is never reused): safe to repeat. */
export function deleteScheduledMessage(client: ApiClient, scheduledMessageId: number) {
  return client.request("DELETE", `scheduled_messages/${scheduledMessageId}`, { schema: emptySuccessSchema, idempotent: true });
}

export function getReminders(client: ApiClient) {
  return client.request("GET", "reminders", { schema: getRemindersResponseSchema });
}

/** Not retried: a repeat would set a second reminder. `note` needs feature level 415. */
export function createReminder(client: ApiClient, p: { message_id: number; at: number; note?: string }) {
  return client.request("POST", "reminders", {
    params: { message_id: p.message_id, scheduled_delivery_timestamp: p.at, note: p.note },
    schema: createReminderResponseSchema,
    idempotent: false,
  });
}

export function deleteReminder(client: ApiClient, reminderId: number) {
  return client.request("DELETE", `reminders/${reminderId}`, { schema: emptySuccessSchema, idempotent: true });
}
