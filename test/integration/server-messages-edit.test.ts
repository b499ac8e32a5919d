// Editing, moving, resolving and deleting messages, with the events another
// user's queue receives.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { account, client, ids, pending, register, send, start, type Api, type Json } from "./server-test-client.js";

let server: RunningServer;
let maya: Api;
let lena: Api;
let omar: Api;
let ben: Api;
let sam: Api;
let lenaId: number;

beforeAll(async () => {
  server = await start();
  maya = client(server, server.accounts[0]!);
  ben = client(server, account(server, "admin"));
  omar = client(server, account(server, "member", 0));
  const lenaAcc = account(server, "member", 1);
  lenaId = lenaAcc.userId;
  lena = client(server, lenaAcc);
  sam = client(server, account(server, "guest"));
});

const msg = async (api: Api, id: number, extra: Record<string, unknown> = {}) => (await api("GET", `/messages/${id}`, extra)).body["message"] as Json;
const stream = (name: string) => ({ type: "stream", to: name });

describe("content edits", () => {
  it("lets the sender edit, records history, and tells the other recipients", async () => {
    const q = await register(maya, { event_types: ["update_message"], client_capabilities: { empty_topic_name: true } });
    const id = await send(lena, { ...stream("engineering"), topic: "edit-lab", content: "first version" });
    const res = await lena("PATCH", `/messages/${id}`, { content: "second version for @**Maya Okafor**" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [event] = await pending(maya, q["queue_id"]);
    expect(event).toMatchObject({
      type: "update_message", user_id: lenaId, message_id: id, message_ids: [id], rendering_only: false,
      orig_content: "first version", orig_rendered_content: "<p>first version</p>",
      content: "second version for @**Maya Okafor**", is_me_message: false, stream_name: "engineering",
    });
    expect(event!["rendered_content"]).toContain('class="user-mention"');
    expect(event!["flags"]).toContain("mentioned");
    expect(typeof event!["edit_timestamp"]).toBe("number");
    expect(event).not.toHaveProperty("propagate_mode");
    const m = await msg(maya, id);
    expect(m.last_edit_timestamp).toBe(event!["edit_timestamp"]);
    expect(m.edit_history).toEqual([{ user_id: lenaId, timestamp: event!["edit_timestamp"], prev_content: "first version", prev_rendered_content: "<p>first version</p>" }]);
    expect(m).not.toHaveProperty("last_moved_timestamp");
    const history = (await maya("GET", `/messages/${id}/history`)).body["message_history"];
    expect(history).toHaveLength(2);
    expect(history[0]).toMatchObject({ content: "first version", user_id: lenaId, topic: "edit-lab" });
    expect(history[1]).toMatchObject({ content: "second version for @**Maya Okafor**", prev_content: "first version", user_id: lenaId });
  });

  it("refuses content edits by others, empty requests and bad propagate modes", async () => {
    const id = await send(lena, { ...stream("engineering"), topic: "edit-lab", content: "mine" });
    expect((await ben("PATCH", `/messages/${id}`, { content: "x" })).body["msg"]).toBe("You don't have permission to edit this message");
    expect((await lena("PATCH", `/messages/${id}`, {})).body["msg"]).toBe("Nothing to change");
    expect((await lena("PATCH", `/messages/${id}`, { content: "y", propagate_mode: "change_all" })).body["msg"]).toBe("Invalid propagate_mode without topic edit");
    expect((await lena("PATCH", `/messages/${id}`, { topic: "t", propagate_mode: "sideways" })).status).toBe(400);
    expect((await lena("PATCH", `/messages/${id}`, { content: "z", stream_id: 1 })).status).toBe(400);
    expect((await lena("PATCH", "/messages/99999999", { content: "z" })).body["msg"]).toBe("Invalid message(s)");
  });
});

describe("moves between topics", () => {
  it("change_one, change_later and change_all, keeping flags, with events and notifications", async () => {
    const q = await register(maya, { event_types: ["update_message", "message"] });
    const a = await send(lena, { ...stream("engineering"), topic: "move-lab", content: "a" });
    const b = await send(lena, { ...stream("engineering"), topic: "move-lab", content: "b" });
    const c = await send(lena, { ...stream("engineering"), topic: "move-lab", content: "c" });
    await maya("POST", "/messages/flags", { messages: [a], op: "add", flag: "starred" });
    await maya("POST", "/messages/flags", { messages: [c], op: "add", flag: "read" });

    expect((await lena("PATCH", `/messages/${b}`, { topic: "move-one", propagate_mode: "change_one" })).status).toBe(200);
    expect((await lena("PATCH", `/messages/${a}`, { topic: "move-later", propagate_mode: "change_later" })).status).toBe(200);
    expect((await lena("PATCH", `/messages/${c}`, { topic: "move-all", propagate_mode: "change_all", send_notification_to_old_thread: true, send_notification_to_new_thread: false })).status).toBe(200);

    const events = (await pending(maya, q["queue_id"])).filter((e) => e.type !== "message" || e.message.sender_full_name === "Notification Bot");
    const updates = events.filter((e) => e.type === "update_message");
    // change_all also takes the notice the previous move posted in "move-later".
    const laterNotice = events.find((e) => e.type === "message" && e.message.subject === "move-later")!.message.id;
    expect(updates.map((e) => [e.propagate_mode, e.orig_subject, e.subject, e.message_ids])).toEqual([
      ["change_one", "move-lab", "move-one", [b]],
      ["change_later", "move-lab", "move-later", [a, c]],
      ["change_all", "move-later", "move-all", [a, c, laterNotice]],
    ]);
    for (const e of updates) expect(e).toMatchObject({ stream_id: expect.any(Number), user_id: lenaId, rendering_only: false, topic_links: [] });
    expect(updates[1]!.flags).toContain("starred"); // flags of message_id (a)
    const notices = events.filter((e) => e.type === "message").map((e) => [e.message.subject, e.message.content as string]);
    expect(notices).toHaveLength(3);
    expect(notices[0]![0]).toBe("move-one");
    expect(notices[0]![1]).toContain("#**engineering>move-lab**");
    expect(notices[1]![0]).toBe("move-later");
    expect(notices[2]![0]).toBe("move-later"); // to the old thread only
    expect(notices[2]![1]).toContain("#**engineering>move-all**");

    const movedA = await msg(maya, a, { apply_markdown: false });
    expect(movedA.subject).toBe("move-all");
    expect(movedA.flags).toContain("starred");
    expect(typeof movedA.last_moved_timestamp).toBe("number");
    expect(movedA.edit_history.map((e: Json) => [e.prev_topic, e.topic])).toEqual([["move-later", "move-all"], ["move-lab", "move-later"]]);
    expect((await msg(maya, c)).flags).toContain("read");
    expect(await ids(maya, [{ operator: "channel", operand: "engineering" }, { operator: "topic", operand: "move-lab" }])).toEqual([]);
  });

  it("resolves and unresolves a topic without counting as a move", async () => {
    const q = await register(maya, { event_types: ["update_message", "message"] });
    const id = await send(lena, { ...stream("engineering"), topic: "resolve-lab", content: "done?" });
    expect((await omar("PATCH", `/messages/${id}`, { topic: "✔ resolve-lab", propagate_mode: "change_all" })).status).toBe(200);
    const m = await msg(maya, id);
    expect(m.subject).toBe("✔ resolve-lab");
    expect(m).not.toHaveProperty("last_moved_timestamp");
    expect(await ids(maya, [{ operator: "is", operand: "resolved" }, { operator: "topic", operand: "✔ resolve-lab" }])).toContain(id);
    const notice = (await pending(maya, q["queue_id"])).find((e) => e.type === "message" && e.message.subject === "✔ resolve-lab");
    expect(notice!.message.content).toContain("marked this topic as resolved");
    expect((await omar("PATCH", `/messages/${id}`, { topic: "resolve-lab", propagate_mode: "change_all" })).status).toBe(200);
    expect((await msg(maya, id)).subject).toBe("resolve-lab");
  });

  it("refuses moves by guests", async () => {
    const id = await send(maya, { ...stream("design"), topic: "guest-lab", content: "x" });
    expect((await sam("PATCH", `/messages/${id}`, { topic: "elsewhere" })).body["msg"]).toBe("You don't have permission to move this message");
  });
});

describe("moves between channels", () => {
  it("moves to a public channel: subscribers of the destination gain the message", async () => {
    const samQ = await register(sam, { event_types: ["update_message"] });
    const omarQ = await register(omar, { event_types: ["update_message", "delete_message"] });
    const id = await send(lena, { ...stream("engineering"), topic: "chan-move", content: "to design" });
    const reg = (await maya("POST", "/register", { fetch_event_types: ["subscription"] })).body;
    const design = reg["subscriptions"].find((s: Json) => s.name === "design").stream_id;
    const res = await lena("PATCH", `/messages/${id}`, { stream_id: design, propagate_mode: "change_all" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [forOmar] = await pending(omar, omarQ["queue_id"]);
    expect(forOmar).toMatchObject({ type: "update_message", new_stream_id: design, orig_subject: "chan-move", propagate_mode: "change_all", message_ids: [id] });
    expect(forOmar).not.toHaveProperty("subject");
    const [forSam] = await pending(sam, samQ["queue_id"]);
    expect(forSam).toMatchObject({ type: "update_message", new_stream_id: design, flags: ["read"] });
    const m = await msg(sam, id);
    expect(m).toMatchObject({ display_recipient: "design", stream_id: design });
    expect(m.edit_history[0]).toMatchObject({ prev_stream: expect.any(Number), stream: design });
  });

  it("moves to a private channel: others lose it (bulk and legacy delete events)", async () => {
    const bulk = await register(omar, { event_types: ["delete_message", "update_message"], client_capabilities: { bulk_message_deletion: true } });
    const legacy = await register(omar, { event_types: ["delete_message"] });
    const id1 = await send(maya, { ...stream("general"), topic: "secret-move", content: "one" });
    const id2 = await send(maya, { ...stream("general"), topic: "secret-move", content: "two" });
    const reg = (await maya("POST", "/register", { fetch_event_types: ["subscription"] })).body;
    const leadership = reg["subscriptions"].find((s: Json) => s.name === "leadership").stream_id;
    expect((await lena("PATCH", `/messages/${id1}`, { stream_id: leadership })).body["msg"]).toBe("Invalid channel ID");
    expect((await maya("PATCH", `/messages/${id1}`, { stream_id: leadership, propagate_mode: "change_all", send_notification_to_new_thread: false })).status).toBe(200);
    expect(await pending(omar, bulk["queue_id"])).toEqual([
      { type: "delete_message", message_ids: [id1, id2], message_type: "stream", stream_id: expect.any(Number), topic: "secret-move", id: 0 },
    ]);
    expect((await pending(omar, legacy["queue_id"])).map((e) => e.message_id)).toEqual([id1, id2]);
    expect((await omar("GET", `/messages/${id1}`)).body["msg"]).toBe("Invalid message(s)");
  });
});

describe("edit and move time limits", () => {
  it("applies the content window and the move window to non-moderators", async () => {
    let clock = Date.UTC(2027, 0, 1);
    const timed = await start({ now: () => clock });
    const tLena = client(timed, account(timed, "member", 1));
    const tPriya = client(timed, account(timed, "moderator"));
    const first = await send(tLena, { type: "stream", to: "engineering", topic: "old-topic", content: "old" });
    clock += 3600_000;
    const second = await send(tLena, { type: "stream", to: "engineering", topic: "old-topic", content: "newer" });
    clock += 601_000;
    expect((await tLena("PATCH", `/messages/${second}`, { content: "late" })).body["msg"]).toBe("The time limit for editing this message has past");
    clock += 3 * 86400_000 - 3000_000; // `first` is now past 3 days old, `second` not
    expect((await tLena("PATCH", `/messages/${first}`, { topic: "new-topic" })).body["msg"]).toBe("The time limit for editing this message's topic has passed");
    const partial = await tLena("PATCH", `/messages/${second}`, { topic: "new-topic", propagate_mode: "change_all" });
    expect(partial.body).toMatchObject({
      code: "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", first_message_id_allowed_to_move: second,
      total_messages_allowed_to_move: 1, total_messages_in_topic: 2,
    });
    expect((await tPriya("PATCH", `/messages/${first}`, { topic: "new-topic", propagate_mode: "change_all" })).status).toBe(200);
  });
});

describe("delete", () => {
  it("deletes for the sender or an administrator, with bulk and legacy events", async () => {
    const bulk = await register(maya, { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } });
    const legacy = await register(maya, { event_types: ["delete_message"] });
    const own = await send(lena, { ...stream("engineering"), topic: "delete-lab", content: "oops" });
    const other = await send(lena, { ...stream("engineering"), topic: "delete-lab", content: "keep?" });
    expect((await omar("DELETE", `/messages/${own}`)).body["msg"]).toBe("You don't have permission to delete this message");
    expect((await lena("DELETE", `/messages/${own}`)).status).toBe(200);
    expect((await ben("DELETE", `/messages/${other}`)).status).toBe(200);
    const stream_id = expect.any(Number);
    expect(await pending(maya, bulk["queue_id"])).toEqual([
      { type: "delete_message", message_ids: [own], message_type: "stream", stream_id, topic: "delete-lab", id: 0 },
      { type: "delete_message", message_ids: [other], message_type: "stream", stream_id, topic: "delete-lab", id: 1 },
    ]);
    expect(await pending(maya, legacy["queue_id"])).toEqual([
      { type: "delete_message", message_id: own, message_type: "stream", stream_id, topic: "delete-lab", id: 0 },
      { type: "delete_message", message_id: other, message_type: "stream", stream_id, topic: "delete-lab", id: 1 },
    ]);
    expect((await maya("GET", `/messages/${own}`)).body["msg"]).toBe("Invalid message(s)");
    expect((await lena("DELETE", `/messages/${own}`)).status).toBe(400);
  });

  it("deletes direct messages with message_type private", async () => {
    const q = await register(maya, { event_types: ["delete_message"], client_capabilities: { bulk_message_deletion: true } });
    const id = await send(lena, { type: "direct", to: [server.accounts[0]!.userId], content: "dm to delete" });
    expect((await lena("DELETE", `/messages/${id}`)).status).toBe(200);
    expect(await pending(maya, q["queue_id"])).toEqual([{ type: "delete_message", message_ids: [id], message_type: "private", id: 0 }]);
  });
});
