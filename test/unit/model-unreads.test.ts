import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { feedUnreadCount, channelRows } from "../../src/model/selectors.js";
import { inbox, VIEW_COUNTS } from "../../src/model/selectors-views.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });

function unreadRegister(o: Record<string, unknown> = {}) {
  return {
    unread_msgs: {
      count: 6,
      pms: [{ other_user_id: 2, unread_message_ids: [30] }],
      streams: [
        { stream_id: 10, topic: "lunch", unread_message_ids: [20, 21] },
        { stream_id: 11, topic: "logo", unread_message_ids: [22] },
      ],
      huddles: [{ user_ids_string: "1,2,3", unread_message_ids: [31] }],
      mentions: [21],
      old_unreads_missing: false,
    },
    ...o,
  };
}

describe("unreads from register", () => {
  it("files every id under its topic or conversation, and counts", () => {
    const s = eg.store(unreadRegister());
    expect(s.unreads.size).toBe(5);
    expect(s.unreads.countInChannel(10)).toBe(2);
    expect(s.unreads.countInDm([1, 3, 2])).toBe(1);
    expect(s.unreads.dmCount()).toBe(2);
    expect(s.mentionIds()).toEqual([21]);
    expect(s.unreads.isUnread(20)).toBe(true);
    expect(s.unreads.isUnread(999)).toBe(false);
  });

  it("with old_unreads_missing, unknown ids are 'maybe', and fetched unread messages join the counts", () => {
    const s = eg.store(unreadRegister({ unread_msgs: { ...unreadRegister().unread_msgs, old_unreads_missing: true } }));
    expect(s.unreads.isUnread(999)).toBeUndefined();
    const old = eg.streamMessage({ id: 5, stream: general, subject: "ancient", flags: [] });
    s.addFetched({ kind: "channel", channelId: 10 }, [old], { foundOldest: true, foundNewest: false, direction: "older" });
    expect(s.unreads.countInTopic(10, "ancient")).toBe(1);
  });

  it("an id listed twice counts once, in its later place; a topic listing no ids is not unread", () => {
    const s = eg.store({
      unread_msgs: {
        pms: [],
        streams: [
          { stream_id: 10, topic: "lunch", unread_message_ids: [20, 21, 20] },
          { stream_id: 10, topic: "dinner", unread_message_ids: [] },
          { stream_id: 11, topic: "logo", unread_message_ids: [21] },
        ],
        huddles: [],
        mentions: [21],
      },
    });
    expect(s.unreads.size).toBe(2);
    expect(s.unreads.countInTopic(10, "lunch")).toBe(1);
    expect(s.unreads.countInChannel(11)).toBe(1);
    expect(s.unreads.countInTopic(10, "dinner")).toBe(0);
    const topics = Object.fromEntries(inbox(s).channels.map((c) => [c.channelId, c.topics.map((t) => t.topic)]));
    expect(topics).toEqual({ 10: ["lunch"], 11: ["logo"] });
    expect(s.mentionIds()).toEqual([21]);
  });

  describe("filed whole, indexed once the first frame is out", () => {
    const ordered = (mentions: number[]) => ({
      unread_msgs: {
        pms: [{ other_user_id: 2, unread_message_ids: [30, 33] }],
        streams: [
          { stream_id: 10, topic: "lunch", unread_message_ids: [20, 21, 25] },
          { stream_id: 11, topic: "logo", unread_message_ids: [22, 26] },
        ],
        huddles: [{ user_ids_string: "1,2,3", unread_message_ids: [31] }],
        mentions,
        old_unreads_missing: false,
      },
    });
    const probe = [1, 20, 21, 22, 25, 26, 30, 31, 33, 99];
    const answers = (s: ReturnType<typeof eg.store>) =>
      probe.map((id) => {
        const at = s.unreads.locationOf(id);
        return [id, s.unreads.has(id), s.unreads.isUnread(id), at?.kind === "topic" ? `${at.channelId}/${at.topic}` : at?.kind === "dm" ? `dm ${at.userIds.join(",")}` : "-"];
      });

    it("every id, mention and count reads the same before its index is built as after", () => {
      const s = eg.store(ordered([21, 26, 99]));
      const before = answers(s);
      expect(before.filter(([, has]) => has).map(([id]) => id)).toEqual([20, 21, 22, 25, 26, 30, 31, 33]);
      expect(s.mentionIds()).toEqual([21, 26]);
      expect(s.unreads.countInChannel(10)).toBe(3);
      expect(s.unreads.dmCount()).toBe(3);
      s.unreads.settle();
      expect(answers(s)).toEqual(before);
      expect(s.mentionIds()).toEqual([21, 26]);
      expect(s.unreads.size).toBe(8);
    });

    it("an id in two conversations' lists, each in order, is the later one's: read before, and counted once after", () => {
      const s = eg.store({
        unread_msgs: {
          pms: [{ other_user_id: 2, unread_message_ids: [20] }],
          streams: [
            { stream_id: 10, topic: "lunch", unread_message_ids: [20, 21] },
            { stream_id: 11, topic: "logo", unread_message_ids: [21, 22] },
          ],
          huddles: [],
          mentions: [21],
          old_unreads_missing: false,
        },
      });
      expect(s.unreads.locationOf(21)).toMatchObject({ kind: "topic", channelId: 11 });
      expect(s.unreads.locationOf(20)).toMatchObject({ kind: "dm", userIds: [2] });
      s.unreads.settle();
      expect(s.unreads.locationOf(21)).toMatchObject({ kind: "topic", channelId: 11 });
      expect(s.unreads.locationOf(20)).toMatchObject({ kind: "dm", userIds: [2] });
      expect(s.unreads.countInTopic(10, "lunch")).toBe(0);
      expect(s.unreads.countInChannel(11)).toBe(2);
      expect(s.unreads.dmCount()).toBe(1);
      expect(s.unreads.size).toBe(3);
      expect(s.mentionIds()).toEqual([21]);
      expect(inbox(s).channels.map((c) => c.channelId)).toEqual([11]);
    });

    it("a conversation listed again after an id left it for another is filed in it, counted", () => {
      const s = eg.store({
        unread_msgs: {
          pms: [],
          streams: [
            { stream_id: 10, topic: "lunch", unread_message_ids: [5] },
            { stream_id: 11, topic: "logo", unread_message_ids: [5] },
            { stream_id: 10, topic: "Lunch", unread_message_ids: [7] },
          ],
          huddles: [],
          mentions: [7],
          old_unreads_missing: false,
        },
      });
      expect(s.unreads.locationOf(5)).toMatchObject({ kind: "topic", channelId: 11 });
      expect(s.unreads.locationOf(7)).toMatchObject({ kind: "topic", channelId: 10 });
      expect(s.unreads.countInTopic(10, "lunch")).toBe(1);
      expect(s.unreads.countInChannel(10)).toBe(1);
      expect(s.mentionIds()).toEqual([7]);
      expect(inbox(s).channels.map((c) => [c.channelId, c.topics.map((t) => t.unread)])).toEqual(
        expect.arrayContaining([
          [10, [1]],
          [11, [1]],
        ]),
      );
    });

    it("a change before the index is built finds every filed id", () => {
      const s = eg.store(ordered([21]));
      eg.apply(s, eg.flagsEvent("add", "read", [21, 30, 31]));
      expect(s.unreads.countInTopic(10, "lunch")).toBe(2);
      expect(s.unreads.dmCount()).toBe(1);
      expect(s.mentionIds()).toEqual([]);
      expect(s.unreads.has(33)).toBe(true);
    });
  });

  it("a conversation listed out of order is kept in order: reading starts at its oldest, and its newest dates it", () => {
    const s = eg.store({
      unread_msgs: {
        pms: [{ other_user_id: 2, unread_message_ids: [44, 41, 43] }],
        streams: [{ stream_id: 10, topic: "lunch", unread_message_ids: [27, 21, 25, 21] }],
        huddles: [],
        mentions: [],
      },
    });
    expect(s.unreads.idsInTopic(10, "lunch")).toEqual([21, 25, 27]);
    expect(s.unreads.topicsIn(10)).toEqual([{ topic: "lunch", count: 3, maxId: 27 }]);
    expect(s.firstUnreadIn({ kind: "topic", channelId: 10, topic: "lunch" })).toBe(21);
    expect(s.unreads.dmConversations()).toEqual([{ userIds: [2], count: 3, maxId: 44 }]);
    expect(s.firstUnreadIn({ kind: "dm", userIds: [2] })).toBe(41);
    // An older message marked unread later takes its place in order.
    eg.apply(s, eg.flagsEvent("remove", "read", [23], { message_details: { 23: { type: "stream", stream_id: 10, topic: "lunch" } } }));
    expect(s.unreads.idsInTopic(10, "lunch")).toEqual([21, 23, 25, 27]);
  });

  it("reading many at once, across conversations, leaves each with the rest in order", () => {
    const s = eg.store({
      unread_msgs: {
        pms: [{ other_user_id: 2, unread_message_ids: [40, 41, 42] }],
        streams: [
          { stream_id: 10, topic: "lunch", unread_message_ids: [20, 21, 22, 23] },
          { stream_id: 11, topic: "logo", unread_message_ids: [24, 25] },
        ],
        huddles: [],
        mentions: [21, 41],
      },
    });
    eg.apply(s, eg.flagsEvent("add", "read", [23, 20, 41, 24, 25, 999]));
    expect(s.unreads.idsInTopic(10, "lunch")).toEqual([21, 22]);
    expect(s.unreads.countInChannel(11)).toBe(0);
    expect(s.unreads.topicsIn(11)).toEqual([]);
    expect(s.unreads.idsInDm([2])).toEqual([40, 42]);
    expect(s.unreads.size).toBe(4);
    expect(s.mentionIds()).toEqual([21]);
  });

  it("self-DMs are a conversation of their own", () => {
    const s = eg.store({ unread_msgs: { pms: [{ other_user_id: 1, unread_message_ids: [40] }], streams: [], huddles: [], mentions: [] } });
    expect(s.unreads.countInDm([1])).toBe(1);
  });
});

describe("unreads under events", () => {
  it("a new message counts unless it arrives read (sent by me)", () => {
    const s = eg.store();
    eg.apply(s, eg.messageEvent(eg.streamMessage({ stream: general })));
    eg.apply(s, eg.messageEvent(eg.streamMessage({ stream: general }), ["read"]));
    eg.apply(s, eg.messageEvent(eg.dmMessage()));
    expect(s.unreads.countInChannel(10)).toBe(1);
    expect(s.unreads.dmCount()).toBe(1);
  });

  it("read in another client; reading twice or unknown ids never go negative", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, eg.flagsEvent("add", "read", [20, 30]));
    eg.apply(s, eg.flagsEvent("add", "read", [20, 30, 12345]));
    expect(s.unreads.countInChannel(10)).toBe(1);
    expect(s.unreads.dmCount()).toBe(1);
    expect(feedUnreadCount(s)).toBe(3);
  });

  it("marked unread: placed from message_details, even for a message the client never saw", () => {
    const s = eg.store();
    eg.apply(
      s,
      eg.flagsEvent("remove", "read", [50, 51, 52], {
        message_details: {
          "50": { type: "stream", stream_id: 10, topic: "Lunch", mentioned: true },
          "51": { type: "private", user_ids: [2, 3] },
          "52": { type: "private", user_ids: [] },
        },
      }),
    );
    expect(s.unreads.countInTopic(10, "lunch")).toBe(1);
    expect(s.unreads.countInDm([2, 3])).toBe(1);
    expect(s.unreads.countInDm([1])).toBe(1);
    expect(s.mentionIds()).toEqual([50]);
  });

  it("many marked unread at once join their conversations in order; one unread elsewhere moves to where the event puts it", () => {
    const s = eg.store({
      unread_msgs: {
        pms: [],
        streams: [
          { stream_id: 10, topic: "lunch", unread_message_ids: [100, 104] },
          { stream_id: 11, topic: "logo", unread_message_ids: [90] },
        ],
        huddles: [],
        mentions: [],
      },
    });
    const details: Record<string, unknown> = {};
    for (const id of [103, 101, 102, 105]) details[id] = { type: "stream", stream_id: 10, topic: "lunch", ...(id === 102 ? { mentioned: true } : {}) };
    // 90 was unread in "logo"; the event places it in "lunch", and "logo" is left with none.
    details[90] = { type: "stream", stream_id: 10, topic: "Lunch" };
    eg.apply(s, eg.flagsEvent("remove", "read", [103, 101, 90, 102, 105, 101], { message_details: details }));
    expect(s.unreads.idsInTopic(10, "lunch")).toEqual([90, 100, 101, 102, 103, 104, 105]);
    expect(s.unreads.countInChannel(10)).toBe(7);
    expect(s.unreads.countInChannel(11)).toBe(0);
    expect(s.mentionIds()).toEqual([102]);
  });

  it("marked unread without details falls back to the loaded message", () => {
    const s = eg.store();
    const m = eg.streamMessage({ stream: general, flags: ["read", "mentioned"] });
    s.addFetched({ kind: "feed" }, [m], { foundOldest: true, foundNewest: true, direction: "around" });
    eg.apply(s, eg.flagsEvent("remove", "read", [m.id]));
    expect(s.unreads.countInTopic(10, "greetings")).toBe(1);
    expect(s.mentionIds()).toEqual([m.id]);
    expect(s.messages.byId.get(m.id)?.flags).toEqual(["mentioned"]);
  });

  it("mark all as read (all: true) empties everything and sets the read flag on loaded messages", () => {
    const s = eg.store(unreadRegister());
    const m = eg.streamMessage({ stream: general });
    eg.apply(s, eg.messageEvent(m));
    eg.apply(s, { ...eg.flagsEvent("add", "read", []), all: true });
    expect(s.unreads.size).toBe(0);
    expect(s.mentionIds()).toEqual([]);
    expect(s.messages.byId.get(m.id)?.flags).toContain("read");
  });

  it("a whole topic moved carries its unreads and mentions to the new topic", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, eg.moveEvent({ ids: [20, 21], from: { channelId: 10, topic: "lunch" }, to: { topic: "food" } }));
    expect(s.unreads.countInTopic(10, "lunch")).toBe(0);
    expect(s.unreads.countInTopic(10, "food")).toBe(2);
    expect(s.mentionIds()).toEqual([21]);
  });

  it("a big topic moved into one with unreads of its own: every id once, in order, mentions kept", () => {
    const moved = Array.from({ length: 3000 }, (_, i) => 1000 + 2 * i); // even ids
    const there = Array.from({ length: 1000 }, (_, i) => 1001 + 4 * i); // odd ids among them
    const s = eg.store({
      unread_msgs: {
        pms: [],
        streams: [
          { stream_id: 10, topic: "lunch", unread_message_ids: moved },
          { stream_id: 11, topic: "logo", unread_message_ids: there },
        ],
        huddles: [],
        mentions: [1002, 1005],
      },
    });
    // The event lists the messages in no order, one of them twice.
    eg.apply(s, eg.moveEvent({ ids: [...moved].reverse().concat([1000]), from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "logo" } }));
    const ids = s.unreads.idsInTopic(11, "logo");
    expect(ids).toEqual([...moved, ...there].sort((a, b) => a - b));
    expect(s.unreads.countInChannel(11)).toBe(4000);
    expect(s.unreads.countInChannel(10)).toBe(0);
    expect(s.unreads.topicsIn(10)).toEqual([]);
    expect(s.mentionIds().sort()).toEqual([1002, 1005]);
    expect(s.firstUnreadIn({ kind: "topic", channelId: 11, topic: "logo" })).toBe(1000);
  });

  it("change_one and change_later move only the listed messages, also across channels", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, eg.moveEvent({ ids: [21], from: { channelId: 10, topic: "lunch" }, to: { channelId: 11, topic: "snacks" }, mode: "change_later" }));
    expect(s.unreads.countInTopic(10, "lunch")).toBe(1);
    expect(s.unreads.countInTopic(11, "snacks")).toBe(1);
    expect(s.unreads.countInChannel(11)).toBe(2);
    eg.apply(s, eg.moveEvent({ ids: [22], from: { channelId: 11, topic: "logo" }, to: { channelId: 10 }, mode: "change_one" }));
    expect(s.unreads.countInTopic(10, "logo")).toBe(1);
    expect(s.unreads.countInChannel(11)).toBe(1);
  });

  it("a change of case keeps the unreads in one bucket", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, eg.moveEvent({ ids: [20, 21], from: { channelId: 10, topic: "lunch" }, to: { topic: "Lunch" } }));
    expect(s.unreads.topicsIn(10)).toEqual([{ topic: "Lunch", count: 2, maxId: 21 }]);
  });

  it("deleted messages leave the counts, single and bulk", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, { type: "delete_message", message_id: 20, message_type: "stream", stream_id: 10, topic: "lunch" });
    eg.apply(s, eg.deleteEvent([21, 30, 31]));
    expect(s.unreads.size).toBe(1);
    expect(s.mentionIds()).toEqual([]);
  });

  it("muted channels leave the combined feed but keep their own count; unmuted and followed topics still count", () => {
    const s = eg.store({ ...unreadRegister(), subscriptions: [general, { ...design, is_muted: true }] });
    expect(feedUnreadCount(s)).toBe(4);
    expect(channelRows(s).find((r) => r.channelId === 11)).toMatchObject({ muted: true, unread: 1 });
    eg.apply(s, { type: "user_topic", stream_id: 11, topic_name: "logo", last_updated: 1, visibility_policy: 3 });
    expect(feedUnreadCount(s)).toBe(5);
    eg.apply(s, { type: "user_topic", stream_id: 11, topic_name: "logo", last_updated: 2, visibility_policy: 0 });
    eg.apply(s, { type: "user_topic", stream_id: 10, topic_name: "LUNCH", last_updated: 3, visibility_policy: 1 });
    expect(feedUnreadCount(s)).toBe(2);
    eg.apply(s, { type: "subscription", op: "update", stream_id: 11, property: "is_muted", value: false });
    expect(feedUnreadCount(s)).toBe(3);
  });

  it("counts follow topic policies as they are set, changed in another case and removed, as a topic-by-topic recount says", () => {
    const s = eg.store({ ...unreadRegister(), subscriptions: [general, { ...design, is_muted: true }] });
    // The counts the sidebar shows, recounted here one unread topic at a time from the store's answers.
    const recount = () => {
      const own = (channelId: number) =>
        s.unreads.topicsIn(channelId).reduce((n, t) => n + (s.topicPolicy(channelId, t.topic) === 1 ? 0 : t.count), 0);
      const feed = [10, 11].reduce((n, c) => n + s.unreads.topicsIn(c).reduce((m, t) => m + (s.countsInFeed(c, t.topic) ? t.count : 0), 0), s.unreads.dmCount());
      return { feed, general: own(10), design: own(11) };
    };
    const shown = () => ({ feed: feedUnreadCount(s), general: channelRows(s).find((r) => r.channelId === 10)!.unread, design: channelRows(s).find((r) => r.channelId === 11)!.unread });
    const steps: Array<[number, string, number]> = [
      [10, "lunch", 1], // muted: leaves the feed and the channel's count
      [10, "LUNCH", 3], // the same topic in another case: now followed
      [11, "logo", 2], // unmuted in a muted channel: back in the feed
      [10, "Lunch", 0], // removed, in a third case
      [11, "logo", 0],
    ];
    const seen = [shown()];
    expect(shown()).toEqual(recount());
    for (const [i, [channelId, topic, policy]] of steps.entries()) {
      eg.apply(s, { type: "user_topic", stream_id: channelId, topic_name: topic, last_updated: i + 1, visibility_policy: policy });
      expect(shown()).toEqual(recount());
      seen.push(shown());
    }
    expect(seen.map((c) => c.feed)).toEqual([4, 2, 4, 5, 5, 4]);
    expect(seen.map((c) => c.general)).toEqual([2, 0, 2, 2, 2, 2]);
    expect(seen[0]).toEqual(seen.at(-1));
  });

  it("a deleted channel forgets its topic policies: added again, its topics count in full", () => {
    const s = eg.store({ ...unreadRegister(), user_topics: [{ stream_id: 10, topic_name: "lunch", last_updated: 1, visibility_policy: 1 }] });
    expect(channelRows(s).find((r) => r.channelId === 10)!.unread).toBe(0);
    eg.apply(s, { type: "stream", op: "delete", streams: [{ stream_id: 10 }], stream_ids: [10] });
    expect(s.topicsModel.hasPolicyIn(10)).toBe(false);
    expect(s.topicPolicy(10, "lunch")).toBe(0);
  });

  it("wildcard mentions in muted topics do not count as mentions; personal ones do", () => {
    const s = eg.store();
    const all = eg.streamMessage({ stream: general, subject: "town hall" });
    const me = eg.streamMessage({ stream: general, subject: "town hall" });
    eg.apply(s, eg.messageEvent(all, ["stream_wildcard_mentioned"]));
    eg.apply(s, eg.messageEvent(me, ["mentioned"]));
    expect(s.mentionIds().sort()).toEqual([all.id, me.id]);
    eg.apply(s, { type: "user_topic", stream_id: 10, topic_name: "town hall", last_updated: 1, visibility_policy: 1 });
    expect(s.mentionIds()).toEqual([me.id]);
  });

  it("marked unread: a known message's own flags tell a wildcard mention, even when the details do not", () => {
    const s = eg.store();
    const m = eg.streamMessage({ stream: general, flags: ["read", "stream_wildcard_mentioned", "wildcard_mentioned"] });
    s.addFetched({ kind: "feed" }, [m], { foundOldest: true, foundNewest: true, direction: "around" });
    eg.apply(s, eg.flagsEvent("remove", "read", [m.id], { message_details: { [m.id]: { type: "stream", stream_id: 10, topic: "greetings" } } }));
    expect(s.mentionIds()).toEqual([m.id]);
    expect(s.unreads.mentionOf(m.id)).toBe("wildcard");
  });

  it("mentions in unsubscribed channels do not count, like their unreads", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, { type: "subscription", op: "remove", subscriptions: [{ stream_id: 10, name: "general" }] });
    expect(s.mentionIds()).toEqual([]);
  });

  it("an edit that adds or removes a mention follows the event's flags", () => {
    const s = eg.store();
    const m = eg.streamMessage({ stream: general });
    eg.apply(s, eg.messageEvent(m));
    const edit = { type: "update_message", message_id: m.id, message_ids: [m.id], edit_timestamp: 1, content: "hi @**Self User**", rendering_only: false };
    eg.apply(s, { ...edit, flags: ["mentioned"] });
    expect(s.mentionIds()).toEqual([m.id]);
    eg.apply(s, { ...edit, content: "hi", flags: [] });
    expect(s.mentionIds()).toEqual([]);
  });

  it("unsubscribing hides a channel's unreads from every count; resubscribing shows them again", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, { type: "subscription", op: "remove", subscriptions: [{ stream_id: 11, name: "design" }] });
    expect(feedUnreadCount(s)).toBe(4);
    expect(inbox(s).channels.map((c) => c.channelId)).toEqual([10]);
    eg.apply(s, { type: "subscription", op: "add", subscriptions: [design] });
    expect(feedUnreadCount(s)).toBe(5);
  });

  it("a deleted channel takes its unreads along", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, { type: "stream", op: "delete", streams: [{ stream_id: 11 }], stream_ids: [11] });
    expect(s.unreads.countInChannel(11)).toBe(0);
    expect(s.channels.has(11)).toBe(false);
  });

  it("counts are never negative, whatever the order of events", () => {
    const s = eg.store(unreadRegister());
    eg.apply(s, eg.deleteEvent([20, 20, 21]));
    eg.apply(s, eg.flagsEvent("add", "read", [20, 21, 22]));
    eg.apply(s, eg.moveEvent({ ids: [20, 21], from: { channelId: 10, topic: "lunch" }, to: { topic: "x" } }));
    expect(s.unreads.countInChannel(10)).toBe(0);
    expect(s.unreads.countInChannel(11)).toBe(0);
    expect(feedUnreadCount(s)).toBe(2);
  });
});

describe("unread views", () => {
  it("inbox groups unread conversations by channel and DM, newest first, without muted topics", () => {
    const s = eg.store({
      ...unreadRegister(),
      user_topics: [{ stream_id: 11, topic_name: "logo", visibility_policy: 1, last_updated: 1 }],
    });
    const box = inbox(s);
    expect(box.dms.map((d) => d.userIds)).toEqual([[2, 3], [2]]);
    expect(box.channels).toEqual([
      expect.objectContaining({ channelId: 10, unread: 2, mentioned: true, topics: [expect.objectContaining({ topic: "lunch", unread: 2 })] }),
    ]);
    expect(box.total).toBe(4);
  });

  it("sidebar views count the feed, DMs, mentions, starred and followed topics", () => {
    const s = eg.store({
      ...unreadRegister(),
      starred_messages: [20, 99],
      user_topics: [{ stream_id: 11, topic_name: "logo", visibility_policy: 3, last_updated: 1 }],
    });
    const views = Object.fromEntries(Object.entries(VIEW_COUNTS).map(([id, count]) => [id, count(s)]));
    expect(views["feed"]?.unread).toBe(5);
    expect(views["dms"]?.unread).toBe(2);
    expect(views["mentions"]?.unread).toBe(1);
    expect(views["starred"]).toMatchObject({ unread: 1, total: 2 });
    expect(views["followed"]?.unread).toBe(1);
    eg.apply(s, eg.flagsEvent("remove", "starred", [20]));
    expect(VIEW_COUNTS.starred(s)).toMatchObject({ unread: 0, total: 1 });
  });
});
