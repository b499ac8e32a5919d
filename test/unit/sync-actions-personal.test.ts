/**
 * The actions for messages for later and the user's own records, over a fake
 * connection: what goes on the wire, and what an older server or an
 * organization without read receipts gets instead (a sentence, no request).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createNavigationView, createSnippet, deleteSnippet, editNavigationView, editSnippet, readReceipts, removeNavigationView } from "../../src/sync/actions/personal.js";
import {
  cancelReminder,
  cancelScheduledMessage,
  editScheduledMessage,
  rescheduleMessage,
  scheduleMessage,
  sendScheduledNow,
  setReminder,
} from "../../src/sync/actions/scheduled.js";
import type { AccountRuntime } from "../../src/sync/account-runtime.js";
import { useActionSession } from "../fixtures/action-session.js";
import * as eg from "../fixtures/example.js";
import type { fakeConnection } from "../fixtures/fake-connection.js";

const fixture = useActionSession();
let conn: ReturnType<typeof fakeConnection>;
let session: AccountRuntime;
beforeEach(() => {
  eg.resetIds();
  conn = fixture.conn();
  session = fixture.session();
});

/** The session's store as the server at `featureLevel` would have built it. */
function serverAt(featureLevel: number, register: Record<string, unknown> = {}) {
  session.machine.store = eg.store({ svc_feature_level: featureLevel, ...register });
  return session.machine.store;
}

const wire = () => {
  const r = conn.last();
  return { method: r.method, path: r.path, form: Object.fromEntries(r.form) };
};

describe("scheduled messages", () => {
  it("schedule to a topic or to people; the value is the new ID", async () => {
    serverAt(496);
    conn.prepare({ body: { result: "success", msg: "", scheduled_message_id: 17 } });
    expect(await scheduleMessage(session, { type: "stream", channelId: 10, topic: "plans" }, "at ten", 1_800_000_000)).toEqual({ ok: true, value: 17 });
    expect(wire()).toEqual({
      method: "POST",
      path: "/api/v1/scheduled_messages",
      form: { type: "stream", to: "10", topic: "plans", content: "at ten", scheduled_delivery_timestamp: "1800000000" },
    });
    conn.prepare({ body: { result: "success", msg: "", scheduled_message_id: 18 } });
    await scheduleMessage(session, { type: "direct", userIds: [3, 2] }, "hi", 1_800_000_060);
    expect(wire().form).toEqual({ type: "direct", to: "[3,2]", content: "hi", scheduled_delivery_timestamp: "1800000060" });
  });

  it("reschedule, edit (text and target) and cancel", async () => {
    serverAt(496);
    expect(await rescheduleMessage(session, 17, 1_800_000_600)).toEqual({ ok: true, value: undefined });
    expect(wire()).toEqual({ method: "PATCH", path: "/api/v1/scheduled_messages/17", form: { scheduled_delivery_timestamp: "1800000600" } });
    await editScheduledMessage(session, 17, { content: "at eleven", target: { type: "direct", userIds: [2] } });
    expect(wire().form).toEqual({ content: "at eleven", type: "direct", to: "[2]" });
    await cancelScheduledMessage(session, 17);
    expect([wire().method, wire().path]).toEqual(["DELETE", "/api/v1/scheduled_messages/17"]);
  });

  it("send now: off the schedule first, then into the outbox; one already gone is said so and not sent", async () => {
    const store = serverAt(496, { scheduled_messages: [eg.scheduledMessage({ scheduled_message_id: 5, content: "now please" })] });
    const r = await sendScheduledNow(session, 5);
    expect(r.ok).toBe(true);
    expect([conn.requests[0]!.method, conn.requests[0]!.path]).toEqual(["DELETE", "/api/v1/scheduled_messages/5"]);
    expect(session.outbox.all().map((e) => [e.content, e.target])).toEqual([["now please", { type: "stream", channelId: 10, topic: "plans" }]]);

    store.scheduled.messages.set(6, eg.scheduledMessage({ scheduled_message_id: 6 }));
    conn.prepare({ status: 404, body: { result: "error", code: "BAD_REQUEST", msg: "Scheduled message does not exist" } });
    expect(await sendScheduledNow(session, 6)).toEqual({ ok: false, error: { code: "BAD_REQUEST", message: "That scheduled message is no longer waiting: it was sent or cancelled." } });
    expect(session.outbox.all()).toHaveLength(1);
    expect((await sendScheduledNow(session, 99)).ok).toBe(false);
  });

  it("an older server is told nothing: the action says what it lacks", async () => {
    serverAt(170);
    const r = await scheduleMessage(session, { type: "stream", channelId: 10, topic: "t" }, "x", 1_800_000_000);
    expect(r).toEqual({ ok: false, error: { code: "UNSUPPORTED_FEATURE", message: "This server is too old for scheduled messages (feature level 170; 179 or newer is needed)." } });
    serverAt(180);
    expect((await rescheduleMessage(session, 1, 1_800_000_000)).ok).toBe(false);
    expect(conn.requests).toEqual([]);
  });
});

describe("reminders", () => {
  it("set with a note, and cancel", async () => {
    serverAt(496);
    conn.prepare({ body: { result: "success", msg: "", reminder_id: 4 } });
    expect(await setReminder(session, 5001, 1_800_000_000, " look again ")).toEqual({ ok: true, value: 4 });
    expect(wire()).toEqual({ method: "POST", path: "/api/v1/reminders", form: { message_id: "5001", scheduled_delivery_timestamp: "1800000000", note: "look again" } });
    await cancelReminder(session, 4);
    expect([wire().method, wire().path]).toEqual(["DELETE", "/api/v1/reminders/4"]);
  });

  it("refuse a note the server is too old for or the organization's limit does not allow", async () => {
    serverAt(400);
    expect((await setReminder(session, 5001, 1_800_000_000, "a note")).ok).toBe(false);
    serverAt(496, { max_reminder_note_length: 5 });
    expect(await setReminder(session, 5001, 1_800_000_000, "too long")).toEqual({ ok: false, error: { message: "The note is longer than the 5 characters a reminder may carry." } });
    serverAt(390);
    expect((await cancelReminder(session, 4)).ok).toBe(false);
    expect(conn.requests).toEqual([]);
  });
});

describe("read receipts", () => {
  it("lists the readers; where the organization turned them off, says so without asking", async () => {
    serverAt(496, { realm_enable_read_receipts: true });
    conn.prepare({ body: { result: "success", msg: "", user_ids: [2, 3] } });
    expect(await readReceipts(session, 5001)).toEqual({ ok: true, value: [2, 3] });
    expect([wire().method, wire().path]).toEqual(["GET", "/api/v1/messages/5001/read_receipts"]);

    conn.prepare({ body: { result: "error", code: "BAD_REQUEST", msg: "Read receipts are disabled in this organization." }, status: 400 });
    expect(await readReceipts(session, 5001)).toEqual({ ok: false, error: { code: "READ_RECEIPTS_UNAVAILABLE", message: "Read receipts are turned off in this organization." } });

    serverAt(496, { realm_enable_read_receipts: false });
    const before = conn.requests.length;
    expect(await readReceipts(session, 5001)).toEqual({ ok: false, error: { code: "READ_RECEIPTS_UNAVAILABLE", message: "Read receipts are turned off in this organization." } });
    expect(conn.requests).toHaveLength(before);
  });
});

describe("saved snippets and navigation views", () => {
  it("snippets: create (the value is the ID), edit, delete; editing needs feature level 368", async () => {
    serverAt(496);
    conn.prepare({ body: { result: "success", msg: "", saved_snippet_id: 3 } });
    expect(await createSnippet(session, { title: "Thanks", content: "Thanks, **merged**!" })).toEqual({ ok: true, value: 3 });
    await editSnippet(session, 3, { content: "Thanks!" });
    expect(wire()).toEqual({ method: "PATCH", path: "/api/v1/saved_snippets/3", form: { content: "Thanks!" } });
    await deleteSnippet(session, 3);
    serverAt(300);
    expect((await editSnippet(session, 3, { title: "x" })).ok).toBe(false);
    expect(conn.requests).toHaveLength(3);
  });

  it("views: a built-in one without a record is pinned by adding one; others are edited with the fragment escaped", async () => {
    serverAt(496, { navigation_views: [{ fragment: "narrow/is/alerted", is_pinned: true, name: "Alerts" }] });
    await editNavigationView(session, "recent", { isPinned: false });
    expect(wire()).toEqual({ method: "POST", path: "/api/v1/navigation_views", form: { fragment: "recent", is_pinned: "false" } });
    await editNavigationView(session, "narrow/is/alerted", { name: " Watched " });
    expect(wire()).toEqual({ method: "PATCH", path: "/api/v1/navigation_views/narrow%2Fis%2Falerted", form: { name: "Watched" } });
    await removeNavigationView(session, "narrow/is/alerted");
    expect([wire().method, wire().path]).toEqual(["DELETE", "/api/v1/navigation_views/narrow%2Fis%2Falerted"]);
    expect(await createNavigationView(session, { fragment: "inbox", isPinned: true, name: "Mine" })).toEqual({ ok: false, error: { message: "A built-in view keeps its own name." } });
    expect(await createNavigationView(session, { fragment: "narrow/is/dm", isPinned: true })).toEqual({ ok: false, error: { message: "A custom view needs a name." } });
    serverAt(389);
    expect((await createNavigationView(session, { fragment: "narrow/is/dm", isPinned: true, name: "DMs" })).ok).toBe(false);
    expect(conn.requests).toHaveLength(3);
  });
});
