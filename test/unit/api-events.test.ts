/**
 * parseEvent beyond the public examples: variants newer than feature level
 * 372 (taken from the spec), both spellings of renamed names, unknown types
 * and ops, malformed events.
 */
import { describe, expect, it } from "vitest";
import { KNOWN_EVENT_TYPES, MalformedEventError, parseEvent, type ServerEvent } from "../../src/api/schemas/events.js";
import { getNavigationViewsResponseSchema, getRemindersResponseSchema } from "../../src/api/schemas/scheduled.js";

function parsed<T extends ServerEvent["type"]>(raw: Record<string, unknown>, type: T): Extract<ServerEvent, { type: T }> {
  const e = parseEvent(raw);
  expect(e.type).toBe(type);
  return e as Extract<ServerEvent, { type: T }>;
}

describe("events the spec adds after feature level 372", () => {
  it("channel_folder add / update / reorder", () => {
    const add = parsed({ id: 1, type: "channel_folder", op: "add", channel_folder: { id: 2, name: "Teams", order: 0, date_created: 1, creator_id: null, description: "" } }, "channel_folder");
    expect(add.op === "add" && add.channel_folder.name).toBe("Teams");
    const upd = parsed({ id: 2, type: "channel_folder", op: "update", channel_folder_id: 2, data: { is_archived: true } }, "channel_folder");
    expect(upd.op === "update" && upd.data.is_archived).toBe(true);
    expect(parsed({ id: 3, type: "channel_folder", op: "reorder", order: [2, 1] }, "channel_folder").op).toBe("reorder");
  });

  it("realm_emoji add, and edit under both names (spec `edit`, public `update_one`)", () => {
    const emoji = { id: "2", name: "party", source_url: "/e/2.png", still_url: null, deactivated: false, author_id: 11 };
    const add = parsed({ id: 1, type: "realm_emoji", op: "add", emoji }, "realm_emoji");
    expect(add.op === "add" && add.emoji.name).toBe("party");
    for (const op of ["edit", "update_one"]) {
      const e = parsed({ id: 2, type: "realm_emoji", op, emoji_id: "2", data: { deactivated: true } }, "realm_emoji");
      expect(e.op).toBe(op);
    }
  });

  it("navigation views under both type names", () => {
    for (const type of ["navigation_view", "navigation_views"] as const) {
      expect(parsed({ id: 1, type, op: "add", navigation_view: { fragment: "inbox", is_pinned: true } }, type).op).toBe("add");
      expect(parsed({ id: 2, type, op: "update", fragment: "inbox", data: { is_pinned: false } }, type).op).toBe("update");
      expect(parsed({ id: 3, type, op: "remove", fragment: "inbox" }, type).op).toBe("remove");
    }
  });

  it("reminders add / remove (feature level 399), as the service's reminder record", () => {
    const reminder = {
      reminder_id: 42, type: "private", to: [10], content: "You requested a reminder for the following message.",
      rendered_content: "<p>You requested a reminder for the following message.</p>", scheduled_delivery_timestamp: 1_700_000_000,
      failed: false, reminder_target_message_id: 123, a_newer_field: [1],
    };
    const add = parsed({ id: 1, type: "reminders", op: "add", reminders: [reminder] }, "reminders");
    expect(add.op === "add" && add.reminders[0]).toMatchObject({ reminder_id: 42, reminder_target_message_id: 123, to: [10] });
    const removed = parsed({ id: 2, type: "reminders", op: "remove", reminder_id: 42 }, "reminders");
    expect(removed.op === "remove" && removed.reminder_id).toBe(42);
    expect(() => parseEvent({ id: 3, type: "reminders", op: "remove" })).toThrow(MalformedEventError);
  });

  it("the reminders list and navigation views list parse as the service sends them", () => {
    const reminders = getRemindersResponseSchema.parse({
      result: "success", msg: "",
      reminders: [{ reminder_id: 1, type: "private", to: [10], content: "c", rendered_content: "<p>c</p>", scheduled_delivery_timestamp: 5, failed: true, reminder_target_message_id: 9 }],
    });
    expect(reminders.reminders[0]?.failed).toBe(true);
    const views = getNavigationViewsResponseSchema.parse({
      result: "success", msg: "",
      navigation_views: [{ fragment: "inbox", is_pinned: false, name: null }, { fragment: "narrow/is/alerted", is_pinned: true, name: "Alert words" }],
    });
    expect(views.navigation_views.map((v) => v.name ?? null)).toEqual([null, "Alert words"]);
  });

  it("presence in the modern format (simplified_presence_events)", () => {
    const e = parsed({ id: 4, type: "presence", presences: { "10": { active_timestamp: 5, idle_timestamp: 6 } } }, "presence");
    expect(e.presences?.["10"]?.idle_timestamp).toBe(6);
  });

  it("presence without either format is ignored as unknown (losing a presence ping puts nothing in doubt)", () => {
    expect(parseEvent({ id: 4, type: "presence", user_id: 1 })).toEqual({ type: "unknown", id: 4, raw: { id: 4, type: "presence", user_id: 1 } });
  });

  it("reaction types: the public zulip_extra_emoji becomes svc_extra_emoji", () => {
    const raw = { id: 5, type: "reaction", op: "add", message_id: 1, user_id: 2, emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" };
    expect(parsed(raw, "reaction").reaction_type).toBe("svc_extra_emoji");
    expect(parsed({ ...raw, reaction_type: "svc_extra_emoji" }, "reaction").reaction_type).toBe("svc_extra_emoji");
  });

  it("restart: zulip_feature_level is read as svc_feature_level", () => {
    expect(parsed({ id: 6, type: "restart", zulip_feature_level: 372, server_generation: 1 }, "restart").svc_feature_level).toBe(372);
    expect(parsed({ id: 6, type: "restart", svc_feature_level: 400 }, "restart").svc_feature_level).toBe(400);
  });

  it("delete_message in bulk form", () => {
    const e = parsed({ id: 7, type: "delete_message", message_type: "stream", message_ids: [1, 2], stream_id: 3, topic: "t" }, "delete_message");
    expect(e.message_ids).toEqual([1, 2]);
  });

  it("update_message_flags from an old server (operation only)", () => {
    const e = parsed({ id: 8, type: "update_message_flags", operation: "add", flag: "read", messages: [1] }, "update_message_flags");
    expect(e.operation).toBe("add");
    expect(e.all).toBe(false);
  });
});

describe("tolerance", () => {
  it("an unknown type is kept raw", () => {
    const raw = { id: 9, type: "hologram", op: "beam" };
    expect(parseEvent(raw)).toEqual({ type: "unknown", id: 9, raw });
  });

  it("an unknown op of a known type is unknown, not malformed", () => {
    expect(parseEvent({ id: 10, type: "subscription", op: "teleport" }).type).toBe("unknown");
    expect(parseEvent({ id: 11, type: "user_group", op: "merge", group_id: 1 }).type).toBe("unknown");
    expect(parseEvent({ id: 12, type: "drafts", op: "toString" }).type).toBe("unknown");
  });

  it("a known event with a bad field throws MalformedEventError naming the field", () => {
    const bad = { id: 13, type: "subscription", op: "peer_add", stream_ids: "all", user_ids: [1] };
    expect(() => parseEvent(bad)).toThrow(/stream_ids/);
  });

  it("a known op-dispatched type without op is malformed", () => {
    expect(() => parseEvent({ id: 14, type: "drafts", drafts: [] })).toThrow(MalformedEventError);
  });

  it("unknown fields pass through", () => {
    const e = parseEvent({ id: 15, type: "user_topic", stream_id: 1, topic_name: "t", visibility_policy: 3, future: "x" });
    expect((e as unknown as Record<string, unknown>).future).toBe("x");
  });

  it("non-objects are unknown with id -1", () => {
    expect(parseEvent(null)).toEqual({ type: "unknown", id: -1, raw: {} });
    expect(parseEvent([1])).toEqual({ type: "unknown", id: -1, raw: {} });
  });

  it("knows every event type the spec names", () => {
    for (const t of ["message", "subscription", "realm_user", "delete_message", "presence", "realm_emoji", "realm_linkifiers", "user_settings", "stream", "drafts", "update_display_settings", "update_global_notifications"]) {
      expect(KNOWN_EVENT_TYPES).toContain(t);
    }
  });

  it("parses 10 000 events quickly (it runs on every event)", () => {
    const events = Array.from({ length: 10_000 }, (_, i) => ({
      id: i,
      type: "update_message_flags",
      op: "add",
      operation: "add",
      flag: "read",
      messages: [i],
      all: false,
    }));
    const start = performance.now();
    for (const e of events) parseEvent(e);
    // Generous bound: a regression to a giant union would be ~10× slower.
    expect(performance.now() - start).toBeLessThan(2000);
  });
});
