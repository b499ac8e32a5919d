// Reference server: scheduled messages ("send later") over HTTP, on a clock
// the test steps. Created, listed, edited and cancelled with their events to
// the author's other clients; delivered once at their time to everyone who
// should see them; a delivery that fails is marked failed, and the
// notification bot says why, as the service reports it.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Harness, expectError, type Client, type Json } from "../fixtures/server-client.js";

let clock = Date.UTC(2026, 0, 12, 8, 0, 0);
const nowSecs = () => Math.floor(clock / 1000);
let h: Harness;
let maya: Client; // owner
let omar: Client; // member
let lena: Client; // member
let priya: Client; // moderator
let general: number;
let leadership: number;

beforeAll(async () => {
  // Queues live longer than the time the tests step through.
  h = await Harness.start({ now: () => clock, queueIdleMs: 7 * 86400_000 });
  maya = h.as(h.account("owner"));
  priya = h.as(h.account("moderator"));
  omar = h.as(h.account("member", 0));
  lena = h.as(h.account("member", 1));
  const subs = (await maya.call("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[];
  general = subs.find((s) => s["name"] === "general")!["stream_id"];
  leadership = subs.find((s) => s["name"] === "leadership")!["stream_id"];
});
afterAll(async () => {
  expect(h.conformanceProblems()).toEqual([]);
  await h.close();
});
beforeEach(() => {
  clock += 3600_000; // every test starts later than the last one's deliveries
});

const schedule = (who: Client, params: Record<string, unknown>) => who.call("POST", "/scheduled_messages", params);
const list = async (who: Client): Promise<Json[]> => (await who.call("GET", "/scheduled_messages")).body["scheduled_messages"];

/** Moves the clock on and waits (bounded) until the server's timer has delivered what is due. */
async function stepTo(secs: number, settled: () => Promise<boolean>): Promise<void> {
  clock = secs * 1000;
  for (let i = 0; i < 100; i++) {
    if (await settled()) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error("the server did not deliver what was due");
}

describe("scheduling", () => {
  it("creates, lists (by time) and tells the author's other clients; others hear nothing", async () => {
    const mine = await maya.queue(["scheduled_messages"]);
    const theirs = await omar.queue(["scheduled_messages"]);
    const later = nowSecs() + 7200;
    const first = await schedule(maya, { type: "channel", to: general, topic: "plans", content: "**later**", scheduled_delivery_timestamp: later });
    const second = await schedule(maya, { type: "direct", to: [omar.id], content: "sooner", scheduled_delivery_timestamp: later - 60 });
    expect(first.status).toBe(200);
    const ids = [second.body["scheduled_message_id"], first.body["scheduled_message_id"]];
    const listed = (await list(maya)).filter((s) => ids.includes(s["scheduled_message_id"]));
    expect(listed).toEqual([
      { scheduled_message_id: ids[0], to: [omar.id], type: "private", content: "sooner", rendered_content: "<p>sooner</p>", scheduled_delivery_timestamp: later - 60, failed: false },
      { scheduled_message_id: ids[1], to: general, type: "stream", topic: "plans", content: "**later**", rendered_content: "<p><strong>later</strong></p>", scheduled_delivery_timestamp: later, failed: false },
    ]);
    const added = await mine.drain();
    expect(added.map((e) => [e["op"], e["scheduled_messages"][0]["scheduled_message_id"]])).toEqual([["add", ids[1]], ["add", ids[0]]]);
    expect(await theirs.drain()).toEqual([]);
    expect(await list(omar)).toEqual([]);
    const reg = await maya.call("POST", "/register", { fetch_event_types: ["scheduled_messages"] });
    expect((reg.body["scheduled_messages"] as Json[]).map((s) => s["scheduled_message_id"])).toEqual(expect.arrayContaining(ids));
    for (const id of ids) expect((await maya.call("DELETE", `/scheduled_messages/${id}`)).status).toBe(200);
  });

  it("refuses what the service refuses", async () => {
    const at = nowSecs() + 600;
    expectError(await schedule(maya, { type: "channel", to: general, topic: "t", content: "x", scheduled_delivery_timestamp: nowSecs() }), "BAD_REQUEST", "Scheduled delivery time must be in the future.");
    expectError(await schedule(maya, { type: "letter", to: general, content: "x", scheduled_delivery_timestamp: at }), "BAD_REQUEST", "Invalid type");
    expectError(await schedule(maya, { type: "stream", to: [general], topic: "t", content: "x", scheduled_delivery_timestamp: at }), "BAD_REQUEST", "Invalid data type for channel ID");
    expectError(await schedule(maya, { type: "direct", to: omar.id, content: "x", scheduled_delivery_timestamp: at }), "BAD_REQUEST", "Invalid data type for recipients");
    expectError(await schedule(maya, { type: "direct", to: [99999], content: "x", scheduled_delivery_timestamp: at }), "BAD_REQUEST", "Invalid user ID 99999");
    expectError(await schedule(omar, { type: "stream", to: leadership, topic: "t", content: "x", scheduled_delivery_timestamp: at }), "STREAM_DOES_NOT_EXIST");
    expectError(await schedule(maya, { type: "stream", to: general, topic: "t", content: "  ", scheduled_delivery_timestamp: at }), "BAD_REQUEST", "Message must not be empty");
    expectError(await schedule(maya, { type: "stream", to: general, topic: "t", content: "x" }), "REQUEST_VARIABLE_MISSING");
    expectError(await maya.call("PATCH", "/scheduled_messages/99999", { content: "y" }), "BAD_REQUEST", "Scheduled message does not exist", 404);
    expectError(await maya.call("DELETE", "/scheduled_messages/99999"), "BAD_REQUEST", "Scheduled message does not exist", 404);
    const mine = (await schedule(maya, { type: "stream", to: general, topic: "t", content: "x", scheduled_delivery_timestamp: at })).body["scheduled_message_id"];
    expectError(await omar.call("PATCH", `/scheduled_messages/${mine}`, { content: "stolen" }), "BAD_REQUEST", "Scheduled message does not exist", 404);
    expectError(await omar.call("DELETE", `/scheduled_messages/${mine}`), "BAD_REQUEST", "Scheduled message does not exist", 404);
    expectError(await maya.call("PATCH", `/scheduled_messages/${mine}`, {}), "BAD_REQUEST", "Nothing to change");
    expectError(await maya.call("PATCH", `/scheduled_messages/${mine}`, { type: "direct" }), "BAD_REQUEST", "Recipient required when updating type of scheduled message.");
    expectError(await maya.call("PATCH", `/scheduled_messages/${mine}`, { type: "stream", to: general }), "BAD_REQUEST", "Topic required when updating scheduled message type to stream.");
    expect((await maya.call("DELETE", `/scheduled_messages/${mine}`)).status).toBe(200);
  });

  it("edits content, topic, recipients and time, each an update event", async () => {
    const q = await maya.queue(["scheduled_messages"]);
    const at = nowSecs() + 900;
    const id = (await schedule(maya, { type: "stream", to: general, topic: "draft", content: "v1", scheduled_delivery_timestamp: at })).body["scheduled_message_id"];
    await q.drain();
    expect((await maya.call("PATCH", `/scheduled_messages/${id}`, { content: "v2", topic: "final" })).status).toBe(200);
    expect((await maya.call("PATCH", `/scheduled_messages/${id}`, { scheduled_delivery_timestamp: at + 60 })).status).toBe(200);
    expect((await maya.call("PATCH", `/scheduled_messages/${id}`, { type: "direct", to: [lena.id, omar.id] })).status).toBe(200);
    const updates = (await q.drain()).map((e) => e["scheduled_message"]);
    expect(updates.map((u) => [u["content"], u["topic"], u["scheduled_delivery_timestamp"], u["type"]])).toEqual([
      ["v2", "final", at, "stream"],
      ["v2", "final", at + 60, "stream"],
      ["v2", undefined, at + 60, "private"],
    ]);
    expect(updates[2]["to"]).toEqual([omar.id, lena.id].sort((a, b) => a - b));
    expect((await maya.call("DELETE", `/scheduled_messages/${id}`)).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ type: "scheduled_messages", op: "remove", scheduled_message_id: id })]);
  });
});

describe("delivery", () => {
  it("sends at its time, once, to every queue that should see it, and leaves the list", async () => {
    const author = await maya.queue(["message", "scheduled_messages"]);
    const reader = await omar.queue(["message"]);
    const at = nowSecs() + 120;
    const [first, second] = [`on time ${at}`, `ten minutes on ${at}`];
    const id = (await schedule(maya, { type: "stream", to: general, topic: "timing", content: first, scheduled_delivery_timestamp: at })).body["scheduled_message_id"];
    await schedule(maya, { type: "stream", to: general, topic: "timing", content: second, scheduled_delivery_timestamp: at + 600 });
    await author.drain();
    const contents = (events: Json[]) => events.filter((e) => e["type"] === "message").map((e) => e["message"]["content"]);

    // At the first one's time only the first goes out (the second is looked at and left).
    await stepTo(at, async () => (await list(maya)).length === 1);
    const got = await reader.drainUntil((e) => e["type"] === "message");
    expect(got.filter((e) => e["type"] === "message").map((e) => [e["message"]["content"], e["message"]["sender_id"], e["message"]["subject"]])).toEqual([
      [first, maya.id, "timing"],
    ]);
    const mine = await author.drainUntil((e) => e["type"] === "scheduled_messages");
    expect(mine.map((e) => e["type"] + "/" + (e["op"] ?? ""))).toEqual(["message/", "scheduled_messages/remove"]);
    expect(mine[0]!["flags"]).toContain("read");
    expect(mine[1]!["scheduled_message_id"]).toBe(id);

    // Once: when the second goes out, the first does not come again.
    await stepTo(at + 600, async () => (await list(maya)).length === 0);
    expect(contents(await reader.drainUntil((e) => e["type"] === "message"))).toEqual([second]);
    const found = await omar.call("GET", "/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: [{ operator: "channel", operand: general }, { operator: "topic", operand: "timing" }], apply_markdown: false });
    expect((found.body["messages"] as Json[]).filter((m) => m["content"] === first)).toHaveLength(1);
  });

  it("fails when a recipient has left, marks it failed and has the notification bot say why; a new time sends it", async () => {
    const author = await lena.queue(["message", "scheduled_messages"]);
    const at = nowSecs() + 60;
    const diego = h.account("member", 2);
    const id = (await schedule(lena, { type: "direct", to: [diego.userId], content: "see you", scheduled_delivery_timestamp: at })).body["scheduled_message_id"];
    await author.drain();
    expect((await maya.call("DELETE", `/users/${diego.userId}`)).status).toBe(200);

    await stepTo(at, async () => (await list(lena)).some((s) => s["failed"] === true));
    const events = await author.drainUntil((e) => e["type"] === "message");
    const update = events.find((e) => e["type"] === "scheduled_messages")!;
    expect(update).toMatchObject({ op: "update", scheduled_message: { scheduled_message_id: id, failed: true, content: "see you" } });
    const notice = events.find((e) => e["type"] === "message")!["message"];
    expect(notice["sender_email"]).toMatch(/^notification-bot@/);
    expect(notice["display_recipient"].map((r: Json) => r["id"]).sort()).toEqual(expect.arrayContaining([lena.id]));
    expect(notice["content"]).toContain("was not sent because of the following error:");
    expect(notice["content"]).toContain(`> '${diego.email}' is no longer using`);
    expect(notice["content"]).toContain(`<time:${new Date(at * 1000).toISOString().replace(".000", "")}>`);

    // Failed: it stays listed, and waits for a new time.
    expectError(await lena.call("PATCH", `/scheduled_messages/${id}`, { content: "see you soon" }), "BAD_REQUEST", "Scheduled delivery time must be in the future.");
    expect((await lena.call("PATCH", `/scheduled_messages/${id}`, { to: [omar.id], scheduled_delivery_timestamp: nowSecs() + 30 })).status).toBe(200);
    expect((await author.drain()).find((e) => e["type"] === "scheduled_messages")).toMatchObject({ op: "update", scheduled_message: { failed: false, to: [omar.id] } });
    await stepTo(nowSecs() + 30, async () => (await list(lena)).length === 0);
    expect((await author.drainUntil((e) => e["type"] === "message"))[0]!["message"]["content"]).toBe("see you");
  });

  it("fails when the author lost access to the private channel", async () => {
    const at = nowSecs() + 60;
    const id = (await schedule(priya, { type: "stream", to: leadership, topic: "q1", content: "numbers", scheduled_delivery_timestamp: at })).body["scheduled_message_id"];
    expect((await priya.call("DELETE", "/users/me/subscriptions", { subscriptions: ["leadership"] })).status).toBe(200);
    const q = await priya.queue(["message"]);
    await stepTo(at, async () => (await list(priya)).some((s) => s["scheduled_message_id"] === id && s["failed"]));
    const notice = (await q.drainUntil((e) => e["type"] === "message"))[0]!["message"];
    expect(notice["content"]).toContain("> Not authorized to send to channel 'leadership'");
  });

  it("does not send a message more than ten minutes late", async () => {
    const at = nowSecs() + 60;
    const id = (await schedule(omar, { type: "stream", to: general, topic: "late", content: "stale news", scheduled_delivery_timestamp: at })).body["scheduled_message_id"];
    const q = await omar.queue(["message"]);
    await stepTo(at + 11 * 60, async () => (await list(omar)).some((s) => s["scheduled_message_id"] === id && s["failed"]));
    const notice = (await q.drainUntil((e) => e["type"] === "message"))[0]!["message"];
    expect(notice["content"]).toContain("> Message could not be sent at the scheduled time.");
    expect((await omar.call("DELETE", `/scheduled_messages/${id}`)).status).toBe(200);
  });
});
