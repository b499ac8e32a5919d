import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KNOWN_EVENT_TYPES, parseEvent } from "../../src/api/schemas/events.js";
import * as eg from "../fixtures/example.js";
import { eventVariants, toServiceNames } from "../fixtures/openapi.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

describe("per-user data", () => {
  it("drafts: register, add, update, remove", () => {
    const d = eg.draft({ id: 1 });
    const s = eg.store({ drafts: [d] });
    expect(s.personal.drafts.get(1)?.content).toBe("half a thought");
    eg.apply(s, { type: "drafts", op: "add", drafts: [eg.draft({ id: 2, type: "private", to: [2], topic: "" })] });
    eg.apply(s, { type: "drafts", op: "update", draft: { ...d, content: "a whole thought" } });
    expect(s.personal.drafts.get(1)?.content).toBe("a whole thought");
    eg.apply(s, { type: "drafts", op: "remove", draft_id: 2 });
    expect([...s.personal.drafts.keys()]).toEqual([1]);
  });

  it("saved snippets: add, update, remove", () => {
    const s = eg.store({ saved_snippets: [eg.savedSnippet({ id: 1 })] });
    eg.apply(s, { type: "saved_snippets", op: "add", saved_snippet: eg.savedSnippet({ id: 2, title: "bye" }) });
    eg.apply(s, { type: "saved_snippets", op: "update", saved_snippet: eg.savedSnippet({ id: 1, title: "hello again" }) });
    eg.apply(s, { type: "saved_snippets", op: "remove", saved_snippet_id: 2 });
    expect([...s.personal.savedSnippets.values()].map((x) => x.title)).toEqual(["hello again"]);
  });

  it("navigation views under both type spellings", () => {
    const s = eg.store({ navigation_views: [eg.navigationView({ fragment: "inbox", name: null })] });
    eg.apply(s, { type: "navigation_view", op: "add", navigation_view: eg.navigationView({ fragment: "narrow/is/starred", name: "Stars" }) });
    eg.apply(s, { type: "navigation_views", op: "update", fragment: "inbox", data: { is_pinned: false } });
    eg.apply(s, { type: "navigation_view", op: "update", fragment: "narrow/is/starred", data: { name: "Starred" } });
    expect(s.personal.navigationViews.get("inbox")?.is_pinned).toBe(false);
    expect(s.personal.navigationViews.get("narrow/is/starred")?.name).toBe("Starred");
    eg.apply(s, { type: "navigation_views", op: "remove", fragment: "inbox" });
    expect([...s.personal.navigationViews.keys()]).toEqual(["narrow/is/starred"]);
  });

  it("user settings: modern events and the two legacy ones", () => {
    const s = eg.store({ user_settings: { twenty_four_hour_time: false, enable_desktop_notifications: true } });
    eg.apply(s, { type: "user_settings", op: "update", property: "twenty_four_hour_time", value: true });
    eg.apply(s, { type: "update_display_settings", user: "self@example.test", setting_name: "default_language", setting: "de", language_name: "Deutsch" });
    eg.apply(s, { type: "update_global_notifications", user: "self@example.test", notification_name: "enable_desktop_notifications", setting: false });
    expect(s.personal.settings).toMatchObject({ twenty_four_hour_time: true, default_language: "de", enable_desktop_notifications: false });
  });
});

describe("organization data", () => {
  it("custom emoji: whole-map update, add, edit (both op names)", () => {
    const s = eg.store({ realm_emoji: { "1": eg.realmEmoji({ id: "1", name: "party" }) } });
    expect(s.personal.emojiByName("party")?.id).toBe("1");
    eg.apply(s, { type: "realm_emoji", op: "add", emoji: eg.realmEmoji({ id: "2", name: "ship" }) });
    eg.apply(s, { type: "realm_emoji", op: "edit", emoji_id: "1", data: { deactivated: true } });
    eg.apply(s, { type: "realm_emoji", op: "update_one", emoji_id: "2", data: { name: "boat" } });
    expect(s.personal.emojiByName("party")).toBeUndefined();
    expect(s.personal.emojiByName("boat")?.id).toBe("2");
    eg.apply(s, { type: "realm_emoji", op: "update", realm_emoji: { "3": eg.realmEmoji({ id: "3", name: "only" }) } });
    expect([...s.personal.realmEmoji.keys()]).toEqual(["3"]);
  });

  it("linkifiers are replaced as a whole", () => {
    const s = eg.store({ realm_linkifiers: [{ id: 1, pattern: "#(?P<id>\\d+)", url_template: "https://x.test/{id}" }] });
    eg.apply(s, { type: "realm_linkifiers", realm_linkifiers: [] });
    expect(s.personal.linkifiers).toEqual([]);
  });

  it("realm updates, alert words, muted users, restart", () => {
    const s = eg.store();
    eg.apply(s, { type: "realm", op: "update", property: "name", value: "New Org" });
    eg.apply(s, { type: "realm", op: "update_dict", property: "default", data: { empty_topic_display_name: "(no topic)" } });
    eg.apply(s, { type: "alert_words", alert_words: ["deploy"] });
    eg.apply(s, { type: "muted_users", muted_users: [{ id: 3, timestamp: 1 }] });
    eg.apply(s, { type: "restart", server_generation: 2, zulip_feature_level: 500, immediate: false });
    expect(s.realm).toMatchObject({ name: "New Org", emptyTopicName: "(no topic)", featureLevel: 500 });
    expect(s.topicDisplayName("")).toBe("(no topic)");
    expect(s.alertWords).toEqual(["deploy"]);
    expect([...s.mutedUsers]).toEqual([3]);
  });
});

describe("robustness", () => {
  it("heartbeats change nothing a view shows but advance the event id", () => {
    const s = eg.store();
    const v = s.version;
    s.apply(parseEvent({ type: "heartbeat", id: 7 }));
    expect(s.version).toBe(v);
    expect(s.lastEventId).toBe(7);
  });

  it("unknown types, unknown ops and unknown fields are ignored without a crash", () => {
    const s = eg.store();
    const v = s.version;
    eg.apply(s, { type: "brand_new_thing", whatever: 1 });
    eg.apply(s, { type: "drafts", op: "teleport" });
    eg.apply(s, { type: "realm_emoji", op: "explode" });
    expect(s.version).toBe(v);
    eg.apply(s, { type: "user_status", user_id: 2, status_text: "x", shiny: { nested: [1] } });
    eg.apply(s, { type: "subscription", op: "update", stream_id: 10, property: "brand_new_setting", value: 3 });
    eg.apply(s, { type: "stream", op: "update", stream_id: 10, name: "general", property: "brand_new_property", value: [1] });
    expect((s.channels.get(10) as Record<string, unknown>)["brand_new_setting"]).toBe(3);
  });

  it("applies the public example of every event variant without a crash", () => {
    const s = eg.store();
    const seen = new Set<string>();
    for (const v of eventVariants()) {
      let e;
      try {
        e = parseEvent({ id: 0, ...(toServiceNames(v.example) as Record<string, unknown>) });
      } catch {
        continue; // schema conformance is the api tests' business
      }
      expect(() => s.apply(e)).not.toThrow();
      if (e.type !== "unknown") seen.add(e.type);
    }
    // Every type the api layer knows appears among the public examples, except those newer than the reference copy.
    const newer = new Set(["channel_folder", "navigation_view", "navigation_views", "typing_edit_message", "reminders"]);
    expect(KNOWN_EVENT_TYPES.filter((t) => !seen.has(t) && !newer.has(t))).toEqual([]);
  });
});
