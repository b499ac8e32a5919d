import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { userRows } from "../../src/model/selectors-views.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const T0 = 1_763_600_000;

describe("users", () => {
  it("register: active users, deactivated ones and bots are all known", () => {
    const s = eg.store({
      realm_non_active_users: [eg.user({ user_id: 7, full_name: "Gone", is_active: true })],
      cross_realm_bots: [eg.user({ user_id: 8, full_name: "Welcome Bot", is_bot: true, bot_type: 1 })],
    });
    expect(s.users.get(7)?.is_active).toBe(false);
    expect(s.userName(8)).toBe("Welcome Bot");
    expect(userRows(s, T0 * 1000).map((r) => r.name)).toEqual(["Other Person", "Self User", "Third Person"]);
    expect(userRows(s, T0 * 1000, { bots: true, inactive: true })).toHaveLength(5);
  });

  it("realm_user add, update (fields, role, email, profile field, deactivation) and remove", () => {
    const s = eg.store();
    eg.apply(s, { type: "realm_user", op: "add", person: eg.user({ user_id: 50, full_name: "Newcomer" }) });
    expect(s.userName(50)).toBe("Newcomer");
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 50, full_name: "Renamed" } });
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 50, role: 200 } });
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 50, new_email: "new@example.test" } });
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 50, custom_profile_field: { id: 3, value: "Oslo", rendered_value: "<p>Oslo</p>" } } });
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 50, timezone: "Europe/Oslo", avatar_url: null, avatar_version: 3 } });
    expect(s.users.get(50)).toMatchObject({
      full_name: "Renamed",
      role: 200,
      is_admin: true,
      email: "new@example.test",
      timezone: "Europe/Oslo",
      profile_data: { "3": { value: "Oslo", rendered_value: "<p>Oslo</p>" } },
    });
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 50, custom_profile_field: { id: 3, value: null } } });
    expect(s.users.get(50)?.profile_data).toEqual({});
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 50, is_active: false } });
    expect(userRows(s, 0).some((r) => r.userId === 50)).toBe(false);
    eg.apply(s, { type: "realm_user", op: "remove", person: { user_id: 2, full_name: "Other Person" } });
    expect(s.users.get(2)?.is_active).toBe(false);
    expect(s.userName(2)).toBe("Other Person");
    eg.apply(s, { type: "realm_user", op: "update", person: { user_id: 4040, full_name: "nobody" } }); // unknown: ignored
  });

  it("user_status from register and events: partial updates, empty values clear", () => {
    const s = eg.store({ user_status: { "2": { status_text: "on vacation", emoji_name: "palm_tree", emoji_code: "1f334", reaction_type: "unicode_emoji" } } });
    expect(s.people.statuses.get(2)).toMatchObject({ text: "on vacation", emojiName: "palm_tree" });
    eg.apply(s, { type: "user_status", user_id: 2, status_text: "back soon" });
    expect(s.people.statuses.get(2)).toMatchObject({ text: "back soon", emojiName: "palm_tree" });
    eg.apply(s, { type: "user_status", user_id: 2, status_text: "", emoji_name: "", emoji_code: "", reaction_type: "" });
    expect(s.people.statuses.has(2)).toBe(false);
    eg.apply(s, { type: "user_status", user_id: 3, away: true });
    expect(userRows(s, 0).find((r) => r.userId === 3)?.away).toBe(true);
  });
});

describe("presence", () => {
  it("modern register data and the announced threshold decide active, idle and offline", () => {
    const s = eg.store({
      server_presence_offline_threshold_seconds: 100,
      presence_last_update_id: 42,
      presences: { "2": { active_timestamp: T0 - 50, idle_timestamp: T0 - 50 }, "3": { active_timestamp: T0 - 500, idle_timestamp: T0 - 20 } },
    });
    const now = T0 * 1000;
    expect(s.presence.lastUpdateId).toBe(42);
    expect(s.presenceStatus(2, now)).toBe("active");
    expect(s.presenceStatus(3, now)).toBe("idle");
    expect(s.presenceStatus(1, now)).toBe("offline");
    expect(s.presenceStatus(2, now + 60_000)).toBe("offline");
    expect(userRows(s, now).map((r) => [r.name, r.presence])).toEqual([
      ["Other Person", "active"],
      ["Third Person", "idle"],
      ["Self User", "offline"],
    ]);
  });

  it("legacy register data keyed by email and legacy events per client are converted", () => {
    const s = eg.store({
      presences: {
        "other@example.test": { aggregated: { status: "active", timestamp: T0 - 10 }, website: { client: "website", status: "active", timestamp: T0 - 10, pushable: false } },
      },
    });
    expect(s.presenceStatus(2, T0 * 1000)).toBe("active");
    eg.apply(s, {
      type: "presence",
      user_id: 3,
      email: "third@example.test",
      server_timestamp: T0,
      presence: { website: { client: "website", status: "idle", timestamp: T0 - 5, pushable: false } },
    });
    expect(s.presenceStatus(3, T0 * 1000)).toBe("idle");
  });

  it("modern events move times forward only; a presence response merges with its last_update_id", () => {
    const s = eg.store();
    eg.apply(s, { type: "presence", presences: { "2": { active_timestamp: T0, idle_timestamp: T0 } } });
    eg.apply(s, { type: "presence", presences: { "2": { active_timestamp: T0 - 1000, idle_timestamp: T0 - 1000 } } });
    expect(s.presence.byUser.get(2)).toEqual({ active: T0, idle: T0 });
    s.setPresences({ "3": { active_timestamp: T0, idle_timestamp: T0 } }, 77);
    expect(s.presence.lastUpdateId).toBe(77);
    expect(s.presenceStatus(3, T0 * 1000 + 1000)).toBe("active");
  });

  it("tells only the presence views, and only when something moved (the rest of the screen is not redrawn)", () => {
    const s = eg.store();
    let views = 0;
    let presenceViews = 0;
    s.subscribe(() => views++);
    s.subscribePresence(() => presenceViews++);
    const version = s.version;
    eg.apply(s, { type: "presence", presences: { "2": { active_timestamp: T0, idle_timestamp: T0 } } });
    expect([views, presenceViews, s.version]).toEqual([0, 1, version]);
    eg.apply(s, { type: "presence", presences: { "2": { active_timestamp: T0, idle_timestamp: T0 } } }); // nothing new
    s.setPresences({ "2": { active_timestamp: T0 - 5, idle_timestamp: T0 } }, 80); // older: nothing new
    expect(presenceViews).toBe(1);
    s.setPresences({ "2": { active_timestamp: T0 + 60, idle_timestamp: T0 + 60 } }, 81);
    expect([views, presenceViews]).toEqual([0, 2]);
  });
});

describe("typing", () => {
  it("start and stop per conversation; notices expire after the server's period via expireTyping(now)", () => {
    let now = 1_000_000;
    const s = eg.store({ server_typing_started_expiry_period_milliseconds: 15_000 }, { now: () => now });
    const dm = { type: "typing", message_type: "direct", sender: { user_id: 2 }, recipients: [{ user_id: 1 }, { user_id: 2 }] };
    const topic = { type: "typing", message_type: "stream", sender: { user_id: 3 }, stream_id: 10, topic: "Lunch" };
    eg.apply(s, { ...dm, op: "start" });
    now += 5_000;
    eg.apply(s, { ...topic, op: "start" });
    expect(s.typistsIn({ userIds: [2] })).toEqual([2]);
    expect(s.typistsIn({ channelId: 10, topic: "lunch" })).toEqual([3]);
    expect(s.nextTypingExpiry()).toBe(1_015_000);
    const v = s.version;
    expect(s.expireTyping(1_015_000)).toBe(true);
    expect(s.version).toBe(v + 1);
    expect(s.typistsIn({ userIds: [2] })).toEqual([]);
    eg.apply(s, { ...topic, op: "stop" });
    expect(s.typistsIn({ channelId: 10, topic: "lunch" })).toEqual([]);
    expect(s.expireTyping(2_000_000)).toBe(false);
  });

  it("group DMs key by all participants but self; one's own typing is not shown", () => {
    const s = eg.store({}, { now: () => 0 });
    eg.apply(s, { type: "typing", op: "start", message_type: "private", sender: { user_id: 3 }, recipients: [{ user_id: 1 }, { user_id: 2 }, { user_id: 3 }] });
    eg.apply(s, { type: "typing", op: "start", message_type: "direct", sender: { user_id: 1 }, recipients: [{ user_id: 1 }, { user_id: 2 }] });
    expect(s.typistsIn({ userIds: [3, 2, 1] })).toEqual([3]);
    expect(s.typistsIn({ userIds: [2] })).toEqual([]);
  });
});

describe("user groups", () => {
  it("register groups; add, update, members and subgroups, remove", () => {
    const s = eg.store({ realm_user_groups: [eg.userGroup({ id: 1, name: "role:members", members: [1, 2], is_system_group: true })] });
    eg.apply(s, { type: "user_group", op: "add", group: eg.userGroup({ id: 5, name: "design", members: [3] }) });
    eg.apply(s, { type: "user_group", op: "update", group_id: 5, data: { name: "designers", description: "pixels", can_mention_group: 1 } });
    eg.apply(s, { type: "user_group", op: "add_members", group_id: 5, user_ids: [2, 3] });
    eg.apply(s, { type: "user_group", op: "remove_members", group_id: 5, user_ids: [3] });
    eg.apply(s, { type: "user_group", op: "add_subgroups", group_id: 5, direct_subgroup_ids: [1] });
    expect(s.people.groups.get(5)).toMatchObject({ name: "designers", description: "pixels", members: [2], direct_subgroup_ids: [1], can_mention_group: 1 });
    expect([...s.people.groupMembers(5)].sort()).toEqual([1, 2]);
    eg.apply(s, { type: "user_group", op: "remove_subgroups", group_id: 5, direct_subgroup_ids: [1] });
    expect([...s.people.groupMembers(5)]).toEqual([2]);
    eg.apply(s, { type: "user_group", op: "update", group_id: 5, data: { deactivated: true } });
    expect(s.people.groups.get(5)?.deactivated).toBe(true);
    eg.apply(s, { type: "user_group", op: "remove", group_id: 5 });
    expect(s.people.groups.has(5)).toBe(false);
  });

  it("membership through subgroups tolerates cycles", () => {
    const s = eg.store({
      realm_user_groups: [eg.userGroup({ id: 1, members: [1], direct_subgroup_ids: [2] }), eg.userGroup({ id: 2, members: [2], direct_subgroup_ids: [1] })],
    });
    expect([...s.people.groupMembers(1)].sort()).toEqual([1, 2]);
  });
});
