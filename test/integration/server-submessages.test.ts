// Interactive messages on the reference server over real HTTP: /poll and
// /todo messages start their widget, POST /submessage adds votes and tasks,
// `submessage` events reach the other readers' queues, and GET /messages
// returns the submessages in order.

import { describe, expect, it } from "vitest";
import { account, client, pending, register, send, start, type Json } from "./server-test-client.js";

describe("submessages", () => {
  it("starts a poll from the message content and delivers votes to another user's queue", async () => {
    const server = await start();
    const alice = client(server, account(server, "member", 0));
    const bobAccount = account(server, "member", 1);
    const bob = client(server, bobAccount);
    const queue = await register(bob, { event_types: ["message", "submessage"], apply_markdown: true });

    const id = await send(alice, { type: "stream", to: "general", topic: "lunch", content: "/poll Where to?\nPizza\n- Tacos" });
    const events = await pending(bob, queue["queue_id"] as string);
    const message = events.find((e) => e["type"] === "message")!["message"] as Json;
    // The rendered content is the text itself; clients draw the widget from the submessages.
    expect(message["content"]).toMatch(/^<p>\/poll Where to\?<br>\s*Pizza<\/p>/);
    const widget = (message["submessages"] as Json[])[0]!;
    expect(widget).toMatchObject({ msg_type: "widget", message_id: id, sender_id: account(server, "member", 0).userId });
    expect(JSON.parse(widget["content"] as string)).toEqual({
      widget_type: "poll",
      extra_data: { question: "Where to?", options: ["Pizza", "Tacos"] },
    });

    const vote = JSON.stringify({ type: "vote", key: "canned,1", vote: 1 });
    const res = await bob("POST", "/submessage", { message_id: id, msg_type: "widget", content: vote });
    expect(res.status).toBe(200);
    const after = await pending(bob, queue["queue_id"] as string);
    const sub = after.find((e) => e["type"] === "submessage");
    expect(sub).toMatchObject({ msg_type: "widget", message_id: id, sender_id: bobAccount.userId, content: vote });

    const fetched = await alice("GET", `/messages/${id}`);
    const subs = (fetched.body["message"] as Json)["submessages"] as Json[];
    expect(subs.map((s) => s["content"])).toEqual([widget["content"], vote]);
    expect(subs[1]!["id"]).toBe(sub!["submessage_id"]);
  });

  it("starts a to-do list with its title and tasks", async () => {
    const server = await start();
    const alice = client(server, account(server, "member", 0));
    const id = await send(alice, { type: "stream", to: "general", topic: "launch", content: "/todo Launch\n- Write notes: for the release\n- Tag it" });
    const got = await alice("GET", `/messages/${id}`);
    const first = ((got.body["message"] as Json)["submessages"] as Json[])[0]!;
    expect(JSON.parse(first["content"] as string)).toEqual({
      widget_type: "todo",
      extra_data: { task_list_title: "Launch", tasks: [{ task: "Write notes", desc: "for the release" }, { task: "Tag it", desc: "" }] },
    });
  });

  it("refuses bad submessages with the service's errors", async () => {
    const server = await start();
    const alice = client(server, account(server, "member", 0));
    const bob = client(server, account(server, "member", 1));
    const plain = await send(alice, { type: "stream", to: "general", topic: "plain", content: "no widget here" });
    const foreign = await bob("POST", "/submessage", { message_id: plain, msg_type: "widget", content: "{}" });
    expect(foreign.body["msg"]).toBe("You cannot attach a submessage to this message.");
    const badJson = await alice("POST", "/submessage", { message_id: plain, msg_type: "widget", content: "{nope" });
    expect(badJson.body["msg"]).toBe("Invalid json for submessage");
    const unknown = await alice("POST", "/submessage", { message_id: 999_999, msg_type: "widget", content: "{}" });
    expect(unknown.body["msg"]).toBe("Invalid message(s)");
  });

  it("sends submessage events only to users who can see the message", async () => {
    const server = await start();
    const maya = client(server, account(server, "owner", 0));
    const ben = client(server, account(server, "admin", 0));
    const omar = client(server, server.accounts.find((a) => a.email.startsWith("omar@"))!);
    const inside = await register(ben, { event_types: ["submessage"] });
    const outside = await register(omar, { event_types: ["submessage"] });
    const id = await send(maya, { type: "stream", to: "leadership", topic: "offsite", content: "/poll Offsite in spring?\nYes\nNo" });
    const vote = JSON.stringify({ type: "vote", key: "canned,0", vote: 1 });
    expect((await ben("POST", "/submessage", { message_id: id, msg_type: "widget", content: vote })).status).toBe(200);
    expect((await pending(ben, inside["queue_id"] as string)).map((e) => e["content"])).toEqual([vote]);
    expect(await pending(omar, outside["queue_id"] as string)).toEqual([]);
    const refused = await omar("POST", "/submessage", { message_id: id, msg_type: "widget", content: vote });
    expect(refused.body["msg"]).toBe("Invalid message(s)");
  });
});
