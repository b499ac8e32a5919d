// Reference server: what the client's read marking needs of it. The first
// unread message leaves out what is muted, as the public service finds it; the
// user's settings change through PATCH /settings, with an event to their queues; the register's
// unread and starred messages stay right when the user's messages are not in id order.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { account, client, subscribedChannelId, pending, register, send, start, type Api, type Json } from "./server-test-client.js";

let server: RunningServer;
let maya: Api;
let omar: Api;

beforeAll(async () => {
  server = await start();
  maya = client(server, account(server, "owner"));
  omar = client(server, account(server, "member"));
});

const firstUnread = async (narrow: unknown[]) => {
  const res = await maya("GET", "/messages", { anchor: "first_unread", num_before: 0, num_after: 0, narrow });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body["anchor"] as number;
};

describe("the first unread message", () => {
  it("leaves out muted topics and muted channels (but their unmuted and followed topics), as the combined feed does", async () => {
    const general = await subscribedChannelId(maya, "general");
    const random = await subscribedChannelId(maya, "random");
    expect(await subscribedChannelId(omar, "random")).toBe(random);
    expect((await maya("POST", "/mark_all_as_read")).status).toBe(200);
    const noise = await send(omar, { type: "stream", to: random, topic: "noise", content: "in a muted channel" });
    const gossip = await send(omar, { type: "stream", to: general, topic: "gossip", content: "in a muted topic" });
    const release = await send(omar, { type: "stream", to: random, topic: "release", content: "followed, in a muted channel" });
    const plain = await send(omar, { type: "stream", to: general, topic: "plain", content: "nothing muted" });
    const muteChannel = await maya("POST", "/users/me/subscriptions/properties", { subscription_data: [{ stream_id: random, property: "is_muted", value: true }] });
    expect(muteChannel.status).toBe(200);
    expect((await maya("POST", "/user_topics", { stream_id: general, topic: "gossip", visibility_policy: 1 })).status).toBe(200);
    expect((await maya("POST", "/user_topics", { stream_id: random, topic: "release", visibility_policy: 3 })).status).toBe(200);

    const home = [{ operator: "in", operand: "home" }];
    expect(await firstUnread(home)).toBe(release);
    expect(await firstUnread([])).toBe(release);
    // A channel's own view: its muting does not apply there, its muted topics still do.
    expect(await firstUnread([{ operator: "channel", operand: random }])).toBe(noise);
    expect(await firstUnread([{ operator: "channel", operand: general }])).toBe(plain);
    // The window itself still holds what the narrow matches: in:home leaves the muted ones out.
    const window = await maya("GET", "/messages", { anchor: "oldest", num_before: 0, num_after: 5000, narrow: home });
    const inHome = (window.body["messages"] as Json[]).map((m) => m["id"] as number);
    expect(inHome).toContain(release);
    expect(inHome).toContain(plain);
    expect(inHome).not.toContain(noise);
    expect(inHome).not.toContain(gossip);

    // Read the followed topic: the first unread moves on to the next that counts.
    expect((await maya("POST", "/messages/flags", { messages: [release], op: "add", flag: "read" })).status).toBe(200);
    expect(await firstUnread(home)).toBe(plain);
  });
});

describe("PATCH /settings", () => {
  const settingOf = async (name: string) => ((await register(maya, { fetch_event_types: ["user_settings"] }))["user_settings"] as Json)[name];

  it("changes the mark-as-read setting and tells the user's queues", async () => {
    expect(await settingOf("web_mark_read_on_scroll_policy")).toBe(1); // the service's default
    const queue = await register(maya, { event_types: ["user_settings"] });
    const res = await maya("PATCH", "/settings", { web_mark_read_on_scroll_policy: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body["ignored_parameters_unsupported"]).toBeUndefined();
    expect(await settingOf("web_mark_read_on_scroll_policy")).toBe(3);
    expect(await pending(maya, queue["queue_id"] as string)).toEqual([
      expect.objectContaining({ type: "user_settings", op: "update", property: "web_mark_read_on_scroll_policy", value: 3 }),
    ]);
    // The same value again changes nothing and sends nothing.
    const again = await register(maya, { event_types: ["user_settings"] });
    expect((await maya("PATCH", "/settings", { web_mark_read_on_scroll_policy: 3 })).status).toBe(200);
    expect(await pending(maya, again["queue_id"] as string)).toEqual([]);
    // Another user's settings are theirs.
    const omarSettings = (await register(omar, { fetch_event_types: ["user_settings"] }))["user_settings"] as Json;
    expect(omarSettings["web_mark_read_on_scroll_policy"]).toBe(1);
  });

  it("refuses a value the setting does not have, changing nothing; reports names it does not keep", async () => {
    const before = await settingOf("web_mark_read_on_scroll_policy");
    const bad = await maya("PATCH", "/settings", { web_mark_read_on_scroll_policy: 7, web_home_view: "all_messages" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: "error", msg: "Invalid web_mark_read_on_scroll_policy" });
    expect(await settingOf("web_mark_read_on_scroll_policy")).toBe(before);
    expect(await settingOf("web_home_view")).toBe("inbox");
    const odd = await maya("PATCH", "/settings", { no_such_setting: true, web_home_view: "all_messages" });
    expect(odd.status).toBe(200);
    expect(odd.body["ignored_parameters_unsupported"]).toEqual(["no_such_setting"]);
    expect(await settingOf("web_home_view")).toBe("all_messages");
    expect((await maya("PATCH", "/settings", { web_home_view: "somewhere" })).body["msg"]).toBe("Invalid web_home_view");
  });
});

// The register's sections drawn from a user's own messages (max_message_id, unread_msgs,
// starred_messages, recent_private_conversations) when the user's messages are not all in id
// order: a message sent to a channel the user had left, starred later, joins their history after
// newer ones (src/server/user-history.ts walks them beside the organization's).
describe("register sections from the user's messages", () => {
  it("take in a message starred after newer ones came, then marked unread: in id order, with the newest id, the unread and the conversations right", async () => {
    const general = await subscribedChannelId(maya, "general");
    const random = await subscribedChannelId(maya, "random");
    expect(await subscribedChannelId(omar, "random")).toBe(random);
    expect((await maya("POST", "/mark_all_as_read")).status).toBe(200);
    expect((await maya("DELETE", "/users/me/subscriptions", { subscriptions: ["random"] })).status).toBe(200);
    // Sent while Maya is away from #random: not in her messages.
    const away = await send(omar, { type: "stream", to: random, topic: "while away", content: "Maya does not get this one" });
    const topicMessage = await send(omar, { type: "stream", to: general, topic: "history", content: "newer, unread" });
    const dm = await send(omar, { type: "private", to: [account(server, "owner").userId], content: "newest, unread" });
    expect(away).toBeLessThan(topicMessage);
    // Starring it makes it hers (historical, read), after the newer ones; back in #random, she marks it unread.
    expect((await maya("POST", "/messages/flags", { messages: [away], op: "add", flag: "starred" })).status).toBe(200);
    expect((await maya("POST", "/users/me/subscriptions", { subscriptions: [{ name: "random" }] })).status).toBe(200);
    expect((await maya("POST", "/messages/flags", { messages: [away], op: "remove", flag: "read" })).status).toBe(200);

    const body = await register(maya, {
      fetch_event_types: ["message", "update_message_flags", "starred_messages", "recent_private_conversations"],
      client_capabilities: { empty_topic_name: true },
    });
    expect(body["max_message_id"]).toBe(dm);
    const starred = body["starred_messages"] as number[];
    expect(starred).toContain(away);
    expect(starred).toEqual([...starred].sort((a, b) => a - b));
    const unread = body["unread_msgs"] as Json;
    const listed = [...unread["streams"], ...unread["pms"], ...unread["huddles"]].flatMap((e: Json) => e["unread_message_ids"] as number[]);
    expect(listed.sort((a, b) => a - b)).toEqual([away, topicMessage, dm]);
    expect(unread["streams"]).toEqual([
      { stream_id: random, topic: "while away", unread_message_ids: [away] },
      { stream_id: general, topic: "history", unread_message_ids: [topicMessage] },
    ]);
    // The count leaves out muted places (#random may be muted for her).
    const subs = (await maya("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[];
    const randomMuted = subs.find((x) => x["stream_id"] === random)!["is_muted"] === true;
    expect(unread["count"]).toBe(randomMuted ? 2 : 3);
    const recent = body["recent_private_conversations"] as Json[];
    expect(recent[0]).toEqual({ max_message_id: dm, user_ids: [account(server, "member").userId] });
  });
});
