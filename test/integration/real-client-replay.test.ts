// The terminal client built on the service's Python bindings, replayed over
// real HTTP: its start-up (register with the sections it reads, and in
// parallel the first page of messages anchored at the first unread message
// through the deprecated flag, with a placeholder anchor), its presence ping
// and its event queue. Every answer must succeed, carry the sections the
// client reads, and fit the public API description.

import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { responseProblems } from "../fixtures/openapi-shape.js";
import { pythonClient, type Json, type PyCall, type PyResponse } from "../fixtures/python-client.js";
import { account, client, pending, start } from "./server-test-client.js";

const USER_AGENT = "ZulipTerminal/0.7.0+git Linux-6.1.0-x86_64-with-glibc2.36 (debian; 12)";
const FETCH_TYPES = [
  "realm", "presence", "subscription", "message", "starred_messages", "update_message_flags", "muted_topics",
  "realm_user", "realm_user_groups", "user_settings", "realm_emoji", "custom_profile_fields", "zulip_version",
];
const EVENT_TYPES = [
  "message", "update_message", "reaction", "submessage", "subscription", "typing", "update_message_flags",
  "user_settings", "realm_emoji", "realm_user",
];

let server: RunningServer;
let terminal: PyCall;
let mutedChannel: { id: number; name: string };

/** A success answer that fits the documented shape of its operation. */
function fits(res: PyResponse, method: string, path: string): Json {
  expect(res.status, `${res.sent}\n${JSON.stringify(res.body).slice(0, 400)}`).toBe(200);
  expect(res.body["result"]).toBe("success");
  expect(res.body["ignored_parameters_unsupported"], res.sent).toBeUndefined();
  expect(responseProblems(method, path, res.body)).toEqual([]);
  return res.body;
}

const register = (extra: Record<string, unknown> = {}) =>
  terminal("POST", "register", {
    event_types: EVENT_TYPES,
    narrow: [],
    fetch_event_types: FETCH_TYPES,
    client_gravatar: true,
    apply_markdown: true,
    include_subscribers: true,
    ...(extra as Record<string, never>),
  });

const firstPage = () =>
  terminal("GET", "messages", {
    anchor: 0,
    num_before: 30,
    num_after: 10,
    apply_markdown: true,
    use_first_unread_anchor: true,
    client_gravatar: true,
    narrow: JSON.stringify([]),
  });

beforeAll(async () => {
  server = await start();
  const me = account(server, "member");
  terminal = pythonClient(server.url, me.email, me.apiKey, USER_AGENT);
  // A muted topic, so that the legacy list has an entry to check.
  const subs = (await client(server, me)("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[];
  mutedChannel = { id: subs[0]!["stream_id"], name: subs[0]!["name"] };
  const res = await client(server, me)("POST", "/user_topics", { stream_id: mutedChannel.id, topic: "lunch plans", visibility_policy: 1 });
  expect(res.status).toBe(200);
});

describe("the terminal client's start-up", () => {
  it("register and the first page of messages, sent together, both answer with what the client reads", async () => {
    const [reg, page] = await Promise.all([register(), firstPage()]);
    const body = fits(reg, "POST", "/register");
    for (const field of [
      "queue_id", "last_event_id", "zulip_version", "svc_feature_level", "max_message_id", "subscriptions", "muted_topics",
      "realm_user_groups", "realm_emoji", "user_settings", "custom_profile_fields", "presences", "realm_users",
      "cross_realm_bots", "user_id", "email", "full_name", "realm_name", "realm_message_retention_days", "unread_msgs",
      "starred_messages", "max_stream_name_length", "max_topic_length", "max_message_length",
    ]) {
      expect(body, field).toHaveProperty(field);
    }
    // user_topic was not asked for: its replacement is not served, the legacy list is.
    expect(body).not.toHaveProperty("user_topics");
    expect(body["muted_topics"]).toEqual([[mutedChannel.name, "lunch plans", expect.any(Number)]]);
    for (const sub of body["subscriptions"] as Json[]) expect(Array.isArray(sub["subscribers"])).toBe(true);
    const settings = body["user_settings"] as Json;
    for (const key of ["send_private_typing_notifications", "twenty_four_hour_time", "pm_content_in_desktop_notifications"]) {
      expect(typeof settings[key], key).toBe("boolean");
    }
    // Legacy presence, keyed by email (slim_presence not sent).
    for (const key of Object.keys(body["presences"] as Json)) expect(key).toContain("@");

    const messages = fits(page, "GET", "/messages");
    const unread = (messages["messages"] as Json[]).find((m) => !(m["flags"] as string[]).includes("read"));
    expect(unread, "the seeded member has unread messages").toBeDefined();
    expect(messages["anchor"]).toBe(unread!["id"]);
    expect((messages["messages"] as Json[]).length).toBeLessThanOrEqual(41);
    for (const m of messages["messages"] as Json[]) expect(m["content_type"]).toBe("text/html");
  });

  it("the presence ping answers with every user's presence keyed by email", async () => {
    const body = fits(await terminal("POST", "users/me/presence", { status: "active", new_user_input: true }), "POST", "/users/me/presence");
    expect(Object.keys(body["presences"] as Json).length).toBeGreaterThan(0);
    for (const key of Object.keys(body["presences"] as Json)) expect(key).toContain("@");
  });

  it("the client's queue gets the events it registered for, and no legacy muted_topics it did not ask for", async () => {
    const reg = fits(await register({ fetch_event_types: undefined }), "POST", "/register");
    const me = account(server, "member");
    const res = await client(server, me)("POST", "/user_topics", { stream_id: mutedChannel.id, topic: "standup", visibility_policy: 1 });
    expect(res.status).toBe(200);
    const events = fits(await terminal("GET", "events", { queue_id: reg["queue_id"], last_event_id: reg["last_event_id"], dont_block: true }), "GET", "/events");
    expect((events["events"] as Json[]).map((e) => e["type"])).not.toContain("muted_topics");
  });
});

describe("the legacy muted_topics section and event", () => {
  it("is served with user_topic only when user_topic is not asked for by name", async () => {
    const both = fits(await register({ fetch_event_types: ["muted_topics", "user_topic"] }), "POST", "/register");
    expect(both).toHaveProperty("user_topics");
    expect(both).not.toHaveProperty("muted_topics");
    const all = fits(await register({ fetch_event_types: undefined, event_types: undefined }), "POST", "/register");
    expect(all).toHaveProperty("user_topics");
    expect(all).toHaveProperty("muted_topics");
  });

  it("other legacy sections are served when asked for, in the documented shape", async () => {
    const types = ["realm_filters", "realm_playgrounds", "realm_domains", "default_stream_groups", "stop_words", "realm_embedded_bots", "realm_incoming_webhook_bots"];
    const body = fits(await register({ fetch_event_types: types }), "POST", "/register");
    for (const key of ["realm_filters", "realm_playgrounds", "realm_domains", "realm_default_stream_groups", "stop_words", "realm_embedded_bots", "realm_incoming_webhook_bots"]) {
      expect(body[key], key).toEqual([]);
    }
    expect(body).not.toHaveProperty("muted_topics");
  });

  it("a change sends the whole muted list to queues that asked for muted_topics and not for user_topic", async () => {
    const me = account(server, "member");
    const api = client(server, me);
    const legacy = fits(await register({ event_types: ["muted_topics"], fetch_event_types: ["message"] }), "POST", "/register");
    const modern = fits(await register({ event_types: ["muted_topics", "user_topic"], fetch_event_types: ["message"] }), "POST", "/register");
    expect((await api("POST", "/user_topics", { stream_id: mutedChannel.id, topic: "retro", visibility_policy: 1 })).status).toBe(200);
    const legacyEvents = await pending(api, legacy["queue_id"]);
    expect(legacyEvents).toHaveLength(1);
    expect(legacyEvents[0]).toMatchObject({ type: "muted_topics" });
    const list = legacyEvents[0]!["muted_topics"] as unknown[][];
    expect(list).toContainEqual([mutedChannel.name, "retro", expect.any(Number)]);
    expect(list).toContainEqual([mutedChannel.name, "lunch plans", expect.any(Number)]);
    expect((await pending(api, modern["queue_id"])).map((e) => e["type"])).toEqual(["user_topic"]);
    // Following a topic is no mute: it leaves the list.
    expect((await api("POST", "/user_topics", { stream_id: mutedChannel.id, topic: "retro", visibility_policy: 3 })).status).toBe(200);
    const after = await pending(api, legacy["queue_id"]);
    expect(after.at(-1)!["muted_topics"]).not.toContainEqual([mutedChannel.name, "retro", expect.any(Number)]);
  });
});

describe("the deprecated first-unread flag", () => {
  it("wins over an anchor sent with it, whatever the anchor", async () => {
    const bodies = await Promise.all([0, "newest", "oldest", 123456].map((anchor) =>
      terminal("GET", "messages", { anchor, num_before: 2, num_after: 2, use_first_unread_anchor: true, narrow: [] })));
    const anchors = bodies.map((b) => fits(b, "GET", "/messages")["anchor"]);
    expect(new Set(anchors).size).toBe(1);
    const plain = fits(await terminal("GET", "messages", { anchor: "first_unread", num_before: 2, num_after: 2 }), "GET", "/messages");
    expect(anchors[0]).toBe(plain["anchor"]);
    // Sent as false, the anchor counts.
    const off = fits(await terminal("GET", "messages", { anchor: "oldest", num_before: 0, num_after: 1, use_first_unread_anchor: false }), "GET", "/messages");
    expect(off["anchor"]).toBe(0);
  });
});

describe("values JSON-encoded as the bindings encode them", () => {
  it("integers as JSON text or JSON strings, booleans as JSON, lists as JSON arrays", async () => {
    const plain = fits(await terminal("GET", "messages", { anchor: "newest", num_before: 3, num_after: 0 }), "GET", "/messages");
    const quoted = fits(
      await terminal("GET", "messages", { anchor: "newest", num_before: '"3"', num_after: '"0"', include_anchor: true, apply_markdown: false }),
      "GET", "/messages",
    );
    expect((quoted["messages"] as Json[]).map((m) => m["id"])).toEqual((plain["messages"] as Json[]).map((m) => m["id"]));
    const ids = (plain["messages"] as Json[]).map((m) => String(m["id"]));
    const byIds = fits(await terminal("GET", "messages", { message_ids: ids }), "GET", "/messages");
    expect((byIds["messages"] as Json[]).map((m) => String(m["id"]))).toEqual(ids);
    const bad = await terminal("GET", "messages", { anchor: "newest", num_before: "three", num_after: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: "error", code: "BAD_REQUEST" });
  });
});
