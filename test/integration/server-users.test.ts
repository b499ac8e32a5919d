// Reference server: users (get by id or email, list, me, deactivate), status
// and presence, with their events.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Harness, expectError, type Client, type Json } from "../fixtures/server-client.js";

let h: Harness;
let maya: Client; // owner
let ben: Client; // administrator
let omar: Client; // member
let lena: Client; // member
let diego: Client; // member, last seen two days ago
let sam: Client; // guest
let host: string;

beforeAll(async () => {
  h = await Harness.start();
  maya = h.as(h.account("owner"));
  ben = h.as(h.account("admin"));
  omar = h.as(h.account("member", 0));
  lena = h.as(h.account("member", 1));
  diego = h.as(h.account("member", 2));
  sam = h.as(h.account("guest"));
  host = new URL(h.server.url).hostname;
});
afterAll(async () => {
  expect(h.conformanceProblems()).toEqual([]);
  await h.close();
});

describe("get users", () => {
  it("gets a user by id, real email or dummy address", async () => {
    const byId = await omar.call("GET", `/users/${maya.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body["user"]).toMatchObject({ user_id: maya.id, email: maya.who.email, delivery_email: maya.who.email, is_owner: true, role: 100 });
    expect(byId.body["user"]).not.toHaveProperty("profile_data");
    const withProfile = await omar.call("GET", `/users/${maya.id}`, { include_custom_profile_fields: true });
    expect(withProfile.body["user"]["profile_data"]).toEqual({});
    const byEmail = await omar.call("GET", `/users/${encodeURIComponent(maya.who.email)}`);
    expect(byEmail.body["user"]["user_id"]).toBe(maya.id);
    const dummy = await omar.call("GET", `/users/user${maya.id}@${host}`);
    expect(dummy.body["user"]["user_id"]).toBe(maya.id);
    expectError(await omar.call("GET", "/users/99999"), "BAD_REQUEST", "No such user");
    expectError(await omar.call("GET", "/users/nobody@lighthouse.test"), "BAD_REQUEST", "No such user");
  });

  it("lists every user, deactivated ones included, and describes me", async () => {
    const list = await sam.call("GET", "/users");
    const members = list.body["members"] as Json[];
    expect(members.some((u) => u["is_active"] === false)).toBe(true);
    expect(members.find((u) => u["user_id"] === sam.id)).toMatchObject({ is_guest: true, role: 600 });
    const me = await omar.call("GET", "/users/me");
    expect(me.body).toMatchObject({ user_id: omar.id, email: omar.who.email, is_admin: false, role: 400, max_message_id: expect.any(Number) });
    expect(typeof me.body["avatar_url"]).toBe("string");
  });
});

describe("status", () => {
  const post = (who: Client, params: Record<string, unknown>) => who.call("POST", "/users/me/status", params);

  it("sets text and emoji, telling everyone", async () => {
    const q = await maya.queue(["user_status"]);
    expect((await post(omar, { status_text: "  In a meeting  ", emoji_name: "calendar" })).status).toBe(200);
    expect(await q.drain()).toEqual([
      expect.objectContaining({ type: "user_status", user_id: omar.id, status_text: "In a meeting", emoji_name: "calendar", emoji_code: "1f4c5", reaction_type: "unicode_emoji" }),
    ]);
    const got = await maya.call("GET", `/users/${omar.id}/status`);
    expect(got.body["status"]).toEqual({ status_text: "In a meeting", emoji_name: "calendar", emoji_code: "1f4c5", reaction_type: "unicode_emoji" });
    expect((await post(omar, { status_text: "", emoji_name: "" })).status).toBe(200);
    expect((await maya.call("GET", `/users/${omar.id}/status`)).body["status"]).toEqual({});
    expectError(await maya.call("GET", "/users/99999/status"), "BAD_REQUEST", "No such user");
  });

  it("accepts custom emoji and away (which turns presence sharing off)", async () => {
    const settings = await omar.queue(["user_settings"]);
    expect((await post(omar, { emoji_name: "lighthouse", emoji_code: "1", reaction_type: "realm_emoji" })).status).toBe(200);
    expect((await post(omar, { away: true })).status).toBe(200);
    expect(await settings.drain()).toEqual([expect.objectContaining({ type: "user_settings", op: "update", property: "presence_enabled", value: false })]);
    expect((await post(omar, { away: false })).status).toBe(200);
  });

  it("returns the spec's errors", async () => {
    expectError(await post(omar, {}), "BAD_REQUEST", "Client did not pass any new values.");
    expectError(await post(omar, { status_text: "x".repeat(61) }), "BAD_REQUEST", "status_text is too long (limit: 60 characters)");
    expect((await post(omar, { status_text: "é".repeat(60) })).status).toBe(200);
    expectError(await post(omar, { status_text: "x", emoji_code: "1f4c5" }), "BAD_REQUEST", "Client must pass emoji_name if they pass either emoji_code or reaction_type.");
    expectError(await post(omar, { emoji_name: "invalid" }), "BAD_REQUEST", "Emoji 'invalid' does not exist");
    expectError(await post(omar, { emoji_name: "smile", emoji_code: "1f4c5", reaction_type: "unicode_emoji" }), "BAD_REQUEST", "Invalid emoji name.");
    expectError(await post(omar, { emoji_name: "lighthouse", emoji_code: "99", reaction_type: "realm_emoji" }), "BAD_REQUEST", "Invalid custom emoji.");
  });
});

describe("presence", () => {
  const post = (who: Client, params: Record<string, unknown>) => who.call("POST", "/users/me/presence", params);

  it("returns the modern format with last_update_id and the legacy format otherwise", async () => {
    const modern = await omar.call("POST", "/users/me/presence", { status: "active", last_update_id: -1 });
    expect(modern.status).toBe(200);
    expect(modern.body["presences"][String(maya.id)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(modern.body["presence_last_update_id"]).toBeGreaterThan(0);
    expect(typeof modern.body["server_timestamp"]).toBe("number");
    const legacy = await omar.call("POST", "/users/me/presence", { status: "active" });
    expect(legacy.body["presences"][maya.who.email]).toMatchObject({ aggregated: { client: "website", status: "active" } });
    const slim = await omar.call("POST", "/users/me/presence", { status: "idle", slim_presence: true });
    expect(slim.body["presences"]).toHaveProperty(String(maya.id));
    // A later last_update_id returns only newer changes.
    const since = await omar.call("POST", "/users/me/presence", { status: "active", last_update_id: modern.body["presence_last_update_id"] });
    expect(since.body["presences"]).toEqual({});
    expect(since.body["presence_last_update_id"]).toBe(modern.body["presence_last_update_id"]);
    const ping = await omar.call("POST", "/users/me/presence", { status: "active", ping_only: true, new_user_input: true });
    expect(ping.body).not.toHaveProperty("presences");
    expect(ping.body).not.toHaveProperty("server_timestamp");
    expectError(await post(omar, { status: "away" }), "BAD_REQUEST");
    expectError(await post(omar, {}), "REQUEST_VARIABLE_MISSING");
  });

  it("sends presence events: modern with simplified_presence_events, legacy otherwise", async () => {
    const modern = await maya.queue(["presence"], { client_capabilities: { simplified_presence_events: true } });
    const legacy = await maya.queue(["presence"]);
    const res = await post(diego, { status: "active" });
    expect(res.status).toBe(200);
    const [m] = await modern.drain();
    expect(m).toMatchObject({ type: "presence", presences: { [String(diego.id)]: { active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) } } });
    const [l] = await legacy.drain();
    expect(l).toMatchObject({ type: "presence", user_id: diego.id, email: diego.who.email, presence: { node: { client: "node", status: "active" } } });
    // Reporting again at once changes nothing and sends nothing.
    await post(diego, { status: "active" });
    expect(await modern.drain()).toEqual([]);
  });

  it("answers the realm and per-user presence endpoints", async () => {
    const realm = await omar.call("GET", "/realm/presence");
    expect(realm.body["presences"][maya.who.email]["aggregated"]).toMatchObject({ status: "active" });
    const one = await omar.call("GET", `/users/${maya.id}/presence`);
    expect(one.body["presence"]["aggregated"]).toMatchObject({ status: "active", timestamp: expect.any(Number) });
    const byEmail = await omar.call("GET", `/users/${encodeURIComponent(maya.who.email)}/presence`);
    expect(byEmail.status).toBe(200);
    expectError(await omar.call("GET", `/users/${h.account("bot").userId}/presence`), "BAD_REQUEST", "Presence is not supported for bot users.");
  });
});

describe("deactivate a user", () => {
  it("is for administrators only, and never the only owner", async () => {
    expectError(await omar.call("DELETE", `/users/${lena.id}`), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
    expectError(await ben.call("DELETE", `/users/${maya.id}`), "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
    expectError(await maya.call("DELETE", `/users/${maya.id}`), "BAD_REQUEST", "Cannot deactivate the only organization owner");
    expectError(await ben.call("DELETE", "/users/99999"), "BAD_REQUEST", "No such user");
    expectError(await ben.call("DELETE", `/users/${lena.id}`, { actions: { delete_everything: true } }), "BAD_REQUEST");
  });

  it("deactivates the user's bots first, then the user; their key stops working", async () => {
    const bot = h.account("bot");
    const q = await omar.queue(["realm_user", "realm_bot", "subscription"]);
    const admin = await maya.queue(["realm_bot"]);
    const res = await maya.call("DELETE", `/users/${ben.id}`, { deactivation_notification_comment: "Thanks for everything" });
    expect(res.status).toBe(200);
    const events = await q.drain();
    const deactivated = events.filter((e) => e["type"] === "realm_user").map((e) => e["person"]);
    expect(deactivated).toEqual([{ user_id: bot.userId, is_active: false }, { user_id: ben.id, is_active: false }]);
    expect(events.some((e) => e["op"] === "peer_remove" && e["user_ids"].includes(ben.id))).toBe(true);
    expect(await admin.drain()).toEqual([expect.objectContaining({ type: "realm_bot", op: "remove", bot: { user_id: bot.userId, full_name: "CI Bot" } })]);
    const denied = await ben.call("GET", "/users/me");
    expect(denied.status).toBe(401);
    expect(denied.body).toMatchObject({ result: "error", code: "USER_DEACTIVATED" });
    expect((await omar.call("GET", `/users/${ben.id}`)).body["user"]["is_active"]).toBe(false);
  });

  it("applies the deletion actions", async () => {
    const sent = await lena.call("POST", "/messages", { type: "stream", to: "general", topic: "bye", content: "so long" });
    expect(sent.status).toBe(200);
    const q = await omar.queue(["delete_message", "realm_user"], { client_capabilities: { bulk_message_deletion: true } });
    const res = await maya.call("DELETE", `/users/${lena.id}`, { actions: { delete_profile: true, delete_public_channel_messages: true } });
    expect(res.status).toBe(200);
    const events = await q.drain();
    expect(events).toContainEqual(expect.objectContaining({ type: "delete_message", message_ids: [sent.body["id"]], message_type: "stream" }));
    expect(events).toContainEqual(expect.objectContaining({ type: "realm_user", person: { user_id: lena.id, full_name: `Deleted User ${lena.id}` } }));
    const user = (await omar.call("GET", `/users/${lena.id}`)).body["user"];
    expect(user).toMatchObject({ is_active: false, is_deleted: true });
  });
});
