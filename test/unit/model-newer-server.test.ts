/**
 * The model built from a newer server's register (test/fixtures/newer-server) and fed its
 * messages and events: every sub-model takes what it knows, keeps new values, ignores the
 * rest, and the store stays consistent (recount) — no throw anywhere.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { parseEvent } from "../../src/api/schemas/events.js";
import { registerResponseSchema } from "../../src/api/schemas/register.js";
import { getMessagesResponseSchema } from "../../src/api/schemas/responses.js";
import { folderSections, inbox } from "../../src/model/selectors-views.js";
import { Store, VISIBILITY } from "../../src/model/store.js";
import { newerServer } from "../fixtures/newer-server.js";

/** Just after the recorded register (its server_timestamp), in ms. */
const NOW_MS = 1_795_600_030_000;
const FEED = { kind: "feed" } as const;

function newerStore(): Store {
  const store = new Store(registerResponseSchema.parse(newerServer.register()), { now: () => NOW_MS });
  const { messages } = getMessagesResponseSchema.parse(newerServer.messages());
  store.addFetched(FEED, messages, { foundOldest: true, foundNewest: true, direction: "around" });
  return store;
}

function applyRecordedEvents(store: Store): void {
  for (const batch of newerServer.eventBatches()) store.applyAll(batch.events.map((e) => parseEvent(e)));
}

let store: Store;
beforeEach(() => {
  store = newerStore();
});

describe("a store built from a newer server's register", () => {
  it("realm and people: the feature level, new roles and bot types kept, deleted users inactive", () => {
    expect(store.realm).toMatchObject({ name: "Harbor Robotics", featureLevel: 512, emptyTopicName: "general chat" });
    expect(store.people.byId.checkSome(Number.POSITIVE_INFINITY)).toBe(0);
    expect(store.people.byId.problems).toEqual([]);
    expect(store.users.get(9)).toMatchObject({ role: 350, is_admin: false });
    expect(store.users.get(10)).toMatchObject({ bot_type: 5, bot_owner_id: 8 });
    expect(store.users.get(8)?.timezone).toBe("");
    expect(store.users.get(12)).toMatchObject({ is_active: false, is_deleted: true });
    expect(store.userName(2)).toBe("Notification Bot");
    expect(store.mutedUsers.has(11)).toBe(true);
  });

  it("channels and folders: sidebar sections, muted channel, archived and joinable channels, new topics policies kept", () => {
    expect(folderSections(store).map((s) => [s.label, s.channels.map((c) => c.name)])).toEqual([
      ["Pinned", ["general"]],
      ["Engineering", ["firmware"]],
      ["Operations", []],
      ["Other channels", ["random"]],
    ]);
    expect(store.isChannelMuted(103)).toBe(true);
    expect(store.channel(104)).toMatchObject({ is_archived: true });
    expect(store.channel(106)).toMatchObject({ name: "announcements", topics_policy: "announcement_threads" });
    expect(store.channel(102)).toMatchObject({ topics_policy: "topic_required_per_thread" });
  });

  it("unreads and topic policies: a visibility policy the client does not know neither mutes nor follows", () => {
    expect(store.unreads.countInChannel(101)).toBe(2);
    expect(store.unreads.countInDm([9])).toBe(1);
    expect(store.unreads.countInDm([8, 9])).toBe(1);
    expect(store.topicPolicy(102, "bootloader")).toBe(4);
    expect(store.isTopicMuted(102, "bootloader")).toBe(false);
    expect(store.topicPolicy(101, "launch plan")).toBe(VISIBILITY.followed);
    expect(inbox(store).total).toBe(5);
    expect(store.recount()).toEqual([]);
  });

  it("personal data: new setting values kept, statuses with new reaction types, presence with a null idle time", () => {
    expect(store.personal.settings).toMatchObject({ web_home_view: "channels", emojiset: "noto-2026", hide_ai_features: false });
    expect(store.people.statuses.get(9)).toMatchObject({ text: "Flashing boards", reactionType: "sticker_emoji" });
    expect(store.people.statuses.get(10)).toMatchObject({ reactionType: "svc_extra_emoji" });
    expect(store.presence.byUser.get(9)).toEqual({ active: 1_795_599_000, idle: 0 });
    expect(store.presenceStatus(8, NOW_MS)).toBe("active");
    expect([...store.personal.drafts.values()].map((d) => d.type)).toEqual(["stream", "scheduled"]);
    expect([...store.personal.navigationViews.keys()]).toHaveLength(2);
    expect(store.personal.emojiByName("harbor")?.id).toBe("3");
    expect(store.personal.emojiByName("forklift")).toBeUndefined(); // deactivated
    expect(store.people.groups.get(20)).toMatchObject({ description: "", members: [7, 9] });
    expect(store.messages.starred.has(1001)).toBe(true);
  });

  it("fetched messages: new reaction types and flags are kept", () => {
    expect(store.messages.list(FEED)?.ids).toEqual([1001, 1002, 1003, 1004, 1005]);
    const m = store.messages.byId.get(1001);
    expect(m?.reactions.map((r) => r.reaction_type)).toContain("sticker_emoji");
    expect(m?.flags).toContain("has_thread_summary");
  });
});

describe("a newer server's events applied", () => {
  beforeEach(() => applyRecordedEvents(store));

  it("applies every batch without a throw, follows the event ids, and stays consistent", () => {
    expect(store.lastEventId).toBe(53);
    expect(store.recount()).toEqual([]);
    expect(store.realm.featureLevel).toBe(513);
  });

  it("messages: a new message, reactions of new types (a new op ignored), a new flag, a move with a new propagate mode, a delete of a new type", () => {
    const m = store.messages.byId.get(1006);
    expect(m?.flags).toEqual(["mentioned", "has_thread_summary"]);
    expect(m?.reactions.map((r) => [r.user_id, r.reaction_type])).toEqual([[9, "sticker_emoji"], [10, "svc_extra_emoji"]]);
    expect(store.unreads.has(1006)).toBe(true);
    const moved = store.messages.byId.get(1002);
    expect(moved).toMatchObject({ subject: "bootloader" });
    expect(moved?.flags).toEqual(expect.arrayContaining(["has_thread_summary", "read"]));
    expect(store.unreads.has(1002)).toBe(false);
    expect(store.messages.starred.has(1003)).toBe(false); // the `toggle` op is not one we know
    expect(store.messages.byId.has(1004)).toBe(false);
    expect(store.messages.list(FEED)?.ids).toEqual([1001, 1002, 1003, 1005, 1006]);
    expect(store.typistsIn({ channelId: 101, topic: "launch plan" })).toEqual([9]);
  });

  it("people: a new role kept, fields arriving as null leave what is known, a new bot type, a new op ignored", () => {
    expect(store.users.get(9)).toMatchObject({ role: 350, is_admin: false, is_owner: false, is_guest: false });
    expect(store.users.get(11)).toMatchObject({ is_imported_stub: false });
    expect(store.users.get(8)).toMatchObject({ timezone: "", pronouns: "he/him" });
    expect(store.users.get(13)).toMatchObject({ full_name: "Summaries", bot_type: 6 });
    expect(store.users.get(12)).toMatchObject({ is_active: false });
    expect(store.people.statuses.get(7)).toMatchObject({ emojiName: "crane_sticker", reactionType: "sticker_emoji" });
    expect(store.people.groups.get(21)).toMatchObject({ name: "crane-2", description: "" });
    expect(store.people.groups.get(20)).toMatchObject({ can_summarize_group: 13 });
  });

  it("channels, folders and topics: new policy values, a null folder, a created channel, subscriber counts, reordered folders", () => {
    expect(store.topicPolicy(101, "launch plan")).toBe(5);
    expect(store.isTopicMuted(101, "launch plan")).toBe(false);
    expect(store.channel(102)).toMatchObject({ topics_policy: "topic_required_per_thread" });
    expect(store.channel(101)).toMatchObject({ folder_id: null, subscriber_count: 6, is_pinned_in_folder: true });
    expect(store.channel(107)).toMatchObject({ name: "summaries" });
    expect(store.channelsModel.foldersInOrder().map((f) => f.name)).toEqual(["Operations", "Engineering", "Sales"]);
    expect(store.folders.get(2)).toMatchObject({ description: "Keeping ships moving" });
  });

  it("settings and per-user data: new settings, custom emoji added and renamed, realm settings, drafts, views, snippets", () => {
    expect(store.personal.settings).toMatchObject({ web_home_view: "channels", web_summary_length: "short", emojiset: "noto-2026" });
    expect(store.personal.emojiByName("seagull")?.id).toBe("5");
    expect(store.personal.emojiByName("harbor-logo")?.id).toBe("3");
    expect(store.realm.settings).toMatchObject({ topics_policy: "topic_required_per_thread", can_summarize_topics_group: 14 });
    expect(store.realm.settings["deactivated"]).toBeUndefined(); // `archive` is not `deactivated`
    expect(store.personal.drafts.get(33)).toMatchObject({ type: "scheduled" });
    expect(store.personal.navigationViews.get("narrow/is/followed")).toMatchObject({ name: "Followed" });
    expect(store.personal.savedSnippets.get(6)?.title).toBe("Handover");
    expect(store.alertWords).toEqual(["crane 2"]);
  });
});
