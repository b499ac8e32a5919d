// Flags over a narrow range and the mark-as-read operations, with their
// update_message_flags events.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { account, client, ids, pending, register, send, start, type Api, type Json } from "./server-test-client.js";

let server: RunningServer;
let maya: Api;
let lena: Api;
let channels: Map<string, number>;

beforeAll(async () => {
  server = await start();
  maya = client(server, server.accounts[0]!);
  lena = client(server, account(server, "member", 1));
  const reg = (await maya("POST", "/register", { fetch_event_types: ["subscription"] })).body;
  channels = new Map(reg["subscriptions"].map((s: Json) => [s.name, s.stream_id]));
});

const unreadIn = (narrow: unknown[]) => ids(maya, [...narrow, { operator: "is", operand: "unread" }]);

describe("POST /messages/flags/narrow", () => {
  it("updates a range around an anchor and reports the counts", async () => {
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sent.push(await send(lena, { type: "stream", to: "engineering", topic: "range-lab", content: `n${i}` }));
    const narrow = [{ operator: "channel", operand: "engineering" }, { operator: "topic", operand: "range-lab" }];
    const q = await register(maya, { event_types: ["update_message_flags"] });
    const res = await maya("POST", "/messages/flags/narrow", { anchor: sent[1], include_anchor: true, num_before: 0, num_after: 2, narrow, op: "add", flag: "starred" });
    expect(res.body).toMatchObject({
      result: "success", processed_count: 3, updated_count: 3, first_processed_id: sent[1], last_processed_id: sent[3],
      found_oldest: false, found_newest: false,
    });
    const again = await maya("POST", "/messages/flags/narrow", { anchor: "oldest", num_before: 0, num_after: 10, narrow, op: "add", flag: "starred" });
    expect(again.body).toMatchObject({ processed_count: 5, updated_count: 2, found_oldest: true, found_newest: true, first_processed_id: sent[0], last_processed_id: sent[4] });
    expect(await ids(maya, [...narrow, { operator: "is", operand: "starred" }])).toEqual(sent);
    const events = await pending(maya, q["queue_id"]);
    expect(events.map((e) => e.messages)).toEqual([sent.slice(1, 4), [sent[0], sent[4]]]);
    expect(events[0]).toMatchObject({ type: "update_message_flags", op: "add", flag: "starred", all: false });

    const read = await maya("POST", "/messages/flags/narrow", { anchor: "newest", num_before: 10, num_after: 0, narrow: [...narrow, { operator: "is", operand: "unread" }], op: "add", flag: "read" });
    expect(read.body).toMatchObject({ processed_count: 5, updated_count: 5 });
    expect(await unreadIn(narrow)).toEqual([]);
    const unread = await maya("POST", "/messages/flags/narrow", { anchor: sent[4], num_before: 0, num_after: 0, narrow, op: "remove", flag: "read" });
    expect(unread.body).toMatchObject({ processed_count: 1, updated_count: 1, ignored_because_not_subscribed_channels: [] });
    const details = (await pending(maya, q["queue_id"])).at(-1)!;
    expect(details).toMatchObject({ op: "remove", flag: "read" });
    expect(Object.values(details["message_details"])[0]).toMatchObject({ type: "stream", stream_id: channels.get("engineering"), topic: "range-lab" });
  });

  it("answers empty ranges with nulls and validates its parameters", async () => {
    const res = await maya("POST", "/messages/flags/narrow", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "search", operand: "nothingmatchesthis" }], op: "add", flag: "read" });
    expect(res.body).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true, found_newest: true });
    const missing = await maya("POST", "/messages/flags/narrow", { anchor: "newest", num_before: 1, num_after: 0, op: "add", flag: "read" });
    expect(missing.body["code"]).toBe("REQUEST_VARIABLE_MISSING");
    const bad = await maya("POST", "/messages/flags/narrow", { anchor: "newest", num_before: 1, num_after: 0, narrow: [], op: "add", flag: "mentioned" });
    expect(bad.body["msg"]).toBe("Flag not editable: 'mentioned'");
  });
});

describe("mark as read", () => {
  it("marks a topic read (deprecated endpoint), by display name for the empty topic too", async () => {
    const id = await send(lena, { type: "stream", to: "general", topic: "topic-read-lab", content: "x" });
    await send(lena, { type: "stream", to: "general", topic: "", content: "in the empty topic" });
    const q = await register(maya, { event_types: ["update_message_flags"] });
    const res = await maya("POST", "/mark_topic_as_read", { stream_id: channels.get("general"), topic_name: "topic-read-lab" });
    expect(res.status).toBe(200);
    expect(await unreadIn([{ operator: "topic", operand: "topic-read-lab" }])).toEqual([]);
    const [event] = await pending(maya, q["queue_id"]);
    expect(event).toMatchObject({ type: "update_message_flags", op: "add", flag: "read", messages: [id] });
    await maya("POST", "/mark_topic_as_read", { stream_id: channels.get("general"), topic_name: "general chat" });
    expect(await unreadIn([{ operator: "channel", operand: "general" }, { operator: "topic", operand: "" }])).toEqual([]);
    const none = await maya("POST", "/mark_topic_as_read", { stream_id: channels.get("general"), topic_name: "no such topic here" });
    expect(none.body["msg"]).toBe("No such topic 'no such topic here'");
    expect((await maya("POST", "/mark_topic_as_read", { stream_id: 99999, topic_name: "x" })).body["msg"]).toBe("Invalid channel ID");
  });

  it("marks a channel read, then everything", async () => {
    await send(lena, { type: "stream", to: "design", topic: "channel-read-lab", content: "y" });
    expect((await unreadIn([{ operator: "channel", operand: "design" }])).length).toBeGreaterThan(0);
    expect((await maya("POST", "/mark_stream_as_read", { stream_id: channels.get("design") })).status).toBe(200);
    expect(await unreadIn([{ operator: "channel", operand: "design" }])).toEqual([]);
    expect((await maya("POST", "/mark_stream_as_read", { stream_id: 99999 })).body["msg"]).toBe("Invalid channel ID");
    expect((await unreadIn([])).length).toBeGreaterThan(0);
    const q = await register(maya, { event_types: ["update_message_flags"] });
    const before = await unreadIn([]);
    const res = await maya("POST", "/mark_all_as_read");
    expect(res.body).toMatchObject({ result: "success", complete: true });
    expect(await unreadIn([])).toEqual([]);
    const events = await pending(maya, q["queue_id"]);
    expect(events.flatMap((e) => e.messages).sort((a: number, b: number) => a - b)).toEqual(before);
    const reg = (await maya("POST", "/register", { fetch_event_types: ["message", "update_message_flags"] })).body;
    expect(reg["unread_msgs"]).toMatchObject({ count: 0, streams: [], pms: [], huddles: [], old_unreads_missing: false });
  });
});
