import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { channelRows, topicRows } from "../../src/model/selectors.js";
import { folderSections, followedTopics } from "../../src/model/selectors-views.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });

describe("channels from register", () => {
  it("keeps subscribed, unsubscribed and never-subscribed channels apart, all resolvable by id", () => {
    const s = eg.store({
      subscriptions: [general],
      unsubscribed: [design],
      never_subscribed: [eg.channel({ stream_id: 12, name: "random" })],
    });
    expect([...s.channels.keys()]).toEqual([10]);
    expect(s.channelsModel.unsubscribed.has(11)).toBe(true);
    expect(s.channelName(12)).toBe("random");
    expect(s.isSubscribed(12)).toBe(false);
  });

  it("fills is_muted from the legacy in_home_view", () => {
    const s = eg.store({ subscriptions: [{ ...general, is_muted: undefined, in_home_view: false }] });
    expect(s.isChannelMuted(10)).toBe(true);
  });
});

describe("subscription events", () => {
  it("add subscribes (from never-subscribed), remove keeps the settings among the unsubscribed", () => {
    const s = eg.store({ subscriptions: [general], never_subscribed: [eg.channel({ stream_id: 12, name: "random" })] });
    eg.apply(s, { type: "subscription", op: "add", subscriptions: [eg.subscription({ stream_id: 12, name: "random", color: "#abcdef" })] });
    expect(s.channels.get(12)?.color).toBe("#abcdef");
    expect(s.channelsModel.neverSubscribed.has(12)).toBe(false);
    eg.apply(s, { type: "subscription", op: "remove", subscriptions: [{ stream_id: 12, name: "random" }] });
    expect(s.channels.has(12)).toBe(false);
    expect(s.channelsModel.unsubscribed.get(12)?.color).toBe("#abcdef");
  });

  it("update sets any personal property; mute and in_home_view stay in step", () => {
    const s = eg.store();
    eg.apply(s, { type: "subscription", op: "update", stream_id: 10, property: "in_home_view", value: false });
    expect(s.channels.get(10)).toMatchObject({ is_muted: true, in_home_view: false });
    eg.apply(s, { type: "subscription", op: "update", stream_id: 10, property: "is_muted", value: false });
    expect(s.channels.get(10)).toMatchObject({ is_muted: false, in_home_view: true });
    eg.apply(s, { type: "subscription", op: "update", stream_id: 10, property: "color", value: "#000000" });
    eg.apply(s, { type: "subscription", op: "update", stream_id: 10, property: "desktop_notifications", value: null });
    expect(s.channels.get(10)).toMatchObject({ color: "#000000", desktop_notifications: null });
    eg.apply(s, { type: "subscription", op: "update", stream_id: 99, property: "color", value: "#fff" }); // unknown: ignored
    eg.apply(s, { type: "subscription", op: "update", stream_id: 10, property: "__proto__", value: { polluted: true } });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("peer_add and peer_remove adjust subscribers and the count, without double counting", () => {
    const s = eg.store({ subscriptions: [{ ...general, subscribers: [1, 2], subscriber_count: 2 }, { ...design, subscriber_count: 5 }] });
    eg.apply(s, { type: "subscription", op: "peer_add", stream_ids: [10, 11], user_ids: [2, 3] });
    expect(s.channels.get(10)).toMatchObject({ subscribers: [1, 2, 3], subscriber_count: 3 });
    expect(s.channels.get(11)?.subscriber_count).toBe(7);
    eg.apply(s, { type: "subscription", op: "peer_remove", stream_ids: [10], user_ids: [1, 2, 3, 4] });
    expect(s.channels.get(10)).toMatchObject({ subscribers: [], subscriber_count: 0 });
  });
});

describe("stream events", () => {
  it("create adds a channel one can subscribe to; update changes it wherever it is; delete forgets it", () => {
    const s = eg.store();
    eg.apply(s, { type: "stream", op: "create", streams: [eg.channel({ stream_id: 20, name: "new" })] });
    expect(s.channelName(20)).toBe("new");
    eg.apply(s, { type: "stream", op: "update", stream_id: 20, name: "new", property: "name", value: "renamed" });
    eg.apply(s, { type: "stream", op: "update", stream_id: 10, name: "general", property: "description", value: "hi", rendered_description: "<p>hi</p>" });
    eg.apply(s, {
      type: "stream",
      op: "update",
      stream_id: 10,
      name: "general",
      property: "invite_only",
      value: true,
      history_public_to_subscribers: false,
      is_web_public: false,
    });
    eg.apply(s, { type: "stream", op: "update", stream_id: 10, name: "general", property: "folder_id", value: 5 });
    expect(s.channelName(20)).toBe("renamed");
    expect(s.channels.get(10)).toMatchObject({ description: "hi", rendered_description: "<p>hi</p>", invite_only: true, history_public_to_subscribers: false, folder_id: 5 });
    eg.apply(s, { type: "stream", op: "delete", streams: [{ stream_id: 20 }, { stream_id: 10 }] });
    expect(s.channel(20)).toBeUndefined();
    expect(s.channels.has(10)).toBe(false);
  });

  it("archiving is an update of is_archived", () => {
    const s = eg.store();
    eg.apply(s, { type: "stream", op: "update", stream_id: 11, name: "design", property: "is_archived", value: true });
    expect(channelRows(s).find((r) => r.channelId === 11)?.archived).toBe(true);
  });
});

describe("channel folders", () => {
  it("add, update and reorder; the sidebar shows pinned, then folders in order, then the rest", () => {
    const s = eg.store({
      channel_folders: [eg.folder({ id: 1, name: "Teams", order: 1 }), eg.folder({ id: 2, name: "Social", order: 0 })],
      subscriptions: [
        eg.subscription({ stream_id: 10, name: "general", folder_id: 2 }),
        eg.subscription({ stream_id: 11, name: "design", folder_id: 1 }),
        eg.subscription({ stream_id: 12, name: "backend", folder_id: 1 }),
        eg.subscription({ stream_id: 13, name: "loose" }),
        eg.subscription({ stream_id: 14, name: "top", pin_to_top: true, folder_id: 1 }),
      ],
    });
    const shape = () => folderSections(s).map((f) => [f.label, f.channels.map((c) => c.name)]);
    expect(shape()).toEqual([
      ["Pinned", ["top"]],
      ["Social", ["general"]],
      ["Teams", ["backend", "design"]],
      ["Other channels", ["loose"]],
    ]);
    eg.apply(s, { type: "channel_folder", op: "add", channel_folder: eg.folder({ id: 3, name: "Empty", order: 2 }) });
    eg.apply(s, { type: "channel_folder", op: "update", channel_folder_id: 2, data: { name: "Fun" } });
    eg.apply(s, { type: "channel_folder", op: "reorder", order: [1, 3, 2] });
    expect(shape().map(([label]) => label)).toEqual(["Pinned", "Teams", "Empty", "Fun", "Other channels"]);
    eg.apply(s, { type: "channel_folder", op: "update", channel_folder_id: 3, data: { is_archived: true } });
    expect(shape().map(([label]) => label)).toEqual(["Pinned", "Teams", "Fun", "Other channels"]);
  });
});

describe("topics and visibility policies", () => {
  it("topic lists merge the server's list with topics seen in events, newest first", () => {
    const s = eg.store();
    eg.apply(s, eg.messageEvent(eg.streamMessage({ id: 9000, stream: general, subject: "fresh" })));
    s.setTopics(10, [
      { name: "old", max_id: 100 },
      { name: "Fresh", max_id: 200 },
    ]);
    expect(topicRows(s, 10).map((t) => [t.topic, t.maxId, t.unread])).toEqual([
      ["fresh", 9000, 1],
      ["old", 100, 0],
    ]);
    expect(s.topicsLoaded.has(10)).toBe(true);
  });

  it("a followed topic with 200,000 unread messages lists its count and newest one", () => {
    const ids = Array.from({ length: 200_000 }, (_, i) => 1000 + i);
    const s = eg.store({
      user_topics: [{ stream_id: 10, topic_name: "Firehose", visibility_policy: 3, last_updated: 1 }],
      unread_msgs: { pms: [], streams: [{ stream_id: 10, topic: "firehose", unread_message_ids: ids }], huddles: [], mentions: [] },
    });
    expect(followedTopics(s).map((t) => [t.topic, t.unread, t.maxId])).toEqual([["Firehose", 200_000, 200_999]]);
  });

  it("user_topic sets and clears a policy (case-insensitive); followed topics are listed", () => {
    const s = eg.store({ user_topics: [{ stream_id: 10, topic_name: "Lunch", visibility_policy: 1, last_updated: 1 }] });
    expect(s.topicPolicy(10, "lunch")).toBe(1);
    eg.apply(s, { type: "user_topic", stream_id: 10, topic_name: "lunch", last_updated: 2, visibility_policy: 3 });
    eg.apply(s, { type: "user_topic", stream_id: 11, topic_name: "logo", last_updated: 2, visibility_policy: 2 });
    expect(followedTopics(s).map((t) => [t.channelName, t.topic])).toEqual([["general", "lunch"]]);
    eg.apply(s, { type: "user_topic", stream_id: 10, topic_name: "LUNCH", last_updated: 3, visibility_policy: 0 });
    expect(s.topicPolicy(10, "lunch")).toBe(0);
    expect(s.userTopics.size).toBe(1);
  });

  it("deleting a channel drops its topics and policies", () => {
    const s = eg.store({ user_topics: [{ stream_id: 11, topic_name: "logo", visibility_policy: 1, last_updated: 1 }] });
    s.setTopics(11, [{ name: "logo", max_id: 3 }]);
    eg.apply(s, { type: "stream", op: "delete", streams: [{ stream_id: 11 }] });
    expect(s.topicsOf(11)).toEqual([]);
    expect(s.topicPolicy(11, "logo")).toBe(0);
  });
});
