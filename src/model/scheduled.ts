/**
 * The user's messages waiting for their time: scheduled messages ("send
 * later") and message reminders, from register, kept current by their events.
 * The server sends them; a delivered or cancelled one leaves with a remove
 * event, one that failed stays with `failed` set.
 */
import type { EventOfType } from "../api/schemas/events.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import type { Reminder, ScheduledMessage } from "../api/schemas/scheduled.js";

export class Scheduled {
  readonly messages = new Map<number, ScheduledMessage>();
  readonly reminders = new Map<number, Reminder>();

  static fromRegister(reg: RegisterResponse): Scheduled {
    const s = new Scheduled();
    for (const m of reg.scheduled_messages ?? []) s.messages.set(m.scheduled_message_id, m);
    for (const r of reg.reminders ?? []) s.reminders.set(r.reminder_id, r);
    return s;
  }

  applyScheduledMessages(e: EventOfType<"scheduled_messages">): boolean {
    switch (e.op) {
      case "add":
        for (const m of e.scheduled_messages) this.messages.set(m.scheduled_message_id, m);
        return e.scheduled_messages.length > 0;
      case "update":
        this.messages.set(e.scheduled_message.scheduled_message_id, e.scheduled_message);
        return true;
      case "remove":
        return this.messages.delete(e.scheduled_message_id);
    }
  }

  applyReminders(e: EventOfType<"reminders">): boolean {
    switch (e.op) {
      case "add":
        for (const r of e.reminders) this.reminders.set(r.reminder_id, r);
        return e.reminders.length > 0;
      case "remove":
        return this.reminders.delete(e.reminder_id);
    }
  }
}
