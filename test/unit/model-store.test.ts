import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEvent } from "../../src/api/schemas/events.js";
import { channelRows, feedUnreadCount, narrowMessages, topicRows } from "../../src/model/selectors.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const general = eg.subscription({ stream_id: 10, name: "general" });

function unreadRegister() {
  return {
    unread_msgs: {
      count: 4,
      pms: [{ other_user_id: 2, unread_message_ids: [30] }],
      streams: [
        { stream_id: 10, topic: "lunch", unread_message_ids: [20, 21] },
        { stream_id: 11, topic: "logo", unread_message_ids: [22] },
      ],
      huddles: [{ user_ids_string: "1,2,3", unread_message_ids: [31] }],
      mentions: [21],
      old_unreads_missing: false,
    },
  };
}

describe("store built from register", () => {
  it("counts unreads per channel, topic and conversation", () => {
    const s = eg.store(unreadRegister());
    expect(s.unreads.countInChannel(10)).toBe(2);
    expect(s.unreads.countInTopic(10, "LUNCH")).toBe(2);
    expect(s.unreads.countInDm([2])).toBe(1);
    expect(s.unreads.countInDm([2, 3])).toBe(1);
    expect([...s.unreads.mentions]).toEqual([21]);
    expect(feedUnreadCount(s)).toBe(5);
  });

  it("accepts the public zulip_feature_level spelling", () => {
    const s = eg.store({ svc_feature_level: undefined, zulip_feature_level: 372 });
    expect(s.realm.featureLevel).toBe(372);
  });

  it("leaves muted channels out of the combined feed count but keeps their own count", () => {
    const s = eg.store({
      ...unreadRegister(),
      subscriptions: [general, eg.subscription({ stream_id: 11, name: "design", is_muted: true })],
    });
    expect(feedUnreadCount(s)).toBe(4);
    expect(channelRows(s).find((r) => r.channelId === 11)).toMatchObject({ muted: true, unread: 1 });
  });

  it("puts pinned channels first, then sorts by name", () => {
    const s = eg.store({
      subscriptions: [
        eg.subscription({ stream_id: 1, name: "zeta" }),
        eg.subscription({ stream_id: 2, name: "Alpha" }),
        eg.subscription({ stream_id: 3, name: "pinned", pin_to_top: true }),
      ],
    });
    expect(channelRows(s).map((r) => r.name)).toEqual(["pinned", "Alpha", "zeta"]);
  });
});

describe("events", () => {
  it("a new unread message raises the counts and appears in loaded narrows that reached the newest", () => {
    const s = eg.store();
    const narrow = { kind: "topic" as const, channelId: 10, topic: "greetings" };
    s.addFetched(narrow, [eg.streamMessage({ stream: general, flags: ["read"] })], { foundOldest: true, foundNewest: true, direction: "around" });
    const m = eg.streamMessage({ stream: general, content: "new one" });
    s.apply(parseEvent(eg.event({ type: "message", message: m, flags: [] })));
    expect(s.unreads.countInTopic(10, "greetings")).toBe(1);
    expect(narrowMessages(s, narrow).map((x) => x.content)).toEqual(["hello", "new one"]);
    expect(topicRows(s, 10)[0]).toMatchObject({ topic: "greetings", unread: 1 });
  });

  it("does not append to a list that has not reached the newest message (that would leave a gap)", () => {
    const s = eg.store();
    const narrow = { kind: "channel" as const, channelId: 10 };
    s.addFetched(narrow, [eg.streamMessage({ stream: general })], { foundOldest: true, foundNewest: false, direction: "around" });
    s.apply(parseEvent(eg.event({ type: "message", message: eg.streamMessage({ stream: general }), flags: [] })));
    expect(narrowMessages(s, narrow)).toHaveLength(1);
  });

  it("reading elsewhere clears unreads; marking unread restores them with their details", () => {
    const s = eg.store(unreadRegister());
    s.apply(parseEvent(eg.event({ type: "update_message_flags", op: "add", flag: "read", messages: [20, 21, 30], all: false })));
    expect(s.unreads.countInTopic(10, "lunch")).toBe(0);
    expect(s.unreads.countInDm([2])).toBe(0);
    expect(s.unreads.mentions.size).toBe(0);
    s.apply(
      parseEvent(
        eg.event({
          type: "update_message_flags",
          op: "remove",
          flag: "read",
          messages: [20],
          all: false,
          message_details: { "20": { type: "stream", stream_id: 10, topic: "lunch", mentioned: true } },
        }),
      ),
    );
    expect(s.unreads.countInTopic(10, "lunch")).toBe(1);
    expect(s.unreads.mentions.has(20)).toBe(true);
  });

  it("mark all as read empties every count", () => {
    const s = eg.store(unreadRegister());
    s.apply(parseEvent(eg.event({ type: "update_message_flags", op: "add", flag: "read", messages: [], all: true })));
    expect(feedUnreadCount(s)).toBe(0);
  });

  it("deleted messages leave the lists and the counts", () => {
    const s = eg.store(unreadRegister());
    s.apply(parseEvent(eg.event({ type: "delete_message", message_ids: [20, 22], message_type: "stream", stream_id: 10 })));
    expect(s.unreads.countInChannel(10)).toBe(1);
    expect(s.unreads.countInChannel(11)).toBe(0);
  });

  it("messages moved to another topic carry their unread state", () => {
    const s = eg.store(unreadRegister());
    s.apply(
      parseEvent(
        eg.event({
          type: "update_message",
          message_id: 20,
          message_ids: [20, 21],
          stream_id: 10,
          orig_subject: "lunch",
          subject: "food",
          propagate_mode: "change_all",
          flags: [],
        }),
      ),
    );
    expect(s.unreads.countInTopic(10, "lunch")).toBe(0);
    expect(s.unreads.countInTopic(10, "food")).toBe(2);
    expect(s.unreads.mentions.has(21)).toBe(true);
  });

  it("reactions are added once and removed", () => {
    const s = eg.store();
    const m = eg.streamMessage({ stream: general });
    s.addFetched({ kind: "feed" }, [m], { foundOldest: true, foundNewest: true, direction: "around" });
    const reaction = { type: "reaction", message_id: m.id, user_id: 2, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" };
    s.apply(parseEvent(eg.event({ ...reaction, op: "add" })));
    s.apply(parseEvent(eg.event({ ...reaction, op: "add" })));
    expect(s.messages.byId.get(m.id)?.reactions).toHaveLength(1);
    s.apply(parseEvent(eg.event({ ...reaction, op: "remove" })));
    expect(s.messages.byId.get(m.id)?.reactions).toHaveLength(0);
  });

  it("subscription updates change mute and pin, keeping is_muted and in_home_view in step", () => {
    const s = eg.store();
    s.apply(parseEvent(eg.event({ type: "subscription", op: "update", stream_id: 10, property: "in_home_view", value: false })));
    expect(s.isChannelMuted(10)).toBe(true);
    s.apply(parseEvent(eg.event({ type: "subscription", op: "update", stream_id: 10, property: "pin_to_top", value: true })));
    expect(channelRows(s)[0]).toMatchObject({ channelId: 10, pinned: true, muted: true });
  });

  it("ignores unknown event types and unknown ops without failing, but advances the event id", () => {
    const s = eg.store();
    const before = s.version;
    s.apply(parseEvent({ id: 41, type: "brand_new_thing", whatever: 1 }));
    s.apply(parseEvent({ id: 42, type: "subscription", op: "teleport" }));
    expect(s.version).toBe(before);
    expect(s.lastEventId).toBe(42);
  });

  it("tolerates unknown fields on known events", () => {
    const s = eg.store();
    const m = { ...eg.streamMessage({ stream: general }), shiny_new_field: { a: 1 } };
    s.apply(parseEvent(eg.event({ type: "message", message: m, flags: [], another: true })));
    expect(s.unreads.countInChannel(10)).toBe(1);
  });

  it("maps the public zulip_extra_emoji reaction type to the spec's name", () => {
    const e = parseEvent(
      eg.event({ type: "reaction", op: "add", message_id: 1, user_id: 2, emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" }),
    );
    expect(e).toMatchObject({ type: "reaction", reaction_type: "svc_extra_emoji" });
  });
});
