/**
 * Messages for later: schedule, reschedule, edit, send now and cancel a
 * scheduled message; set and cancel a reminder on a message. The server
 * keeps them and sends them at their time; the store follows through the
 * `scheduled_messages` and `reminders` events. On a server too old for one of
 * them the action says so and sends nothing.
 */
import { ApiError } from "../../api/errors.js";
import {
  createReminder,
  createScheduledMessage,
  deleteReminder,
  deleteScheduledMessage,
  updateScheduledMessage,
  type ScheduledMessageChange,
} from "../../api/routes/scheduled-messages.js";
import type { SendTarget } from "../outbox-file.js";
import { actionError, command, failed, request, succeeded, unsupported, type ActionResult, type ActionSession } from "./result.js";

/** The API's form of a target. */
function wireTarget(target: SendTarget): { type: "stream"; to: number; topic: string } | { type: "direct"; to: number[] } {
  return target.type === "stream" ? { type: "stream", to: target.channelId, topic: target.topic } : { type: "direct", to: target.userIds };
}

/** Schedules `content` for `target` at `at` (UNIX seconds); the value is the scheduled message's ID. */
export async function scheduleMessage(session: ActionSession, target: SendTarget, content: string, at: number): Promise<ActionResult<number>> {
  const no = unsupported(session, "scheduledMessages");
  if (no) return no;
  const r = await request(session, (c) => createScheduledMessage(c, { ...wireTarget(target), content, at }));
  return r.ok ? succeeded(r.value.scheduled_message_id) : r;
}

/** Moves a scheduled message to a new time (one that failed goes out again then). */
export function rescheduleMessage(session: ActionSession, id: number, at: number): Promise<ActionResult> {
  return editScheduledMessage(session, id, { at });
}

/** Changes a scheduled message's text, target or time; what is left out stays. */
export function editScheduledMessage(
  session: ActionSession,
  id: number,
  change: { content?: string; target?: SendTarget; at?: number },
): Promise<ActionResult> {
  const no = unsupported(session, "editScheduledMessages");
  if (no) return Promise.resolve(no);
  const p: ScheduledMessageChange = { content: change.content, at: change.at };
  if (change.target) Object.assign(p, wireTarget(change.target));
  return command(session, (c) => updateScheduledMessage(c, id, p));
}

export function cancelScheduledMessage(session: ActionSession, id: number): Promise<ActionResult> {
  const no = unsupported(session, "scheduledMessages");
  if (no) return Promise.resolve(no);
  return command(session, (c) => deleteScheduledMessage(c, id));
}

/**
 * Sends a scheduled message now: it is taken off the server's schedule first (so the
 * server cannot send it too), then handed to the outbox, which sends it exactly once,
 * whatever the connection does. The value is the outbox entry's ID.
 */
export async function sendScheduledNow(session: ActionSession, id: number): Promise<ActionResult<string>> {
  const no = unsupported(session, "scheduledMessages");
  if (no) return no;
  const m = session.machine.store?.scheduled.messages.get(id);
  if (!m) return failed("That scheduled message is no longer waiting: it was sent or cancelled.");
  const target: SendTarget = typeof m.to === "number" ? { type: "stream", channelId: m.to, topic: m.topic ?? "" } : { type: "direct", userIds: m.to };
  try {
    await deleteScheduledMessage(session.machine.client, id);
  } catch (err) {
    // Gone from the server meanwhile: its time came, or another client cancelled it.
    if (err instanceof ApiError && err.status === 404) return failed("That scheduled message is no longer waiting: it was sent or cancelled.", err.code);
    return { ok: false, error: actionError(err) };
  }
  return succeeded(session.outbox.enqueue(target, m.content).id);
}

/** Sets a reminder about a message at `at` (UNIX seconds), with an optional note; the value is its ID. */
export async function setReminder(session: ActionSession, messageId: number, at: number, note?: string): Promise<ActionResult<number>> {
  const no = unsupported(session, "reminders") ?? (note ? unsupported(session, "reminderNotes") : undefined);
  if (no) return no;
  const limit = session.machine.store?.realm.maxReminderNoteLength;
  if (note && limit !== undefined && [...note.trim()].length > limit) {
    return failed(`The note is longer than the ${limit} characters a reminder may carry.`);
  }
  const r = await request(session, (c) => createReminder(c, { message_id: messageId, at, note: note?.trim() || undefined }));
  return r.ok ? succeeded(r.value.reminder_id) : r;
}

export function cancelReminder(session: ActionSession, reminderId: number): Promise<ActionResult> {
  const no = unsupported(session, "reminderList");
  if (no) return Promise.resolve(no);
  return command(session, (c) => deleteReminder(c, reminderId));
}

