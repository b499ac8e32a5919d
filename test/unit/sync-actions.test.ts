/**
 * The actions the UI performs against the server, over a fake connection:
 * what goes on the wire, what the local state does, and the one failure
 * shape every screen shows.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { deleteLocalDraft, deleteServerDraft } from "../../src/sync/actions/drafts.js";
import { deleteMessage, editKey, editMessage, messageSource } from "../../src/sync/actions/messages.js";
import { actionError, perform } from "../../src/sync/actions/result.js";
import { setMarkReadPolicy } from "../../src/sync/actions/account.js";
import { changeSubscriptions, setTopicVisibility, VisibilityPolicy } from "../../src/sync/actions/channels.js";
import { markAllRead, markNarrowRead } from "../../src/sync/actions/flags.js";
import type { Store } from "../../src/model/store.js";
import type { AccountRuntime } from "../../src/sync/account-runtime.js";
import { ApiError, NetworkError, SchemaError } from "../../src/api/errors.js";
import { useActionSession } from "../fixtures/action-session.js";
import type { fakeConnection } from "../fixtures/fake-connection.js";
import * as eg from "../fixtures/example.js";

const refusal = (code: string, msg: string, status = 400) => ({ status, body: { result: "error", code, msg } });

const fixture = useActionSession();
let conn: ReturnType<typeof fakeConnection>;
let session: AccountRuntime;
beforeEach(() => {
  conn = fixture.conn();
  session = fixture.session();
});

describe("edit", () => {
  it("saves the new text and topic, then forgets the edit kept in the journal", async () => {
    session.journal.update(editKey(41), "fixed text");
    const r = await editMessage(session, 41, { content: "fixed text", topic: "Plans", propagate_mode: "change_one" });
    expect(r).toEqual({ ok: true, value: "saved" });
    const req = conn.last();
    expect([req.method, req.path]).toEqual(["PATCH", "/api/v1/messages/41"]);
    expect(req.form.get("content")).toBe("fixed text");
    expect(req.form.get("topic")).toBe("Plans");
    expect(session.journal.get(editKey(41))).toBeUndefined();
  });

  it("a refusal comes back as the server's message and code, and the edit's text is kept", async () => {
    session.journal.update(editKey(41), "too late");
    conn.prepare(refusal("BAD_REQUEST", "The time limit for editing this message has passed"));
    const r = await editMessage(session, 41, { content: "too late" });
    expect(r).toEqual({
      ok: false,
      error: { code: "BAD_REQUEST", message: "The time limit for editing this message has passed (BAD_REQUEST)" },
    });
    expect(session.journal.get(editKey(41))).toBe("too late");
    expect(conn.requests).toHaveLength(1); // an edit is never repeated on its own
  });
});

describe("delete and read a message", () => {
  it("deletes by id, and reports a message that is gone already", async () => {
    expect(await deleteMessage(session, 7)).toEqual({ ok: true, value: undefined });
    expect([conn.last().method, conn.last().path]).toEqual(["DELETE", "/api/v1/messages/7"]);
    conn.prepare(refusal("BAD_REQUEST", "Invalid message(s)"));
    expect(await deleteMessage(session, 7)).toEqual({ ok: false, error: { code: "BAD_REQUEST", message: "Invalid message(s) (BAD_REQUEST)" } });
  });

  it("an answer in the wrong shape is a failure, not a value", async () => {
    conn.prepare({ body: { result: "success", msg: "", message: { content: 5 } } });
    const r = await messageSource(session, 7);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe("schema");
      expect(r.error.message).toMatch(/^Unexpected response from/);
    }
  });
});

describe("drafts", () => {
  it("a server draft is deleted through draft sync; one already gone is what was wanted", async () => {
    expect(await deleteServerDraft(session, 12)).toEqual({ ok: true, value: undefined });
    expect([conn.last().method, conn.last().path]).toEqual(["DELETE", "/api/v1/drafts/12"]);
    conn.prepare(refusal("BAD_REQUEST", "Draft does not exist", 404));
    expect(await deleteServerDraft(session, 12)).toEqual({ ok: true, value: undefined });
  });

  it("a server draft that cannot be reached keeps the failure shape", async () => {
    conn.prepare(...Array.from({ length: 10 }, () => ({ status: 503, body: "unavailable" })));
    const r = await deleteServerDraft(session, 12);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe("server");
  });

  it("a journal draft is cleared locally; draft sync takes it off the server later", async () => {
    session.journal.update("stream:10:Plans", "half a thought", { type: "stream", channelId: 10, topic: "Plans" });
    expect(deleteLocalDraft(session, "stream:10:Plans")).toEqual({ ok: true, value: undefined });
    expect(session.journal.get("stream:10:Plans")).toBeUndefined();
    expect(conn.requests).toHaveLength(0); // not live: nothing sent yet
  });
});

describe("flags and settings", () => {
  it("marking everything read asks again while the server says it is not done, then succeeds", async () => {
    const partial = { body: { result: "success", msg: "", complete: false } };
    conn.prepare(partial, partial, { body: { result: "success", msg: "", complete: true } });
    expect(await markAllRead(session)).toEqual({ ok: true, value: undefined });
    expect(conn.requests.map((r) => r.path)).toEqual(Array(3).fill("/api/v1/mark_all_as_read"));
  });

  it("marking a topic read goes on in batches while the server has more, and stops when its answer does not move on", async () => {
    const unread = [eg.streamMessage({ subject: "lunch" }), eg.streamMessage({ subject: "lunch" })];
    const store = eg.store({ unread_msgs: eg.unreadMessages(unread) });
    const batch = (last: number | null, foundNewest: boolean) => ({
      status: 200,
      body: { result: "success", msg: "", processed_count: 1000, updated_count: 10, first_processed_id: 1, last_processed_id: last, found_oldest: true, found_newest: foundNewest },
    });
    // The second answer repeats the first: a server that does not move on must not keep the client asking.
    const first = unread[0]!.id;
    conn.prepare(batch(first + 50, false), batch(first + 50, false), batch(first + 90, false));
    const r = await markNarrowRead(session, store, { kind: "topic", channelId: 10, topic: "lunch" });
    expect(r.ok).toBe(true);
    expect(conn.requests).toHaveLength(2);
    // From the topic's oldest unread message ("first_unread" is looked for outside muted topics: a muted one would stay unread).
    expect(conn.requests.map((q) => [q.form.get("anchor"), q.form.get("include_anchor")])).toEqual([
      [String(first), "true"],
      [String(first + 50), "false"],
    ]);
  });

  it("marking a narrow read starts at the oldest message when the client does not know the first unread one", async () => {
    const store = eg.store({ unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: true } });
    conn.prepare({ status: 200, body: { result: "success", msg: "", processed_count: 3, updated_count: 3, first_processed_id: 1, last_processed_id: 3, found_oldest: true, found_newest: true } });
    expect((await markNarrowRead(session, store, { kind: "dm", userIds: [2] })).ok).toBe(true);
    expect(conn.requests.map((q) => q.form.get("anchor"))).toEqual(["oldest"]);
  });

  it("search results are not marked read: a failure with a reason, and nothing asked of the server", async () => {
    const r = await markNarrowRead(session, {} as Store, { kind: "search", query: "lunch" });
    expect(r).toEqual({ ok: false, error: { message: "Search results are not marked read; open a topic or channel first" } });
    expect(conn.requests).toHaveLength(0);
  });

  it("subscription settings and a topic's visibility go as the server expects them", async () => {
    expect(await changeSubscriptions(session, [{ stream_id: 10, property: "is_muted", value: true }])).toEqual({ ok: true, value: undefined });
    expect(conn.last().path).toBe("/api/v1/users/me/subscriptions/properties");
    expect(JSON.parse(conn.last().form.get("subscription_data")!)).toEqual([{ stream_id: 10, property: "is_muted", value: true }]);
    conn.prepare(refusal("BAD_REQUEST", "Invalid channel ID"));
    const r = await setTopicVisibility(session, 99, "Plans", VisibilityPolicy.Followed);
    expect(r).toEqual({ ok: false, error: { code: "BAD_REQUEST", message: "Invalid channel ID (BAD_REQUEST)" } });
    expect(conn.last().form.get("visibility_policy")).toBe("3");
  });
});

describe("the failure shape", () => {
  it("is made in one place from every kind of api error", () => {
    expect(actionError(new ApiError(400, "STREAM_DOES_NOT_EXIST", "Channel 'x' does not exist"))).toEqual({
      code: "STREAM_DOES_NOT_EXIST",
      message: "Channel 'x' does not exist (STREAM_DOES_NOT_EXIST)",
    });
    expect(actionError(new NetworkError("send: cannot reach the server (ECONNREFUSED)", "connect"))).toEqual({
      code: "network",
      message: "send: cannot reach the server (ECONNREFUSED)",
    });
    expect(actionError(new SchemaError("GET /users", "not JSON"))).toEqual({ code: "schema", message: "Unexpected response from GET /users: not JSON" });
    expect(actionError(new Error("Search results are not marked read"))).toEqual({ message: "Search results are not marked read" });
  });

  it("perform turns anything thrown into a failure, never a rejection", async () => {
    await expect(perform(async () => { throw new Error("no"); })).resolves.toEqual({ ok: false, error: { message: "no" } });
    await expect(perform(async () => 3)).resolves.toEqual({ ok: true, value: 3 });
  });
});

describe("when viewing marks messages read", () => {
  it("sends the setting's number; a server without the setting (it says it ignored it) is a failure that says why", async () => {
    expect(await setMarkReadPolicy(session, "conversations")).toEqual({ ok: true, value: undefined });
    expect([conn.last().method, conn.last().path]).toEqual(["PATCH", "/api/v1/settings"]);
    expect(conn.last().form.get("web_mark_read_on_scroll_policy")).toBe("2");
    conn.prepare({ status: 200, body: { result: "success", msg: "", ignored_parameters_unsupported: ["web_mark_read_on_scroll_policy"] } });
    const r = await setMarkReadPolicy(session, "never");
    expect(r).toEqual({ ok: false, error: { message: "This server has no setting for marking messages read (it came with feature level 175)" } });
  });
});
