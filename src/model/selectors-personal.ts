/**
 * Selectors for the user's own lists: scheduled messages and reminders by
 * time with their state, saved snippets by title, and whether read receipts
 * can be shown. Pure functions over the store.
 */
import type { SavedSnippet } from "../api/schemas/common.js";
import type { Reminder, ScheduledMessage } from "../api/schemas/scheduled.js";
import { missingFeature } from "./features.js";
import { dmParticipants, type Narrow } from "./narrow.js";
import type { Store } from "./store.js";
import { compareNames } from "./name-order.js";

/**
 * - `scheduled`: waiting for its time;
 * - `due`: its time has come and the server is sending it (it leaves the list when sent);
 * - `failed`: the server tried and could not; it waits for a new time, an edit or a cancel.
 */
export type ScheduledState = "scheduled" | "due" | "failed";

export interface ScheduledRow {
  id: number;
  /** UNIX seconds. */
  at: number;
  /** Where it goes: a topic, or a direct message conversation (the narrow that will show it). */
  target: Extract<Narrow, { kind: "topic" } | { kind: "dm" }>;
  content: string;
  state: ScheduledState;
}

export interface ReminderRow {
  id: number;
  at: number;
  /** The message reminded of. */
  messageId: number;
  /** The text the reminder will carry (the server's; it quotes the message). */
  content: string;
  state: ScheduledState;
}

function stateOf(r: { failed: boolean; scheduled_delivery_timestamp: number }, nowSecs: number): ScheduledState {
  if (r.failed) return "failed";
  return r.scheduled_delivery_timestamp <= nowSecs ? "due" : "scheduled";
}

function targetOf(store: Store, m: ScheduledMessage): ScheduledRow["target"] {
  if (typeof m.to === "number") return { kind: "topic", channelId: m.to, topic: m.topic ?? "" };
  return { kind: "dm", userIds: dmParticipants(m.to, store.selfId) };
}

const byTime = (a: { at: number; id: number }, b: { at: number; id: number }) => a.at - b.at || a.id - b.id;

/** The user's scheduled messages, soonest first. `nowMs` decides which are due. */
export function scheduledRows(store: Store, nowMs: number = store.now()): ScheduledRow[] {
  const now = nowMs / 1000;
  return [...store.scheduled.messages.values()]
    .map((m) => ({ id: m.scheduled_message_id, at: m.scheduled_delivery_timestamp, target: targetOf(store, m), content: m.content, state: stateOf(m, now) }))
    .sort(byTime);
}

/** The user's reminders, soonest first. */
export function reminderRows(store: Store, nowMs: number = store.now()): ReminderRow[] {
  const now = nowMs / 1000;
  return [...store.scheduled.reminders.values()].map((r) => reminderRow(r, now)).sort(byTime);
}

function reminderRow(r: Reminder, now: number): ReminderRow {
  return { id: r.reminder_id, at: r.scheduled_delivery_timestamp, messageId: r.reminder_target_message_id, content: r.content, state: stateOf(r, now) };
}

/** Reminders set on one message, soonest first (a message may carry several). */
export function remindersOf(store: Store, messageId: number, nowMs: number = store.now()): ReminderRow[] {
  return reminderRows(store, nowMs).filter((r) => r.messageId === messageId);
}

/** Saved snippets by title; with a query, those whose title holds it (any case). */
export function snippetsByTitle(store: Store, query = ""): SavedSnippet[] {
  const q = query.trim().toLocaleLowerCase();
  return [...store.personal.savedSnippets.values()]
    .filter((s) => q === "" || s.title.toLocaleLowerCase().includes(q))
    .sort((a, b) => compareNames(a.title, b.title) || a.id - b.id);
}

/** Why read receipts cannot be shown here (an older server, or the organization turned them off); undefined when they can. */
export function readReceiptsUnavailable(store: Store): string | undefined {
  const missing = missingFeature(store.realm.featureLevel, "readReceipts");
  if (missing) return missing;
  const live = store.realm.settings["enable_read_receipts"];
  // Not said (a register without the organization's section): the server answers for itself.
  const enabled = typeof live === "boolean" ? live : (store.realm.readReceiptsEnabled ?? true);
  return enabled ? undefined : "Read receipts are turned off in this organization.";
}
