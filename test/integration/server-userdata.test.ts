// Reference server: reactions, drafts, saved snippets, channel folders, user
// groups, typing, push tokens, server settings and rate limits.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Harness, expectError, type Client, type Json } from "../fixtures/server-client.js";

let h: Harness;
let maya: Client; // owner
let ben: Client; // administrator
let omar: Client; // member
let lena: Client; // member
let sam: Client; // guest
let bot: Client;
let messageId: number;
let generalId: number;

beforeAll(async () => {
  h = await Harness.start();
  maya = h.as(h.account("owner"));
  ben = h.as(h.account("admin"));
  omar = h.as(h.account("member", 0));
  lena = h.as(h.account("member", 1));
  sam = h.as(h.account("guest"));
  bot = h.as(h.account("bot"));
  const sent = await omar.call("POST", "/messages", { type: "stream", to: "general", topic: "reactions", content: "react to me" });
  messageId = sent.body["id"];
  generalId = ((await omar.call("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[]).find((s) => s["name"] === "general")!["stream_id"];
});
afterAll(async () => {
  expect(h.conformanceProblems()).toEqual([]);
  await h.close();
});

describe("reactions", () => {
  const add = (who: Client, params: Record<string, unknown>, id = messageId) => who.call("POST", `/messages/${id}/reactions`, params);
  const remove = (who: Client, params: Record<string, unknown>) => who.call("DELETE", `/messages/${messageId}/reactions`, params);

  it("adds a reaction by name and tells everyone who can see the message", async () => {
    const q = await lena.queue(["reaction"]);
    expect((await add(maya, { emoji_name: "tada" })).status).toBe(200);
    expect(await q.drain()).toEqual([
      expect.objectContaining({ type: "reaction", op: "add", message_id: messageId, user_id: maya.id, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" }),
    ]);
    expectError(await add(maya, { emoji_name: "tada" }), "REACTION_ALREADY_EXISTS", "Reaction already exists.");
    const msg = await omar.call("GET", "/messages", { message_ids: [messageId] });
    expect(msg.body["messages"][0]["reactions"]).toEqual([{ emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji", user_id: maya.id }]);
  });

  it("accepts custom and extra emoji, and validates codes", async () => {
    expect((await add(omar, { emoji_name: "lighthouse", emoji_code: "1", reaction_type: "realm_emoji" })).status).toBe(200);
    expect((await add(omar, { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "svc_extra_emoji" })).status).toBe(200);
    expectError(await add(omar, { emoji_name: "tada", emoji_code: "fffff", reaction_type: "unicode_emoji" }), "BAD_REQUEST", "Invalid emoji code");
    expectError(await add(omar, { emoji_name: "nope" }), "BAD_REQUEST", "Emoji 'nope' does not exist");
    expectError(await add(omar, { emoji_name: "tada" }, 99999999), "BAD_REQUEST", "Invalid message(s)");
    expectError(await add(omar, {}), "REQUEST_VARIABLE_MISSING");
  });

  it("removes a reaction, once", async () => {
    const q = await lena.queue(["reaction"]);
    expect((await remove(maya, { emoji_name: "tada" })).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ op: "remove", emoji_code: "1f389", user_id: maya.id })]);
    expectError(await remove(maya, { emoji_name: "tada" }), "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");
    expect((await remove(omar, { emoji_code: "1", reaction_type: "realm_emoji" })).status).toBe(200);
  });

  it("refuses guests reacting to messages of channels they cannot read", async () => {
    const eng = await omar.call("POST", "/messages", { type: "stream", to: "engineering", topic: "t", content: "internal" });
    expectError(await add(sam, { emoji_name: "tada" }, eng.body["id"]), "BAD_REQUEST", "Invalid message(s)");
  });
});

describe("drafts", () => {
  it("creates, lists, edits and deletes drafts with events to all the user's clients", async () => {
    const q = await omar.queue(["drafts"]);
    const created = await omar.call("POST", "/drafts", {
      drafts: [
        { type: "stream", to: [generalId], topic: "plans", content: "Let's meet" },
        { type: "private", to: [lena.id], topic: "", content: "hi", timestamp: 1700000000 },
        { type: "", to: [], topic: "", content: "unaddressed" },
      ],
    });
    expect(created.status).toBe(200);
    const ids = created.body["ids"] as number[];
    expect(ids).toHaveLength(3);
    const [add] = await q.drain();
    expect(add).toMatchObject({ type: "drafts", op: "add" });
    expect(add!["drafts"][0]).toMatchObject({ id: ids[0], type: "stream", to: [generalId], topic: "plans", timestamp: expect.any(Number) });
    expect(add!["drafts"][1]["timestamp"]).toBe(1700000000);
    const listed = await omar.call("GET", "/drafts");
    expect(listed.body["count"]).toBe(3);
    const edited = await omar.call("PATCH", `/drafts/${ids[0]}`, { draft: { type: "stream", to: [generalId], topic: "plans", content: "Let's meet at 3" } });
    expect(edited.status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ op: "update", draft: expect.objectContaining({ id: ids[0], content: "Let's meet at 3" }) })]);
    expect((await omar.call("DELETE", `/drafts/${ids[2]}`)).status).toBe(200);
    expect(await q.drain()).toEqual([expect.objectContaining({ op: "remove", draft_id: ids[2] })]);
  });

  it("returns the spec's errors", async () => {
    expectError(await omar.call("POST", "/drafts", { drafts: [{ type: "stream", to: [1, 2], topic: "t", content: "c" }] }), "BAD_REQUEST", "Must specify exactly 1 channel ID for channel messages");
    expectError(await omar.call("POST", "/drafts", { drafts: [{ type: "stream", to: [], topic: "t", content: "c" }] }), "BAD_REQUEST", "Must specify exactly 1 channel ID for channel messages");
    expectError(await omar.call("PATCH", "/drafts/99999", { draft: { type: "", to: [], topic: "", content: "x" } }), "BAD_REQUEST", "Draft does not exist", 404);
    expectError(await omar.call("DELETE", "/drafts/99999"), "BAD_REQUEST", "Draft does not exist", 404);
    expectError(await omar.call("POST", "/drafts", { drafts: [{ type: "", to: [], topic: "", content: "a\u0000b" }] }), "BAD_REQUEST");
    expectError(await omar.call("POST", "/drafts", { drafts: [{ type: "stream", to: [generalId], topic: "a\u0000", content: "b" }] }), "BAD_REQUEST");
    expectError(await omar.call("POST", "/drafts", { drafts: [{ type: "dm", to: [], topic: "", content: "b" }] }), "BAD_REQUEST");
    // Another user's draft does not exist for me.
    const mine = (await lena.call("POST", "/drafts", { drafts: [{ type: "", to: [], topic: "", content: "lena's" }] })).body["ids"][0];
    expectError(await omar.call("DELETE", `/drafts/${mine}`), "BAD_REQUEST", "Draft does not exist", 404);
  });
});

describe("saved snippets", () => {
  it("creates, lists and deletes snippets with events", async () => {
    const q = await omar.queue(["saved_snippets"]);
    const res = await omar.call("POST", "/saved_snippets", { title: "Greeting", content: "Welcome aboard!" });
    const id = res.body["saved_snippet_id"] as number;
    expect((await omar.call("GET", "/saved_snippets")).body["saved_snippets"]).toEqual([
      { id, title: "Greeting", content: "Welcome aboard!", date_created: expect.any(Number) },
    ]);
    const reg = await omar.call("POST", "/register", { fetch_event_types: ["saved_snippets"] });
    expect(reg.body["saved_snippets"]).toEqual([expect.objectContaining({ id, title: "Greeting" })]);
    expect((await omar.call("DELETE", `/saved_snippets/${id}`)).status).toBe(200);
    expect((await q.drain()).map((e) => e["op"])).toEqual(["add", "remove"]);
    expectError(await omar.call("DELETE", `/saved_snippets/${id}`), "BAD_REQUEST", "Saved snippet does not exist.", 404);
    expectError(await omar.call("POST", "/saved_snippets", { title: " ", content: "x" }), "BAD_REQUEST", "Title cannot be empty.");
  });
});

describe("channel folders", () => {
  it("lets administrators create and update folders, with events", async () => {
    const q = await omar.queue(["channel_folder"]);
    expectError(await omar.call("POST", "/channel_folders/create", { name: "Mine", description: "" }), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    expectError(await ben.call("POST", "/channel_folders/create", { name: "No description" }), "REQUEST_VARIABLE_MISSING");
    expectError(await ben.call("POST", "/channel_folders/create", { name: "  ", description: "" }), "BAD_REQUEST");
    expectError(await ben.call("POST", "/channel_folders/create", { name: "n".repeat(61), description: "" }), "BAD_REQUEST");
    const res = await ben.call("POST", "/channel_folders/create", { name: "Ops", description: "Operations **and** on-call" });
    expect(res.status).toBe(200);
    const id = res.body["channel_folder_id"] as number;
    const [add] = await q.drain();
    expect(add).toMatchObject({ type: "channel_folder", op: "add", channel_folder: { id, name: "Ops", order: 2, creator_id: ben.id, is_archived: false } });
    expectError(await omar.call("PATCH", `/channel_folders/${id}`, { name: "x" }), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    expectError(await ben.call("PATCH", "/channel_folders/999", { name: "x" }), "BAD_REQUEST", "Invalid channel folder ID");
    expectError(await ben.call("PATCH", `/channel_folders/${id}`, { name: "" }), "BAD_REQUEST");
    expect((await ben.call("PATCH", `/channel_folders/${id}`, { name: "Operations", is_archived: true })).status).toBe(200);
    expect(await q.drain()).toEqual([
      expect.objectContaining({ op: "update", channel_folder_id: id, data: { name: "Operations", is_archived: true } }),
    ]);
    const listed = await omar.call("GET", "/channel_folders");
    expect((listed.body["channel_folders"] as Json[]).map((f) => f["name"])).toEqual(["Product", "Community"]);
    const all = await omar.call("GET", "/channel_folders", { include_archived: true });
    expect(all.body["channel_folders"]).toHaveLength(3);
  });
});

describe("user groups", () => {
  it("creates a group (members and bots alike) with a user_group add event", async () => {
    const q = await lena.queue(["user_group"]);
    const res = await omar.call("POST", "/user_groups/create", { name: "backend", description: "Server people", members: [omar.id, lena.id] });
    expect(res.status).toBe(200);
    const [event] = await q.drain();
    expect(event).toMatchObject({ type: "user_group", op: "add", group: { id: res.body["group_id"], name: "backend", members: [omar.id, lena.id], is_system_group: false, creator_id: omar.id } });
    expect((await bot.call("POST", "/user_groups/create", { name: "bots-made-this", description: "", members: [] })).status).toBe(200);
    const listed = await omar.call("GET", "/user_groups");
    expect((listed.body["user_groups"] as Json[]).map((g) => g["name"])).toContain("backend");
  });

  it("validates members, names and group settings", async () => {
    const groups = new Map(((await omar.call("GET", "/user_groups")).body["user_groups"] as Json[]).map((g) => [g["name"], g["id"]]));
    const create = (params: Record<string, unknown>) => omar.call("POST", "/user_groups/create", { name: "g1", description: "", members: [], ...params });
    expectError(await create({ members: [500] }), "BAD_REQUEST", "Invalid user ID: 500");
    expectError(await omar.call("POST", "/user_groups/create", { name: "g1", members: [] }), "REQUEST_VARIABLE_MISSING");
    expectError(await omar.call("POST", "/user_groups/create", { name: "g1", description: "" }), "REQUEST_VARIABLE_MISSING");
    expectError(await create({ name: "backend" }), "BAD_REQUEST");
    expectError(await create({ can_manage_group: groups.get("role:everyone") }), "BAD_REQUEST", "'can_manage_group' setting cannot be set to 'role:everyone' group.");
    expectError(await create({ can_manage_group: groups.get("role:internet") }), "BAD_REQUEST", "'can_manage_group' setting cannot be set to 'role:internet' group.");
    expectError(await create({ can_mention_group: groups.get("role:owners") }), "BAD_REQUEST", "'can_mention_group' setting cannot be set to 'role:owners' group.");
    expectError(await sam.call("POST", "/user_groups/create", { name: "guests", description: "", members: [] }), "BAD_REQUEST", "Insufficient permission");
    const ok = await create({ subgroups: [groups.get("design-team")], can_mention_group: { direct_members: [omar.id], direct_subgroups: [] } });
    expect(ok.status).toBe(200);
  });
});

describe("typing", () => {
  it("tells direct-message participants, and channel subscribers that declared the capability", async () => {
    const lenaQ = await lena.queue(["typing"]);
    expect((await omar.call("POST", "/typing", { op: "start", to: [lena.id] })).status).toBe(200);
    expect(await lenaQ.drain()).toEqual([
      expect.objectContaining({ type: "typing", op: "start", message_type: "direct", sender: { user_id: omar.id, email: omar.who.email }, recipients: expect.arrayContaining([{ user_id: lena.id, email: lena.who.email }]) }),
    ]);
    const capable = await lena.queue(["typing"], { client_capabilities: { stream_typing_notifications: true } });
    const plain = await lena.queue(["typing"]);
    expect((await omar.call("POST", "/typing", { op: "stop", type: "channel", stream_id: generalId, topic: "plans" })).status).toBe(200);
    expect(await capable.drain()).toEqual([expect.objectContaining({ op: "stop", message_type: "stream", stream_id: generalId, topic: "plans" })]);
    expect(await plain.drain()).toEqual([]);
  });

  it("validates the request", async () => {
    expectError(await omar.call("POST", "/typing", { op: "start", type: "stream", topic: "t" }), "BAD_REQUEST", "Missing channel ID");
    expectError(await omar.call("POST", "/typing", { op: "start", type: "stream", stream_id: generalId }), "BAD_REQUEST", "Missing topic");
    expectError(await omar.call("POST", "/typing", { op: "pause", to: [lena.id] }), "BAD_REQUEST");
    expectError(await omar.call("POST", "/typing", { op: "start", to: [] }), "BAD_REQUEST");
  });
});

describe("push device tokens", () => {
  it("adds and removes an APNs token", async () => {
    expect((await omar.call("POST", "/users/me/apns_device_token", { token: "abcdef0123", appid: "org.example.app" })).status).toBe(200);
    expectError(await omar.call("POST", "/users/me/apns_device_token", { token: "", appid: "org.example.app" }), "BAD_REQUEST", "Empty or invalid length token");
    expectError(await omar.call("POST", "/users/me/apns_device_token", { token: "f".repeat(256), appid: "org.example.app" }), "BAD_REQUEST", "Empty or invalid length token");
    expectError(await omar.call("POST", "/users/me/apns_device_token", { token: "abcdef" }), "REQUEST_VARIABLE_MISSING");
    expect((await omar.call("DELETE", "/users/me/apns_device_token", { token: "abcdef0123" })).status).toBe(200);
    expectError(await omar.call("DELETE", "/users/me/apns_device_token", { token: "abcdef0123" }), "BAD_REQUEST", "Token does not exist");
    expectError(await omar.call("DELETE", "/users/me/apns_device_token", { token: "" }), "BAD_REQUEST", "Empty or invalid length token");
  });
});

describe("server settings", () => {
  it("describes the server without authentication", async () => {
    const res = await fetch(`${h.server.url}/api/v1/server_settings`, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json()) as Json;
    h.log.push({ method: "GET", path: "/server_settings", status: res.status, body });
    expect(body).toMatchObject({ result: "success", svc_feature_level: 496, realm_name: "Lighthouse Labs", realm_url: h.server.url, push_notifications_enabled: false });
    expect(body["authentication_methods"]).toMatchObject({ password: true, ldap: false });
  });
});

describe("rate limits", () => {
  it("answers 429 RATE_LIMIT_HIT with retry-after once the bucket is empty", async () => {
    const small = await Harness.start({ rateLimit: { requests: 3, windowMs: 60_000 } });
    try {
      const c = small.as(small.account("member"));
      for (let i = 0; i < 3; i++) expect((await c.call("GET", "/users/me")).status).toBe(200);
      const res = await c.call("GET", "/users/me");
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ result: "error", code: "RATE_LIMIT_HIT", msg: "API usage exceeded rate limit" });
      expect(res.body["retry-after"]).toBeGreaterThan(0);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // Another user has a bucket of their own.
      expect((await small.as(small.account("owner")).call("GET", "/users/me")).status).toBe(200);
    } finally {
      await small.close();
    }
  });
});
