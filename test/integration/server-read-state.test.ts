// Reference server: what the client's read marking needs of it. The first
// unread message leaves out what is muted, as the public service finds it; the
// user's settings change through PATCH /settings, with an event to their queues.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { account, client, pending, register, send, start, type Api, type Json } from "./server-test-client.js";

let server: RunningServer;
let maya: Api;
let omar: Api;

beforeAll(async () => {
  server = await start();
  maya = client(server, account(server, "owner"));
  omar = client(server, account(server, "member"));
});

async function channelId(api: Api, name: string): Promise<number> {
  const subs = (await api("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[];
  const found = subs.find((s) => s["name"] === name);
  if (!found) throw new Error(`not subscribed to ${name}`);
  return found["stream_id"] as number;
}

const firstUnread = async (narrow: unknown[]) => {
  const res = await maya("GET", "/messages", { anchor: "first_unread", num_before: 0, num_after: 0, narrow });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body["anchor"] as number;
};

describe("the first unread message", () => {
  it("leaves out muted topics and muted channels (but their unmuted and followed topics), as the combined feed does", async () => {
    const general = await channelId(maya, "general");
    const random = await channelId(maya, "random");
    expect(await channelId(omar, "random")).toBe(random);
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
