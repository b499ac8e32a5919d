import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Narrow } from "../../src/model/narrow.js";
import { narrowKey } from "../../src/model/narrow.js";
import { narrowMessages, topicRows } from "../../src/model/selectors.js";
import type { Store } from "../../src/model/store.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });
const done = { foundOldest: true, foundNewest: true, direction: "around" as const };

function ids(s: Store, n: Narrow): number[] {
  return narrowMessages(s, n).map((m) => m.id);
}

describe("message lists", () => {
  it("fetch bookkeeping: busy lists refuse a second fetch; a stale generation is dropped", () => {
    const s = eg.store();
    const n: Narrow = { kind: "channel", channelId: 10 };
    const gen = s.beginFetch(n, "around");
    expect(gen).toBe(0);
    expect(s.beginFetch(n, "older")).toBeUndefined();
    expect(s.messages.list(n)).toMatchObject({ status: "fetching", fetching: "around" });
    s.messages.resetLists();
    expect(s.addFetched(n, [eg.streamMessage({ stream: general })], { ...done, generation: gen })).toBeUndefined();
    expect(ids(s, n)).toEqual([]);
    const gen2 = s.beginFetch(n, "around");
    const m = eg.streamMessage({ stream: general });
    s.addFetched(n, [m], { foundOldest: false, foundNewest: true, direction: "around", generation: gen2 });
    expect(s.messages.list(n)).toMatchObject({ status: "idle", foundOldest: false, foundNewest: true });
    expect(s.beginFetch(n, "newer")).toBeUndefined();
    expect(s.beginFetch(n, "older")).toBe(1);
    s.setListStatus(n, "backoff");
    expect(s.messages.list(n)?.fetching).toBeUndefined();
  });

  it("older batches merge in order; foundOldest comes only from older or around fetches", () => {
    const s = eg.store();
    const n: Narrow = { kind: "channel", channelId: 10 };
    const [a, b, c] = [eg.streamMessage({ stream: general }), eg.streamMessage({ stream: general }), eg.streamMessage({ stream: general })];
    s.addFetched(n, [c!], { foundOldest: false, foundNewest: true, direction: "around" });
    s.addFetched(n, [a!, b!], { foundOldest: true, foundNewest: false, direction: "older" });
    expect(ids(s, n)).toEqual([a!.id, b!.id, c!.id]);
    expect(s.messages.list(n)).toMatchObject({ foundOldest: true, foundNewest: true });
  });

  it("a live message goes into every loaded list it matches that reached the newest", () => {
    const s = eg.store();
    const lists: Narrow[] = [
      { kind: "feed" },
      { kind: "channel", channelId: 10 },
      { kind: "topic", channelId: 10, topic: "GREETINGS" },
      { kind: "topic", channelId: 10, topic: "other" },
      { kind: "channel", channelId: 11 },
      { kind: "all-dms" },
      { kind: "mentioned" },
    ];
    for (const n of lists) s.addFetched(n, [], done);
    const m = eg.streamMessage({ stream: general });
    eg.apply(s, eg.messageEvent(m, ["mentioned"]));
    expect(lists.map((n) => ids(s, n).length)).toEqual([1, 1, 1, 0, 0, 0, 1]);
  });

  it("DM lists match their conversation, whoever sent the message", () => {
    const s = eg.store();
    const n: Narrow = { kind: "dm", userIds: [2, 3] };
    s.addFetched(n, [], done);
    eg.apply(s, eg.messageEvent(eg.dmMessage({ from: eg.selfUser, to: [eg.thirdUser, eg.otherUser] })));
    eg.apply(s, eg.messageEvent(eg.dmMessage({ from: eg.otherUser, to: [eg.selfUser] })));
    expect(ids(s, n)).toHaveLength(1);
    expect(s.recentDms.get("2,3")).toBeDefined();
  });

  it("search lists ask the server: the model says which, and takes the answer", () => {
    const s = eg.store();
    const n: Narrow = { kind: "search", query: "lunch" };
    s.addFetched(n, [], done);
    const m = eg.streamMessage({ stream: general, content: "lunch?" });
    eg.apply(s, eg.messageEvent(m));
    expect(ids(s, n)).toEqual([]);
    expect(s.narrowsNeedingServerCheck(m.id)).toEqual([narrowKey(n)]);
    expect(s.pendingServerChecks()).toEqual([{ narrowKey: "search:lunch", narrow: n, ids: [m.id] }]);
    s.confirmNarrowMatch(narrowKey(n), m.id, true);
    expect(ids(s, n)).toEqual([m.id]);
    expect(s.narrowsNeedingServerCheck(m.id)).toEqual([]);
    // An edit asks again; a "no" takes it out.
    eg.apply(s, { type: "update_message", message_id: m.id, message_ids: [m.id], flags: [], content: "dinner?", edit_timestamp: 2, rendering_only: false });
    expect(s.narrowsNeedingServerCheck(m.id)).toEqual([narrowKey(n)]);
    s.confirmNarrowMatch(narrowKey(n), m.id, false);
    expect(ids(s, n)).toEqual([]);
  });

  it("first unread: from the unreads for local narrows, from the loaded list for search", () => {
    const s = eg.store({
      unread_msgs: {
        streams: [
          { stream_id: 10, topic: "a", unread_message_ids: [21, 25] },
          { stream_id: 11, topic: "b", unread_message_ids: [19] },
        ],
        pms: [{ other_user_id: 2, unread_message_ids: [23] }],
        huddles: [],
        mentions: [25],
      },
      subscriptions: [general, { ...design, is_muted: true }],
      starred_messages: [25],
    });
    expect(s.firstUnreadIn({ kind: "topic", channelId: 10, topic: "A" })).toBe(21);
    expect(s.firstUnreadIn({ kind: "channel", channelId: 11 })).toBe(19);
    expect(s.firstUnreadIn({ kind: "feed" })).toBe(21);
    expect(s.firstUnreadIn({ kind: "dm", userIds: [2] })).toBe(23);
    expect(s.firstUnreadIn({ kind: "all-dms" })).toBe(23);
    expect(s.firstUnreadIn({ kind: "mentioned" })).toBe(25);
    expect(s.firstUnreadIn({ kind: "starred" })).toBe(25);
    const n: Narrow = { kind: "search", query: "x" };
    s.addFetched(n, [eg.streamMessage({ id: 20, stream: general, flags: ["read"] }), eg.streamMessage({ id: 21, stream: general, subject: "a" })], done);
    expect(s.firstUnreadIn(n)).toBe(21);
    expect(s.firstUnreadIn({ kind: "topic", channelId: 10, topic: "none" })).toBeUndefined();
  });
});

describe("edits, moves and deletes in loaded lists", () => {
  function setup() {
    const s = eg.store();
    const lunch: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };
    const food: Narrow = { kind: "topic", channelId: 11, topic: "food" };
    const ms = [1, 2, 3].map(() => eg.streamMessage({ stream: general, subject: "lunch", flags: ["read"] }));
    s.addFetched(lunch, ms, done);
    s.addFetched({ kind: "channel", channelId: 10 }, ms, done);
    s.addFetched(food, [], done);
    s.setTopics(10, [{ name: "lunch", max_id: ms[2]!.id }]);
    s.setTopics(11, []);
    return { s, lunch, food, ms };
  }

  it("content edits change the message in place; rendering_only keeps the edit time", () => {
    const { s, ms } = setup();
    const id = ms[0]!.id;
    eg.apply(s, { type: "update_message", message_id: id, message_ids: [id], flags: ["read"], content: "edited", edit_timestamp: 99, rendering_only: false });
    expect(s.messages.byId.get(id)).toMatchObject({ content: "edited", last_edit_timestamp: 99 });
    eg.apply(s, { type: "update_message", message_id: id, message_ids: [id], flags: ["read"], content: "re-rendered", edit_timestamp: 120, rendering_only: true });
    expect(s.messages.byId.get(id)).toMatchObject({ content: "re-rendered", last_edit_timestamp: 99 });
  });

  it("change_later moves the later messages between channels: lists, topics and names follow", () => {
    const { s, lunch, food, ms } = setup();
    const moved = [ms[1]!.id, ms[2]!.id];
    eg.apply(s, eg.moveEvent({ ids: moved, from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "food" }, mode: "change_later" }));
    expect(ids(s, lunch)).toEqual([ms[0]!.id]);
    expect(ids(s, food)).toEqual(moved);
    expect(ids(s, { kind: "channel", channelId: 10 })).toEqual([ms[0]!.id]);
    expect(s.messages.byId.get(moved[0]!)).toMatchObject({ stream_id: 11, subject: "food", display_recipient: "design", last_moved_timestamp: expect.any(Number) });
    expect(topicRows(s, 10).map((t) => [t.topic, t.maxId])).toEqual([["lunch", ms[0]!.id]]);
    expect(topicRows(s, 11).map((t) => [t.topic, t.maxId])).toEqual([["food", ms[2]!.id]]);
    expect(s.topicsLoaded.has(10)).toBe(true);
  });

  it("change_all empties the old topic; resolving is not counted as a move", () => {
    const { s, ms } = setup();
    const all = ms.map((m) => m.id);
    eg.apply(s, eg.moveEvent({ ids: all, from: { channelId: 10, topic: "lunch" }, to: { topic: "✔ lunch" } }));
    expect(topicRows(s, 10).map((t) => t.topic)).toEqual(["✔ lunch"]);
    expect(topicRows(s, 10)[0]?.resolved).toBe(true);
    expect(s.messages.byId.get(all[0]!)?.last_moved_timestamp).toBeUndefined();
    expect(ids(s, { kind: "topic", channelId: 10, topic: "✔ lunch" })).toEqual([]); // not loaded: nothing to place into
    expect(ids(s, { kind: "channel", channelId: 10 })).toEqual(all);
  });

  it("a move whose newest message the client never saw leaves the topic list to be refetched", () => {
    const s = eg.store();
    s.setTopics(10, [{ name: "lunch", max_id: 500 }]);
    eg.apply(s, eg.moveEvent({ ids: [500], from: { channelId: 10, topic: "lunch" }, to: { topic: "dinner" }, mode: "change_one" }));
    expect(s.topicsLoaded.has(10)).toBe(false);
    expect(topicRows(s, 10).map((t) => t.topic)).toEqual(["dinner"]);
  });

  it("messages moved into a loaded range appear there (no gaps: outside the range they do not)", () => {
    const s = eg.store();
    const target: Narrow = { kind: "topic", channelId: 11, topic: "food" };
    const early = eg.streamMessage({ stream: general, subject: "lunch", flags: ["read"] });
    const inside = eg.streamMessage({ stream: general, subject: "lunch", flags: ["read"] });
    const anchor = eg.streamMessage({ stream: design, subject: "food", flags: ["read"] });
    s.addFetched({ kind: "channel", channelId: 10 }, [early, inside], done);
    s.addFetched(target, [anchor], { foundOldest: false, foundNewest: true, direction: "around" });
    eg.apply(s, eg.moveEvent({ ids: [early.id], from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "food" }, mode: "change_one" }));
    expect(ids(s, target)).toEqual([anchor.id]);
    const later = eg.streamMessage({ stream: general, subject: "lunch", flags: ["read"] });
    s.addFetched({ kind: "channel", channelId: 10 }, [later], { ...done, direction: "newer" });
    eg.apply(s, eg.moveEvent({ ids: [later.id], from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "food" }, mode: "change_one" }));
    expect(ids(s, target)).toEqual([anchor.id, later.id]);
  });

  it("deletes leave every list and the topic list (single id and bulk)", () => {
    const { s, lunch, ms } = setup();
    eg.apply(s, { type: "delete_message", message_id: ms[2]!.id, message_type: "stream", stream_id: 10, topic: "lunch" });
    expect(ids(s, lunch)).toEqual([ms[0]!.id, ms[1]!.id]);
    expect(topicRows(s, 10)[0]?.maxId).toBe(ms[1]!.id);
    eg.apply(s, eg.deleteEvent([ms[0]!.id, ms[1]!.id], { channelId: 10, topic: "lunch" }));
    expect(ids(s, lunch)).toEqual([]);
    expect(s.messages.byId.size).toBe(0);
  });

  it("muting a topic takes its messages out of the combined feed list", () => {
    const s = eg.store();
    const m = eg.streamMessage({ stream: general, subject: "noise", flags: ["read"] });
    s.addFetched({ kind: "feed" }, [m], done);
    eg.apply(s, { type: "user_topic", stream_id: 10, topic_name: "noise", last_updated: 1, visibility_policy: 1 });
    expect(ids(s, { kind: "feed" })).toEqual([]);
    expect(s.messages.list({ kind: "feed" })?.stale).toBe(true);
  });
});

describe("reactions and flags on messages", () => {
  it("reactions are added once and removed, per user and emoji", () => {
    const s = eg.store();
    const m = eg.streamMessage({ stream: general });
    s.addFetched({ kind: "feed" }, [m], done);
    eg.apply(s, eg.reactionEvent("add", m.id));
    eg.apply(s, eg.reactionEvent("add", m.id));
    eg.apply(s, eg.reactionEvent("add", m.id, { userId: 3 }));
    eg.apply(s, eg.reactionEvent("add", m.id, { name: "smile", code: "1f604" }));
    expect(s.messages.byId.get(m.id)?.reactions).toHaveLength(3);
    eg.apply(s, eg.reactionEvent("remove", m.id));
    eg.apply(s, eg.reactionEvent("remove", m.id));
    expect(s.messages.byId.get(m.id)?.reactions.map((r) => [r.user_id, r.emoji_name])).toEqual([
      [3, "tada"],
      [2, "smile"],
    ]);
    eg.apply(s, eg.reactionEvent("add", 424242)); // unknown message: ignored
  });

  it("starring puts a loaded message into the starred list; unstarring takes it out", () => {
    const s = eg.store();
    const m = eg.streamMessage({ stream: general, flags: ["read"] });
    s.addFetched({ kind: "channel", channelId: 10 }, [m], done);
    s.addFetched({ kind: "starred" }, [], done);
    eg.apply(s, eg.flagsEvent("add", "starred", [m.id]));
    expect(ids(s, { kind: "starred" })).toEqual([m.id]);
    expect(s.messages.byId.get(m.id)?.flags).toEqual(["read", "starred"]);
    eg.apply(s, eg.flagsEvent("remove", "starred", [m.id]));
    expect(ids(s, { kind: "starred" })).toEqual([]);
    expect(s.messages.starred.size).toBe(0);
  });

  it("other flags (collapsed, has_alert_word) change the message only", () => {
    const s = eg.store();
    const m = eg.streamMessage({ stream: general, flags: ["read"] });
    s.addFetched({ kind: "feed" }, [m], done);
    eg.apply(s, eg.flagsEvent("add", "collapsed", [m.id]));
    expect(s.messages.byId.get(m.id)?.flags).toEqual(["read", "collapsed"]);
  });

  it("the legacy 'operation' field alone is understood", () => {
    const s = eg.store({ unread_msgs: { streams: [{ stream_id: 10, topic: "t", unread_message_ids: [7] }], pms: [], huddles: [], mentions: [] } });
    eg.apply(s, { type: "update_message_flags", operation: "add", flag: "read", messages: [7], all: false });
    expect(s.unreads.size).toBe(0);
  });
});

describe("what the model cannot know: stale lists and topic lists", () => {
  it("a message the client never had, moved into a loaded range or starred, marks those lists stale", () => {
    const s = eg.store();
    const target: Narrow = { kind: "topic", channelId: 11, topic: "food" };
    s.addFetched(target, [], done);
    s.addFetched({ kind: "starred" }, [], done);
    s.addFetched({ kind: "all-dms" }, [], done);
    eg.apply(s, eg.moveEvent({ ids: [777], from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "food" }, mode: "change_one" }));
    eg.apply(s, eg.flagsEvent("add", "starred", [778]));
    expect(s.messages.list(target)?.stale).toBe(true);
    expect(s.messages.list({ kind: "starred" })?.stale).toBe(true);
    expect(s.messages.list({ kind: "all-dms" })?.stale).toBe(false);
    expect(s.messages.starred.has(778)).toBe(true);
  });

  it("unsubscribing and subscribing again make the channel's topic list and lists out of date", () => {
    const s = eg.store();
    s.setTopics(11, [{ name: "logo", max_id: 3 }]);
    s.addFetched({ kind: "channel", channelId: 11 }, [], done);
    eg.apply(s, { type: "subscription", op: "remove", subscriptions: [{ stream_id: 11, name: "design" }] });
    expect(s.topicsLoaded.has(11)).toBe(false);
    expect(s.messages.list({ kind: "channel", channelId: 11 })?.stale).toBe(true);
  });

  it("a topic is named as its newest message: after a delete, and after a change of case", () => {
    const s = eg.store();
    const a = eg.streamMessage({ stream: general, subject: "Alpha", flags: ["read"] });
    const b = eg.streamMessage({ stream: general, subject: "alpha", flags: ["read"] });
    s.addFetched({ kind: "channel", channelId: 10 }, [a, b], done);
    expect(topicRows(s, 10).map((t) => t.topic)).toEqual(["alpha"]);
    eg.apply(s, eg.deleteEvent([b.id], { channelId: 10, topic: "alpha" }));
    expect(topicRows(s, 10).map((t) => [t.topic, t.maxId])).toEqual([["Alpha", a.id]]);
    eg.apply(s, eg.moveEvent({ ids: [a.id], from: { channelId: 10, topic: "Alpha" }, to: { topic: "ALPHA" }, mode: "change_one" }));
    expect(topicRows(s, 10).map((t) => [t.topic, t.maxId])).toEqual([["ALPHA", a.id]]);
  });
});
