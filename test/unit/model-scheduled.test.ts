/**
 * The user's own lists in the store: scheduled messages and reminders (from
 * register, then every event), saved snippets by title, navigation views in
 * sidebar order, whether read receipts can be shown, and what an older server
 * cannot do.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEvent } from "../../src/api/schemas/events.js";
import { FEATURE_LEVELS, missingFeature } from "../../src/model/features.js";
import { fragmentNarrow, navigationViewRows, pinnedNavigationViews } from "../../src/model/navigation-views.js";
import { readReceiptsUnavailable, reminderRows, remindersOf, scheduledRows, snippetsByTitle } from "../../src/model/selectors-personal.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const at = (secs: number) => (eg.fixedTime + secs) * 1000;

describe("scheduled messages", () => {
  it("come from register and list soonest first, with where they go and their state", () => {
    const later = eg.scheduledMessage({ scheduled_message_id: 1, scheduled_delivery_timestamp: eg.fixedTime + 7200 });
    const sooner = eg.scheduledMessage({ scheduled_message_id: 2, to: [eg.otherUser.user_id, eg.thirdUser.user_id] });
    const toSelf = eg.scheduledMessage({ scheduled_message_id: 3, to: [eg.selfUser.user_id], scheduled_delivery_timestamp: eg.fixedTime + 7200 });
    const broken = eg.scheduledMessage({ scheduled_message_id: 4, failed: true, scheduled_delivery_timestamp: eg.fixedTime - 60 });
    const s = eg.store({ scheduled_messages: [later, sooner, toSelf, broken] });
    expect(scheduledRows(s, at(0))).toEqual([
      { id: 4, at: eg.fixedTime - 60, target: { kind: "topic", channelId: 10, topic: "plans" }, content: "See you at ten", state: "failed" },
      { id: 2, at: eg.fixedTime + 3600, target: { kind: "dm", userIds: [2, 3] }, content: "See you at ten", state: "scheduled" },
      { id: 1, at: eg.fixedTime + 7200, target: { kind: "topic", channelId: 10, topic: "plans" }, content: "See you at ten", state: "scheduled" },
      { id: 3, at: eg.fixedTime + 7200, target: { kind: "dm", userIds: [1] }, content: "See you at ten", state: "scheduled" },
    ]);
    // Once its time has come and until the server's remove event, it is being sent.
    expect(scheduledRows(s, at(3600)).map((r) => [r.id, r.state])).toEqual([[4, "failed"], [2, "due"], [1, "scheduled"], [3, "scheduled"]]);
  });

  it("follow add, update (edited, rescheduled, failed) and remove events", () => {
    const s = eg.store({ scheduled_messages: [] });
    const m = eg.scheduledMessage({ scheduled_message_id: 7 });
    eg.apply(s, { type: "scheduled_messages", op: "add", scheduled_messages: [m, eg.scheduledMessage({ scheduled_message_id: 8 })] });
    expect(scheduledRows(s, at(0)).map((r) => r.id)).toEqual([7, 8]);
    eg.apply(s, { type: "scheduled_messages", op: "update", scheduled_message: { ...m, content: "See you at eleven", scheduled_delivery_timestamp: eg.fixedTime + 9000 } });
    expect(scheduledRows(s, at(0)).map((r) => [r.id, r.content])).toEqual([[8, "See you at ten"], [7, "See you at eleven"]]);
    eg.apply(s, { type: "scheduled_messages", op: "update", scheduled_message: { ...m, failed: true } });
    expect(scheduledRows(s, at(0)).find((r) => r.id === 7)?.state).toBe("failed");
    eg.apply(s, { type: "scheduled_messages", op: "remove", scheduled_message_id: 8 });
    expect(scheduledRows(s, at(0)).map((r) => r.id)).toEqual([7]);
  });

  it("read a server older than the failed field as not failed, and ignore unknown ops and fields", () => {
    const { failed: _f, ...old } = eg.scheduledMessage({ scheduled_message_id: 9 });
    const s = eg.store({ scheduled_messages: [{ ...old, newer_field: { x: 1 } }] });
    expect(scheduledRows(s, at(0))[0]?.state).toBe("scheduled");
    const unknown = parseEvent({ id: 3, type: "scheduled_messages", op: "archive", scheduled_message_id: 9 });
    expect(unknown.type).toBe("unknown");
    s.apply(unknown);
    expect(s.scheduled.messages.size).toBe(1);
  });
});

describe("reminders", () => {
  it("come from register, follow add and remove events, and are found by message", () => {
    const first = eg.reminder({ reminder_id: 20, reminder_target_message_id: 5001 });
    const s = eg.store({ reminders: [first] });
    eg.apply(s, { type: "reminders", op: "add", reminders: [eg.reminder({ reminder_id: 21, reminder_target_message_id: 5001, scheduled_delivery_timestamp: eg.fixedTime + 60 })] });
    eg.apply(s, { type: "reminders", op: "add", reminders: [eg.reminder({ reminder_id: 22, reminder_target_message_id: 5002 })] });
    expect(reminderRows(s, at(0)).map((r) => [r.id, r.messageId, r.state])).toEqual([[21, 5001, "scheduled"], [20, 5001, "scheduled"], [22, 5002, "scheduled"]]);
    expect(remindersOf(s, 5001, at(120)).map((r) => [r.id, r.state])).toEqual([[21, "due"], [20, "scheduled"]]);
    eg.apply(s, { type: "reminders", op: "remove", reminder_id: 21 });
    expect(remindersOf(s, 5001, at(0)).map((r) => r.id)).toEqual([20]);
    expect(parseEvent({ id: 9, type: "reminders", op: "update", reminder: {} }).type).toBe("unknown");
  });

  it("an older server sends no list: none", () => {
    const s = eg.store({ svc_feature_level: 300 });
    expect(reminderRows(s)).toEqual([]);
    expect(scheduledRows(s)).toEqual([]);
  });
});

describe("saved snippets", () => {
  it("list by title, any case, and filter by a part of the title; events keep them current", () => {
    const s = eg.store({ saved_snippets: [eg.savedSnippet({ id: 1, title: "welcome" }), eg.savedSnippet({ id: 2, title: "Away note" })] });
    eg.apply(s, { type: "saved_snippets", op: "add", saved_snippet: eg.savedSnippet({ id: 3, title: "Release checklist" }) });
    expect(snippetsByTitle(s).map((x) => x.title)).toEqual(["Away note", "Release checklist", "welcome"]);
    expect(snippetsByTitle(s, " LEASE ").map((x) => x.id)).toEqual([3]);
    eg.apply(s, { type: "saved_snippets", op: "update", saved_snippet: eg.savedSnippet({ id: 1, title: "Greeting" }) });
    eg.apply(s, { type: "saved_snippets", op: "remove", saved_snippet_id: 2 });
    expect(snippetsByTitle(s).map((x) => x.title)).toEqual(["Greeting", "Release checklist"]);
  });
});

describe("navigation views", () => {
  it("built-in views first, pinned unless the user unpinned them, then custom ones in the server's order", () => {
    const s = eg.store({
      navigation_views: [
        { fragment: "narrow/channel/10-general/topic/plans", is_pinned: true, name: "Plans" },
        { fragment: "recent", is_pinned: false },
        { fragment: "narrow/is/alerted", is_pinned: false, name: "Alert words" },
      ],
    });
    const rows = navigationViewRows(s);
    expect(rows.map((r) => [r.fragment, r.name, r.isPinned, r.builtIn])).toEqual([
      ["inbox", "Inbox", true, true],
      ["recent", "Recent conversations", false, true],
      ["feed", "Combined feed", true, true],
      ["narrow/is/mentioned", "Mentions", true, true],
      ["narrow/has/reaction/sender/me", "Reactions", true, true],
      ["narrow/is/starred", "Starred messages", true, true],
      ["drafts", "Drafts", true, true],
      ["narrow/channel/10-general/topic/plans", "Plans", true, false],
      ["narrow/is/alerted", "Alert words", false, false],
    ]);
    expect(rows[0]!.opens).toEqual({ view: "inbox" });
    expect(rows[7]!.opens).toEqual({ narrow: { kind: "topic", channelId: 10, topic: "plans" } });
    expect(pinnedNavigationViews(s).map((r) => r.fragment)).not.toContain("recent");
  });

  it("follow add, update and remove events under both type names", () => {
    const s = eg.store({ navigation_views: [] });
    eg.apply(s, { type: "navigation_view", op: "add", navigation_view: { fragment: "feed", is_pinned: false } });
    eg.apply(s, { type: "navigation_view", op: "add", navigation_view: { fragment: "narrow/is/dm", is_pinned: true, name: "DMs" } });
    eg.apply(s, { type: "navigation_view", op: "update", fragment: "narrow/is/dm", data: { name: "Direct messages", is_pinned: false } });
    expect(navigationViewRows(s).filter((r) => r.fragment === "feed" || !r.builtIn).map((r) => [r.name, r.isPinned])).toEqual([
      ["Combined feed", false],
      ["Direct messages", false],
    ]);
    eg.apply(s, { type: "navigation_views", op: "remove", fragment: "feed" });
    expect(navigationViewRows(s).find((r) => r.fragment === "feed")?.isPinned).toBe(true);
  });

  it("read a fragment as the narrow it stands for", () => {
    expect(fragmentNarrow("narrow/channel/10-general", 1)).toEqual({ kind: "channel", channelId: 10 });
    expect(fragmentNarrow("narrow/stream/10-general/topic/release.20notes", 1)).toEqual({ kind: "topic", channelId: 10, topic: "release notes" });
    expect(fragmentNarrow("narrow/dm/1,2,3-group", 1)).toEqual({ kind: "dm", userIds: [2, 3] });
    expect(fragmentNarrow("narrow/is/starred", 1)).toEqual({ kind: "starred" });
    expect(fragmentNarrow("narrow/is/alerted", 1)).toEqual({ kind: "search", query: "is:alerted", terms: [{ operator: "is", operand: "alerted" }] });
    expect(fragmentNarrow("narrow/-is/resolved/has/link", 1)).toEqual({
      kind: "search",
      query: "is:resolved has:link",
      terms: [{ operator: "is", operand: "resolved", negated: true }, { operator: "has", operand: "link" }],
    });
    expect(fragmentNarrow("inbox", 1)).toBeUndefined();
    expect(fragmentNarrow("narrow/is", 1)).toBeUndefined();
  });
});

describe("read receipts", () => {
  it("can be shown where the organization enables them, and a realm event turns them off and on", () => {
    const s = eg.store({ realm_enable_read_receipts: true });
    expect(readReceiptsUnavailable(s)).toBeUndefined();
    eg.apply(s, { type: "realm", op: "update", property: "enable_read_receipts", value: false });
    expect(readReceiptsUnavailable(s)).toBe("Read receipts are turned off in this organization.");
    eg.apply(s, { type: "realm", op: "update_dict", property: "default", data: { enable_read_receipts: true } });
    expect(readReceiptsUnavailable(s)).toBeUndefined();
  });

  it("say why not on an older server; a register that leaves the setting out lets the server answer", () => {
    expect(readReceiptsUnavailable(eg.store({ svc_feature_level: 120, realm_enable_read_receipts: true }))).toBe(
      "This server is too old for read receipts (feature level 120; 137 or newer is needed).",
    );
    expect(readReceiptsUnavailable(eg.store({ realm_enable_read_receipts: false }))).toBe("Read receipts are turned off in this organization.");
    expect(readReceiptsUnavailable(eg.store())).toBeUndefined();
  });
});

describe("features", () => {
  it("each feature is offered from the level it arrived at", () => {
    for (const [feature, level] of Object.entries(FEATURE_LEVELS) as [keyof typeof FEATURE_LEVELS, number][]) {
      expect(missingFeature(level, feature)).toBeUndefined();
      expect(missingFeature(level - 1, feature)).toMatch(new RegExp(`^This server is too old for .+ \\(feature level ${level - 1}; ${level} or newer is needed\\)\\.$`));
    }
  });
});
