// Users and people: get a user by ID and by email, fetch an API key, status,
// presence, user groups and deactivation — the client's api functions over
// real HTTP, with permission failures and the events other users receive.

import { describe, expect, it } from "vitest";
import {
  createUserGroup,
  deactivateUser,
  fetchApiKey,
  getUser,
  getUserByEmail,
  getUserStatus,
  register,
  updatePresence,
  updateStatus,
  type ApiClient,
} from "../../src/api/index.js";
import { withServer } from "../fixtures/server.js";
import { Listener, expectApiError, uniq, useServer } from "./api-operations-kit.js";

const server = useServer();
const as = (who: string): ApiClient => server().client(who);
const account = (short: string) => server().server.accounts.find((a) => a.email.startsWith(`${short}@`))!;
const userId = (short: string): number => account(short).userId;

describe("get a user", () => {
  it("by ID, with the query parameters", async () => {
    const { user } = await getUser(as("omar"), userId("lena"), { client_gravatar: false, include_custom_profile_fields: true });
    expect(user).toMatchObject({ user_id: userId("lena"), full_name: "Lena Fischer", email: account("lena").email, role: 400, is_admin: false, is_bot: false });
    expect(typeof user.avatar_url).toBe("string");
    expect(user.profile_data).toBeTypeOf("object");
    const bot = (await getUser(as("omar"), userId("ci-bot"))).user;
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: userId("ben") });
    await expectApiError(getUser(as("omar"), 99_999), "BAD_REQUEST", "No such user");
  });

  it("by real email and by the dummy address user{id}@{realm_host}", async () => {
    expect((await getUserByEmail(as("omar"), account("hana").email)).user.user_id).toBe(userId("hana"));
    const host = new URL(server().server.url).hostname;
    expect((await getUserByEmail(as("omar"), `user${userId("hana")}@${host}`)).user.full_name).toBe("Hana Suzuki");
    await expectApiError(getUserByEmail(as("omar"), "nobody@lighthouse.test"), "BAD_REQUEST", "No such user");
    await expectApiError(getUserByEmail(as("omar"), `user${userId("hana")}@elsewhere.example`), "BAD_REQUEST", "No such user");
  });
});

describe("fetch an API key", () => {
  it("exchanges the password for the key, email and user ID; a wrong password is AUTHENTICATION_FAILED", async () => {
    const priya = account("priya");
    expect(await fetchApiKey(server().server.url, priya.email, priya.password)).toMatchObject({ api_key: priya.apiKey, email: priya.email, user_id: priya.userId });
    await expectApiError(fetchApiKey(server().server.url, priya.email, "not-it"), "AUTHENTICATION_FAILED", "Your username or password is incorrect", 401);
    await expectApiError(fetchApiKey(server().server.url, "ghost@lighthouse.test", "x"), "AUTHENTICATION_FAILED", undefined, 401);
  });
});

describe("update your status", () => {
  it("changes only the passed fields; everyone gets user_status events", async () => {
    const watcher = await Listener.open(as("ben"), ["user_status"]);
    await updateStatus(as("diego"), { status_text: "In a meeting", emoji_name: "calendar" });
    expect(await watcher.next("user_status", (e) => e.user_id === userId("diego"))).toMatchObject({
      status_text: "In a meeting", emoji_name: "calendar", emoji_code: "1f4c5", reaction_type: "unicode_emoji",
    });
    await updateStatus(as("diego"), { status_text: "Lunch" });
    expect(await getUserStatus(as("ben"), userId("diego"))).toMatchObject({ status: { status_text: "Lunch", emoji_name: "calendar" } });
    await updateStatus(as("diego"), { emoji_name: "lighthouse", reaction_type: "realm_emoji", emoji_code: "1" });
    expect(await watcher.next("user_status", (e) => e.emoji_name === "lighthouse")).toMatchObject({ reaction_type: "realm_emoji", emoji_code: "1" });
    await updateStatus(as("diego"), { status_text: "", emoji_name: "" });
    expect((await getUserStatus(as("ben"), userId("diego"))).status).toEqual({});
  });

  it("refuses each invalid request with the spec's message", async () => {
    const d = as("diego");
    await expectApiError(updateStatus(d, {}), "BAD_REQUEST", "Client did not pass any new values.");
    await expectApiError(updateStatus(d, { status_text: "x".repeat(61) }), "BAD_REQUEST", "status_text is too long (limit: 60 characters)");
    await updateStatus(d, { status_text: "é".repeat(60) }); // 60 code points is fine
    // Like the service, an emoji code alone is "no new values"; with another field it needs the name.
    await expectApiError(updateStatus(d, { emoji_code: "1f4c5" }), "BAD_REQUEST", "Client did not pass any new values.");
    await expectApiError(updateStatus(d, { status_text: "x", emoji_code: "1f4c5" }), "BAD_REQUEST", "Client must pass emoji_name if they pass either emoji_code or reaction_type.");
    await expectApiError(updateStatus(d, { away: false, reaction_type: "unicode_emoji" }), "BAD_REQUEST", "Client must pass emoji_name if they pass either emoji_code or reaction_type.");
    await expectApiError(updateStatus(d, { emoji_name: "not_an_emoji_at_all" }), "BAD_REQUEST", "Emoji 'not_an_emoji_at_all' does not exist");
    await expectApiError(updateStatus(d, { emoji_name: "tada", emoji_code: "1f4c5", reaction_type: "unicode_emoji" }), "BAD_REQUEST", "Invalid emoji name.");
    await expectApiError(updateStatus(d, { emoji_name: "lighthouse", emoji_code: "999", reaction_type: "realm_emoji" }), "BAD_REQUEST", "Invalid custom emoji.");
  });
});

describe("update your presence", () => {
  it("returns legacy presence by email, modern by user ID with last_update_id, nothing with ping_only", async () => {
    const lena = as("lena");
    const legacy = await updatePresence(lena, { status: "active" });
    expect(Object.keys(legacy.presences ?? {})).toContain(account("maya").email);
    const modern = await updatePresence(lena, { status: "active", last_update_id: -1, new_user_input: true });
    expect(modern.presences?.[String(userId("maya"))]).toMatchObject({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(modern.presence_last_update_id).toBeGreaterThan(0);
    const last = modern.presence_last_update_id!;
    const again = await updatePresence(lena, { status: "active", last_update_id: last });
    expect(again.presence_last_update_id).toBeGreaterThanOrEqual(last);
    const ping = await updatePresence(lena, { status: "idle", ping_only: true });
    expect(ping.presences).toBeUndefined();
    expect(ping.server_timestamp).toBeUndefined();
    expect((await updatePresence(lena, { status: "active", slim_presence: true, history_limit_days: 1 })).presences?.[String(userId("maya"))]).toBeDefined();
    await expectApiError(updatePresence(lena, { status: "away" as "idle" }), "BAD_REQUEST", "Invalid presence status: away");
  });

  it("sends presence events to other users, in the modern format with simplified_presence_events", async () => {
    const legacy = await Listener.open(as("omar"), ["presence"]);
    const modern = await Listener.open(as("ben"), ["presence"], { client_capabilities: { simplified_presence_events: true } });
    await updatePresence(as("diego"), { status: "active" }); // diego was last seen two days ago
    expect(await legacy.next("presence", (e) => e.user_id === userId("diego"))).toMatchObject({ email: account("diego").email, presence: expect.any(Object) });
    const ev = await modern.next("presence", (e) => e.presences?.[String(userId("diego"))] !== undefined);
    expect(ev.presences?.[String(userId("diego"))]?.active_timestamp).toBeGreaterThan(Date.now() / 1000 - 60);
  });
});

describe("create a user group", () => {
  it("creates with members, subgroups and settings; everyone gets user_group add", async () => {
    const watcher = await Listener.open(as("hana"), ["user_group"]);
    const groups = (await register(as("omar"), { fetch_event_types: ["realm_user_groups"] })).realm_user_groups ?? [];
    const design = groups.find((g) => g.name === "design-team")!.id;
    const moderators = groups.find((g) => g.name === "role:moderators")!.id;
    const name = uniq("group");
    const { group_id } = await createUserGroup(as("omar"), {
      name, description: "Test group", members: [userId("omar"), userId("lena")], subgroups: [design],
      can_manage_group: { direct_members: [userId("omar")], direct_subgroups: [] }, can_mention_group: moderators,
    });
    const ev = await watcher.next("user_group", (e) => e.op === "add" && e.group.id === group_id);
    expect(ev.group).toMatchObject({ name, description: "Test group", members: [userId("omar"), userId("lena")].sort((a, b) => a - b), direct_subgroup_ids: [design] });
    // Bots may create groups (feature level 496).
    await createUserGroup(as("ci-bot"), { name: uniq("botgroup"), description: "", members: [] });
  });

  it("refuses unknown members, guests, duplicate names and forbidden system groups", async () => {
    await expectApiError(createUserGroup(as("omar"), { name: uniq("g"), description: "", members: [99_999] }), "BAD_REQUEST", "Invalid user ID: 99999");
    await expectApiError(createUserGroup(as("sam"), { name: uniq("g"), description: "", members: [] }), "BAD_REQUEST", "Insufficient permission");
    await expectApiError(createUserGroup(as("omar"), { name: "design-team", description: "", members: [] }), "BAD_REQUEST", "User group 'design-team' already exists.");
    const groups = (await register(as("omar"), { fetch_event_types: ["realm_user_groups"] })).realm_user_groups ?? [];
    const everyone = groups.find((g) => g.name === "role:everyone")!.id;
    await expectApiError(
      createUserGroup(as("omar"), { name: uniq("g"), description: "", members: [], can_manage_group: everyone }),
      "BAD_REQUEST",
      "'can_manage_group' setting cannot be set to 'role:everyone' group.",
    );
  });
});

describe("deactivate a user", () => {
  it("is for administrators; the only owner stays; others get realm_user update with is_active false and cannot log in", async () => {
    // Its own server: deactivation changes who exists for every later test.
    const ctx = await withServer();
    try {
      const who = (short: string) => ctx.server.accounts.find((a) => a.email.startsWith(`${short}@`))!;
      const watcher = await Listener.open(ctx.client("omar"), ["realm_user"]);
      await expectApiError(deactivateUser(ctx.client("lena"), who("hana").userId), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
      await expectApiError(deactivateUser(ctx.client("priya"), who("hana").userId), "UNAUTHORIZED_PRINCIPAL", "Must be an organization administrator");
      await expectApiError(deactivateUser(ctx.client("ben"), who("maya").userId), "UNAUTHORIZED_PRINCIPAL", "Must be an organization owner");
      await expectApiError(deactivateUser(ctx.client("maya"), who("maya").userId), "BAD_REQUEST", "Cannot deactivate the only organization owner");
      await expectApiError(deactivateUser(ctx.client("ben"), 99_999), "BAD_REQUEST", "No such user");

      await deactivateUser(ctx.client("ben"), who("hana").userId, { actions: { delete_profile: false, delete_direct_messages: false }, deactivation_notification_comment: "" });
      expect(await watcher.next("realm_user", (e) => e.op === "update" && e.person.user_id === who("hana").userId)).toMatchObject({ person: { is_active: false } });
      expect((await getUser(ctx.client("omar"), who("hana").userId)).user.is_active).toBe(false);
      await expectApiError(getUser(ctx.client("hana"), who("omar").userId), "USER_DEACTIVATED", "Account is deactivated", 401);
      expect(ctx.conformance.problems()).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
