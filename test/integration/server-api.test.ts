// The reference server over real HTTP: authentication, register, messages,
// sending, topics, flags and error envelopes.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type DemoAccount, type RunningServer } from "../../src/server/index.js";
import { ConformanceRecorder } from "../fixtures/conformance.js";

type Json = Record<string, any>;

let server: RunningServer;
let owner: DemoAccount;

function account(role: DemoAccount["role"], index = 0): DemoAccount {
  const found = server.accounts.filter((a) => a.role === role)[index];
  if (!found) throw new Error(`no ${role} account`);
  return found;
}

async function call(
  method: string,
  path: string,
  params: Record<string, unknown> = {},
  who: DemoAccount | null = owner,
): Promise<{ status: number; body: Json }> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
  const headers: Record<string, string> = {};
  if (who) headers["Authorization"] = "Basic " + Buffer.from(`${who.email}:${who.apiKey}`).toString("base64");
  let url = `${server.url}/api/v1${path}`;
  let body: string | undefined;
  if (method === "GET") url += `?${form}`;
  else {
    body = form.toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  }
  const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(5000) });
  return { status: res.status, body: (await res.json()) as Json };
}

const register = (params: Record<string, unknown> = {}, who: DemoAccount = owner) =>
  call("POST", "/register", params, who).then((r) => r.body);

// Every success body and event this file provokes must fit the public API description.
const recorder = new ConformanceRecorder();

beforeAll(async () => {
  server = await startServer(recorder.options({ host: "127.0.0.1", port: 0 }));
  owner = server.accounts[0]!;
});
afterAll(async () => {
  await server.close();
  expect(recorder.count).toBeGreaterThan(0);
  expect(recorder.problems()).toEqual([]);
});

describe("authentication", () => {
  it("accepts a good key and rejects a bad one with 401 INVALID_API_KEY", async () => {
    expect((await call("POST", "/register", { fetch_event_types: ["realm"] })).status).toBe(200);
    const bad = await call("GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0 }, { ...owner, apiKey: "x".repeat(32) });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ result: "error", msg: "Invalid API key", code: "INVALID_API_KEY" });
  });

  it("answers missing credentials with 401 UNAUTHORIZED", async () => {
    const res = await call("GET", "/messages", {}, null);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: "error", code: "UNAUTHORIZED" });
  });

  it("exchanges a password for the API key", async () => {
    const good = await call("POST", "/fetch_api_key", { username: owner.email, password: "termchat-demo" }, null);
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ result: "success", api_key: owner.apiKey, email: owner.email, user_id: owner.userId });
    const bad = await call("POST", "/fetch_api_key", { username: owner.email, password: "wrong" }, null);
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ result: "error", code: "AUTHENTICATION_FAILED" });
  });
});

describe("conventions and errors", () => {
  it("lists unknown parameters in ignored_parameters_unsupported", async () => {
    const body = await register({ fetch_event_types: ["realm"], no_such_thing: "1" });
    expect(body["ignored_parameters_unsupported"]).toEqual(["no_such_thing"]);
  });

  it("reports missing arguments, unknown endpoints and wrong methods", async () => {
    const missing = await call("POST", "/messages", { type: "stream", to: "general" });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: "error", code: "REQUEST_VARIABLE_MISSING", msg: "Missing 'content' argument", var_name: "content" });
    const notFound = await call("GET", "/no/such/endpoint");
    expect(notFound.status).toBe(404);
    expect(notFound.body).toMatchObject({ result: "error", msg: "Endpoint not found" });
    const method = await call("PATCH", "/register");
    expect(method.status).toBe(405);
    const badInt = await call("GET", "/messages", { anchor: "newest", num_before: "many", num_after: 0 });
    expect(badInt.status).toBe(400);
    expect(badInt.body["code"]).toBe("BAD_REQUEST");
  });

  it("rejects more than 5000 messages and message_ids with a range", async () => {
    const tooMany = await call("GET", "/messages", { anchor: "newest", num_before: 5000, num_after: 1 });
    expect(tooMany.status).toBe(400);
    const clash = await call("GET", "/messages", { message_ids: [1001], anchor: "newest" });
    expect(clash.status).toBe(400);
    expect(clash.body["code"]).toBe("BAD_REQUEST");
  });
});

describe("register", () => {
  it("returns the initial state with the spec's fields", async () => {
    const body = await register({ include_subscribers: "true", client_capabilities: { empty_topic_name: true, archived_channels: true } });
    expect(body).toMatchObject({
      result: "success",
      last_event_id: -1,
      svc_feature_level: 496,
      max_stream_name_length: 60,
      max_topic_length: 60,
      max_message_length: 10000,
      realm_empty_topic_display_name: "general chat",
      realm_name: "Lighthouse Labs",
      user_id: owner.userId,
      is_owner: true,
      is_admin: true,
      cross_realm_bots: [],
    });
    expect(typeof body["queue_id"]).toBe("string");
    const engineering = body["subscriptions"].find((s: Json) => s.name === "engineering");
    expect(engineering).toMatchObject({ pin_to_top: true, is_muted: false, in_home_view: true, topics_policy: "inherit" });
    expect(engineering.subscribers).toContain(owner.userId);
    expect(engineering.subscriber_count).toBe(engineering.subscribers.length);
    expect(typeof engineering.color).toBe("string");
    expect(engineering).toHaveProperty("can_send_message_group");
    expect(body["subscriptions"].find((s: Json) => s.name === "random").is_muted).toBe(true);
    expect(body["subscriptions"].some((s: Json) => s.is_archived)).toBe(true);
    expect(body["never_subscribed"].map((s: Json) => s.name)).toContain("help-desk");
    expect(body["channel_folders"]).toHaveLength(2);
    expect(body["realm_user_groups"].map((g: Json) => g.name)).toEqual(
      expect.arrayContaining(["role:owners", "role:administrators", "role:moderators", "role:members", "role:everyone", "role:internet", "role:nobody", "role:fullmembers"]),
    );
    expect(body["realm_non_active_users"]).toHaveLength(1);
    expect(body["user_settings"]).toMatchObject({ enter_sends: true, presence_enabled: true });
    expect(body["recent_private_conversations"].length).toBeGreaterThanOrEqual(3);
  });

  it("counts the owner's unreads consistently", async () => {
    const body = await register({ client_capabilities: { empty_topic_name: true } });
    const unread = body["unread_msgs"];
    const channelIds = unread.streams.flatMap((s: Json) => s.unread_message_ids);
    const dmIds = unread.pms.flatMap((p: Json) => p.unread_message_ids);
    const groupIds = unread.huddles.flatMap((h: Json) => h.unread_message_ids);
    expect(dmIds.length).toBeGreaterThan(0);
    expect(groupIds.length).toBeGreaterThan(0);
    expect(unread.mentions.length).toBeGreaterThanOrEqual(1);
    expect(new Set(unread.streams.map((s: Json) => s.stream_id)).size).toBeGreaterThanOrEqual(3);
    expect(unread.streams.some((s: Json) => s.topic === "")).toBe(true);
    expect(unread.count).toBeLessThanOrEqual(channelIds.length + dmIds.length + groupIds.length);
    expect(unread.count).toBeGreaterThan(0);
  });

  it("shows the empty topic by its display name without the capability, and filters sections", async () => {
    const body = await register({ fetch_event_types: ["message", "update_message_flags"] });
    expect(body["unread_msgs"].streams.some((s: Json) => s.topic === "general chat")).toBe(true);
    expect(body).not.toHaveProperty("realm_users");
    expect(body).not.toHaveProperty("subscriptions");
  });
});

describe("get messages", () => {
  const get = (params: Record<string, unknown>, who = owner) => call("GET", "/messages", params, who).then((r) => r.body);

  it("fetches around the newest and oldest anchors", async () => {
    const newest = await get({ anchor: "newest", num_before: 5, num_after: 0 });
    expect(newest.messages).toHaveLength(5);
    expect(newest.found_newest).toBe(true);
    expect(newest.found_oldest).toBe(false);
    const ids = newest.messages.map((m: Json) => m.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const oldest = await get({ anchor: "oldest", num_before: 0, num_after: 3 });
    expect(oldest.found_oldest).toBe(true);
    expect(oldest.messages[0].id).toBeLessThan(ids[0]);
  });

  it("anchors on the first unread message", async () => {
    const body = await get({ anchor: "first_unread", num_before: 0, num_after: 1, narrow: [{ operator: "channel", operand: "engineering" }] });
    expect(body.found_anchor).toBe(true);
    expect(body.messages[0].flags).not.toContain("read");
    expect(body.anchor).toBe(body.messages[0].id);
  });

  it("narrows by channel and topic, raw Markdown on request", async () => {
    const body = await get({
      anchor: "newest", num_before: 100, num_after: 0, apply_markdown: false,
      narrow: [["channel", "engineering"], ["topic", "flaky tests"]],
    });
    expect(body.messages.length).toBeGreaterThan(5);
    for (const m of body.messages) {
      expect(m).toMatchObject({ display_recipient: "engineering", subject: "flaky tests", content_type: "text/x-markdown", type: "stream" });
    }
    expect(body.messages.some((m: Json) => m.content.includes("```python"))).toBe(true);
  });

  it("narrows to a direct-message conversation", async () => {
    const ben = account("admin");
    const body = await get({ anchor: "newest", num_before: 50, num_after: 0, narrow: [{ operator: "dm", operand: [ben.userId] }] });
    expect(body.messages.length).toBeGreaterThan(3);
    for (const m of body.messages) {
      expect(m.type).toBe("private");
      expect(m.display_recipient.map((r: Json) => r.id).sort()).toEqual([owner.userId, ben.userId].sort());
    }
  });

  it("shows the empty topic by display name unless allowed, and renders HTML by default", async () => {
    const narrow = [{ operator: "channel", operand: "general" }, { operator: "topic", operand: "" }];
    const shown = await get({ anchor: "oldest", num_before: 0, num_after: 2, narrow });
    expect(shown.messages[0].subject).toBe("general chat");
    expect(shown.messages[0].content_type).toBe("text/html");
    const raw = await get({ anchor: "oldest", num_before: 0, num_after: 2, narrow, allow_empty_topic_name: true });
    expect(raw.messages[0].subject).toBe("");
  });

  it("returns requested message ids and rejects unknown channels", async () => {
    const body = await get({ message_ids: [1001, 1002, 99999] });
    expect(body.messages.map((m: Json) => m.id)).toEqual([1001, 1002]);
    const bad = await call("GET", "/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [["channel", "nope"]] });
    expect(bad.status).toBe(400);
  });
});

describe("send, topics and flags", () => {
  it("sends a channel message and lists its topic first", async () => {
    const sent = await call("POST", "/messages", { type: "channel", to: "design", topic: "fresh topic", content: "Hello **design**" });
    expect(sent.status).toBe(200);
    const design = (await register({ fetch_event_types: ["subscription"] }))["subscriptions"].find((s: Json) => s.name === "design");
    const topics = await call("GET", `/users/me/${design.stream_id}/topics`);
    expect(topics.body["topics"][0]).toEqual({ name: "fresh topic", max_id: sent.body["id"] });
    const msg = await call("GET", "/messages", { message_ids: [sent.body["id"]] });
    expect(msg.body["messages"][0].flags).toContain("read");
  });

  it("validates sends", async () => {
    const archived = await call("POST", "/messages", { type: "stream", to: "mobile-app", topic: "x", content: "hi" });
    expect(archived.status).toBe(400);
    const missing = await call("POST", "/messages", { type: "stream", to: "nope", topic: "x", content: "hi" });
    expect(missing.body).toMatchObject({ code: "STREAM_DOES_NOT_EXIST", stream: "nope" });
    const missingId = await call("POST", "/messages", { type: "stream", to: 9999, topic: "x", content: "hi" });
    expect(missingId.body).toMatchObject({ code: "STREAM_DOES_NOT_EXIST", stream_id: 9999 });
    const empty = await call("POST", "/messages", { type: "stream", to: "general", topic: "x", content: "  " });
    expect(empty.status).toBe(400);
    const longTopic = await call("POST", "/messages", { type: "stream", to: "general", topic: "t".repeat(61), content: "hi" });
    expect(longTopic.status).toBe(400);
    const longContent = await call("POST", "/messages", { type: "stream", to: "general", topic: "x", content: "c".repeat(10001) });
    expect(longContent.status).toBe(400);
  });

  it("answers topics of an unknown channel with Invalid channel ID", async () => {
    const res = await call("GET", "/users/me/9999/topics");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", msg: "Invalid channel ID", code: "BAD_REQUEST" });
  });

  it("marks messages read, which a fresh register reflects", async () => {
    const lena = account("member", 1);
    const before = (await register({ fetch_event_types: ["message", "update_message_flags"] }, lena))["unread_msgs"];
    const ids: number[] = [
      ...before.streams.flatMap((s: Json) => s.unread_message_ids),
      ...before.pms.flatMap((p: Json) => p.unread_message_ids),
      ...before.huddles.flatMap((h: Json) => h.unread_message_ids),
    ];
    expect(ids.length).toBeGreaterThan(0);
    const res = await call("POST", "/messages/flags", { messages: ids, op: "add", flag: "read" }, lena);
    expect(res.body["messages"].sort()).toEqual([...ids].sort());
    const after = (await register({ fetch_event_types: ["message", "update_message_flags"] }, lena))["unread_msgs"];
    expect(after).toMatchObject({ count: 0, streams: [], pms: [], huddles: [], mentions: [] });
    const undo = await call("POST", "/messages/flags", { messages: [ids[0]], op: "remove", flag: "read" }, lena);
    expect(undo.body).toMatchObject({ messages: [ids[0]], ignored_because_not_subscribed_channels: [] });
    const bad = await call("POST", "/messages/flags", { messages: [ids[0]], op: "add", flag: "mentioned" }, lena);
    expect(bad.status).toBe(400);
  });
});
