// Scheduled messages, reminders, read receipts and navigation views: the
// client's api functions over real HTTP, every answer read by the client's
// schemas, and the events another client of the user receives.

import { describe, expect, it } from "vitest";
import {
  addNavigationView,
  createReminder,
  createScheduledMessage,
  deleteReminder,
  deleteScheduledMessage,
  getChannelId,
  getNavigationViews,
  getReadReceipts,
  getReminders,
  getScheduledMessages,
  register,
  removeNavigationView,
  sendMessage,
  updateNavigationView,
  updateScheduledMessage,
  type ApiClient,
} from "../../src/api/index.js";
import { Listener, expectApiError, uniq, useServer } from "./api-operations-kit.js";

const server = useServer();
const as = (who: string): ApiClient => server().client(who);
const userId = (short: string): number => server().server.accounts.find((a) => a.email.startsWith(`${short}@`))!.userId;
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe("scheduled messages", () => {
  it("create, list, update and delete, with scheduled_messages events to the author's other client", async () => {
    const other = await Listener.open(as("hana"), ["scheduled_messages"]);
    const general = (await getChannelId(as("hana"), "general")).stream_id;
    const topic = uniq("later");
    const at = inAnHour();
    const { scheduled_message_id: id } = await createScheduledMessage(as("hana"), { type: "stream", to: general, topic, content: "at ten", at });
    const added = await other.nextOp("scheduled_messages", "add");
    expect(added.scheduled_messages[0]).toMatchObject({ scheduled_message_id: id, to: general, topic, content: "at ten", failed: false });
    expect((await getScheduledMessages(as("hana"))).scheduled_messages.find((s) => s.scheduled_message_id === id)).toMatchObject({ scheduled_delivery_timestamp: at });

    await updateScheduledMessage(as("hana"), id, { type: "direct", to: [userId("omar")], content: "at eleven", at: at + 3600 });
    const updated = await other.nextOp("scheduled_messages", "update");
    expect(updated.scheduled_message).toMatchObject({ type: "private", to: [userId("omar")], content: "at eleven", scheduled_delivery_timestamp: at + 3600 });
    await deleteScheduledMessage(as("hana"), id);
    expect(await other.nextOp("scheduled_messages", "remove")).toMatchObject({ scheduled_message_id: id });
    await expectApiError(deleteScheduledMessage(as("hana"), id), "BAD_REQUEST", "Scheduled message does not exist", 404);
    const reg = await register(as("hana"), { fetch_event_types: ["scheduled_messages"] });
    expect(reg.scheduled_messages?.some((s) => s.scheduled_message_id === id)).toBe(false);
  });
});

describe("reminders and read receipts", () => {
  it("a reminder is created, listed, found in register and deleted, with reminders events", async () => {
    const other = await Listener.open(as("diego"), ["reminders"]);
    const { id: messageId } = await sendMessage(as("lena"), { type: "direct", to: [userId("diego")], content: "ping me tomorrow" });
    const { reminder_id: id } = await createReminder(as("diego"), { message_id: messageId, at: inAnHour(), note: "answer Lena" });
    expect((await other.nextOp("reminders", "add")).reminders[0]).toMatchObject({ reminder_id: id, reminder_target_message_id: messageId, to: [userId("diego")] });
    const listed = (await getReminders(as("diego"))).reminders;
    expect(listed.map((r) => r.reminder_id)).toContain(id);
    expect(listed.find((r) => r.reminder_id === id)?.content).toContain("Note:\n > answer Lena");
    const reg = await register(as("diego"), { fetch_event_types: ["reminders", "realm"] });
    expect(reg.reminders?.map((r) => r.reminder_id)).toContain(id);
    expect(reg.max_reminder_note_length).toBe(1000);
    await deleteReminder(as("diego"), id);
    expect(await other.nextOp("reminders", "remove")).toMatchObject({ reminder_id: id });
  });

  it("read receipts name who read the message", async () => {
    const { id } = await sendMessage(as("priya"), { type: "direct", to: [userId("ben")], content: "seen?" });
    expect((await getReadReceipts(as("priya"), id)).user_ids).toEqual([]);
    const reg = await register(as("ben"), { fetch_event_types: ["realm"] });
    expect(reg.realm_enable_read_receipts).toBe(true);
  });
});

describe("navigation views", () => {
  it("add, list, update and remove (a fragment with slashes), with navigation_view events", async () => {
    const other = await Listener.open(as("omar"), ["navigation_view"]);
    const fragment = `narrow/is/${uniq("alerted")}`;
    await addNavigationView(as("omar"), { fragment, is_pinned: true, name: "Alerts" });
    expect(await other.nextOp("navigation_view", "add")).toMatchObject({ navigation_view: { fragment, is_pinned: true, name: "Alerts" } });
    await updateNavigationView(as("omar"), fragment, { is_pinned: false });
    expect(await other.nextOp("navigation_view", "update")).toMatchObject({ fragment, data: { is_pinned: false } });
    expect((await getNavigationViews(as("omar"))).navigation_views).toContainEqual({ fragment, is_pinned: false, name: "Alerts" });
    await removeNavigationView(as("omar"), fragment);
    expect(await other.nextOp("navigation_view", "remove")).toMatchObject({ fragment });
    await expectApiError(removeNavigationView(as("omar"), fragment), "BAD_REQUEST", "Navigation view does not exist.", 404);
  });
});
