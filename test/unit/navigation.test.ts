import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nextUnreadDm, nextUnreadTopic } from "../../src/ui/features/navigation.js";
import { buildSidebarRows, filterCursor, firstMatchIndex, sidebarRowKey, sidebarWidth } from "../../src/ui/sidebar-rows.js";
import type { Narrow } from "../../src/model/narrow.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

/**
 * Sidebar order: pinned "top" (folder Teams), folder Social (general), folder
 * Teams (backend), other (loose, muted-channel quiet).
 */
function org() {
  return eg.store({
    channel_folders: [eg.folder({ id: 1, name: "Teams", order: 1 }), eg.folder({ id: 2, name: "Social", order: 0 })],
    subscriptions: [
      eg.subscription({ stream_id: 10, name: "general", folder_id: 2 }),
      eg.subscription({ stream_id: 12, name: "backend", folder_id: 1 }),
      eg.subscription({ stream_id: 13, name: "loose" }),
      eg.subscription({ stream_id: 14, name: "top", pin_to_top: true, folder_id: 1 }),
      eg.subscription({ stream_id: 15, name: "quiet", is_muted: true }),
    ],
    user_topics: [
      { stream_id: 10, topic_name: "muted talk", visibility_policy: 1, last_updated: 1 },
      { stream_id: 15, topic_name: "followed", visibility_policy: 3, last_updated: 1 },
    ],
    unread_msgs: {
      count: 9,
      pms: [
        { other_user_id: 2, unread_message_ids: [50] },
        { other_user_id: 3, unread_message_ids: [60] },
      ],
      streams: [
        { stream_id: 10, topic: "lunch", unread_message_ids: [21, 22] },
        { stream_id: 10, topic: "muted talk", unread_message_ids: [23] },
        { stream_id: 10, topic: "plans", unread_message_ids: [30] },
        { stream_id: 12, topic: "deploys", unread_message_ids: [40] },
        { stream_id: 14, topic: "news", unread_message_ids: [10] },
        { stream_id: 15, topic: "noise", unread_message_ids: [45] },
        { stream_id: 15, topic: "followed", unread_message_ids: [46] },
      ],
      huddles: [],
      mentions: [],
      old_unreads_missing: false,
    },
  });
}

const topic = (channelId: number, t: string): Narrow => ({ kind: "topic", channelId, topic: t });
const walk = (s: ReturnType<typeof org>, from: Narrow | undefined, steps: number) => {
  const seen: string[] = [];
  let at = from;
  for (let i = 0; i < steps; i++) {
    const next = nextUnreadTopic(s, at);
    if (!next) break;
    seen.push(`${next.channelId}/${next.topic}`);
    at = next;
  }
  return seen;
};

describe("next unread topic (n)", () => {
  it("goes through unread topics in sidebar order, newest topic first in a channel, skipping muted ones, and wraps", () => {
    const s = org();
    // pinned top, then Social (general: plans is newer than lunch), Teams (backend), other channels (the muted channel's followed topic).
    expect(walk(s, undefined, 6)).toEqual(["14/news", "10/plans", "10/lunch", "12/deploys", "15/followed", "14/news"]);
  });

  it("continues after the open topic, and from a channel narrow with that channel's topics", () => {
    const s = org();
    expect(nextUnreadTopic(s, topic(10, "plans"))).toEqual(topic(10, "lunch"));
    expect(nextUnreadTopic(s, topic(12, "deploys"))).toEqual(topic(15, "followed"));
    expect(nextUnreadTopic(s, { kind: "channel", channelId: 10 })).toEqual(topic(10, "plans"));
    // A read topic still has its place: the next unread one after it.
    s.setTopics(12, [{ name: "old", max_id: 5 }, { name: "deploys", max_id: 40 }]);
    expect(nextUnreadTopic(s, topic(12, "old"))).toEqual(topic(15, "followed"));
  });

  it("says there is none when only the open topic is unread, or nothing is", () => {
    const s = eg.store({
      unread_msgs: { count: 1, pms: [], streams: [{ stream_id: 10, topic: "lunch", unread_message_ids: [21] }], huddles: [], mentions: [], old_unreads_missing: false },
    });
    expect(nextUnreadTopic(s, topic(10, "LUNCH"))).toBeUndefined();
    expect(nextUnreadTopic(s, undefined)).toEqual(topic(10, "lunch"));
    eg.apply(s, eg.flagsEvent("add", "read", [21]));
    expect(nextUnreadTopic(s, undefined)).toBeUndefined();
  });
});

describe("next unread DM (p)", () => {
  it("goes through unread conversations most recent first and wraps, never the open one", () => {
    const s = org();
    expect(nextUnreadDm(s, undefined)).toEqual({ kind: "dm", userIds: [3] });
    expect(nextUnreadDm(s, { kind: "dm", userIds: [3] })).toEqual({ kind: "dm", userIds: [2] });
    expect(nextUnreadDm(s, { kind: "dm", userIds: [2] })).toEqual({ kind: "dm", userIds: [3] });
    eg.apply(s, eg.flagsEvent("add", "read", [60]));
    expect(nextUnreadDm(s, { kind: "dm", userIds: [2] })).toBeUndefined();
  });
});

describe("sidebar helpers", () => {
  it("keys rows by what they open, and finds the first match of a filter", () => {
    const s = org();
    const rows = buildSidebarRows(s, { filter: "dep" });
    // #backend is listed because its topic matches; the first match is the topic itself, which Enter opens.
    expect(rows.find((r) => r.kind === "channel")).toMatchObject({ name: "backend" });
    expect(rows[firstMatchIndex(rows, "dep")]).toMatchObject({ kind: "topic", topic: "deploys" });
    expect(rows.map(sidebarRowKey)).toContain("topic:12:deploys");
    const all = buildSidebarRows(s, {});
    expect(all.filter((r) => r.kind === "view").map(sidebarRowKey)).toEqual(["view:inbox", "feed", "all-dms", "mentioned", "starred", "view:followed"]);
  });

  it("keeps the filter's cursor on the row the user moved to when rows arrive above it", () => {
    const s = org();
    const before = buildSidebarRows(s, { filter: "new" });
    const pick = "topic:14:news";
    const at = filterCursor(before, "new", pick);
    expect(sidebarRowKey(before[at]!)).toBe(pick);
    // A newer topic of the same channel (fetched, or just started) is listed above it.
    eg.apply(s, eg.messageEvent(eg.streamMessage({ id: 500, stream_id: 14, subject: "new plan" })));
    const after = buildSidebarRows(s, { filter: "new" });
    expect(after.findIndex((r) => sidebarRowKey(r) === pick)).toBe(at + 1);
    expect(sidebarRowKey(after[filterCursor(after, "new", pick)]!)).toBe(pick);
    // Nothing picked: the first match, the new topic now.
    expect(after[filterCursor(after, "new", undefined)]).toMatchObject({ kind: "topic", topic: "new plan" });
  });

  it("narrows the sidebar in a narrow terminal", () => {
    expect(sidebarWidth(80)).toBe(22);
    expect(sidebarWidth(120)).toBe(30);
  });
});
