// Scheduled messages and reminders in wire form (GET /scheduled_messages,
// GET /reminders, the register's sections and their events).

import type { ServerContext } from "./context.js";
import type { ScheduledMessage } from "./scheduled.js";
import { sendToUsers } from "./notify.js";
import { clientTopic } from "./wire.js";

/** `to` as the service gives it: the channel's ID, or the other participants (oneself alone when writing to oneself). */
function recipients(s: ScheduledMessage): number | number[] {
  if (s.type === "stream") return s.channelId!;
  const others = s.dmUserIds.filter((id) => id !== s.senderId);
  return others.length > 0 ? others : [s.senderId];
}

/** A scheduled message in wire form; `allowEmptyTopic`: the client takes "" for the empty topic. */
export function scheduledToWire(ctx: ServerContext, s: ScheduledMessage, allowEmptyTopic = true): Record<string, unknown> {
  const out: Record<string, unknown> = {
    scheduled_message_id: s.id,
    to: recipients(s),
    type: s.type,
    content: s.content,
    rendered_content: ctx.markdown.render(s.content),
    scheduled_delivery_timestamp: s.deliverAt,
    failed: s.failed,
  };
  if (s.type === "stream") out["topic"] = clientTopic(ctx, s.topic, allowEmptyTopic);
  return out;
}

export function reminderToWire(ctx: ServerContext, s: ScheduledMessage): Record<string, unknown> {
  return {
    reminder_id: s.id,
    to: recipients(s),
    type: "private",
    content: s.content,
    rendered_content: ctx.markdown.render(s.content),
    scheduled_delivery_timestamp: s.deliverAt,
    failed: s.failed,
    reminder_target_message_id: s.reminderTargetMessageId,
  };
}

/** A `scheduled_messages` event to the author's queues (add and update carry the record, remove its ID). */
export function notifyScheduled(ctx: ServerContext, s: ScheduledMessage, op: "add" | "update" | "remove"): void {
  sendToUsers(ctx, [s.senderId], "scheduled_messages", (queue) => {
    if (op === "remove") return { type: "scheduled_messages", op, scheduled_message_id: s.id };
    const wire = scheduledToWire(ctx, s, queue.capability("empty_topic_name"));
    return op === "add" ? { type: "scheduled_messages", op, scheduled_messages: [wire] } : { type: "scheduled_messages", op, scheduled_message: wire };
  });
}

/** A `reminders` event to the author's queues. */
export function notifyReminder(ctx: ServerContext, s: ScheduledMessage, op: "add" | "remove"): void {
  const event = op === "add" ? { type: "reminders", op, reminders: [reminderToWire(ctx, s)] } : { type: "reminders", op, reminder_id: s.id };
  sendToUsers(ctx, [s.senderId], "reminders", event);
}
