import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecencyOrder } from "../../src/model/recency-order.js";
import { addRecentMessages } from "../../src/model/recent-store.js";
import { recentConversations, recentFilterComplete, type RecentFilter } from "../../src/model/selectors-recent.js";
import type { Store } from "../../src/model/store.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });
const jose = eg.user({ user_id: 4, full_name: "José Núñez" });
const people = { realm_users: [eg.selfUser, eg.otherUser, eg.thirdUser, jose] };

/** Each row as "channel>topic" or "dm:ids", newest first. */
function keys(s: Store, f: RecentFilter = {}): string[] {
  return recentConversations(s, f).rows.map((r) => (r.kind === "topic" ? `${r.channelName}>${r.topic}` : `dm:${r.participants.join(",")}`));
}

function live(s: Store, ...ms: ReturnType<typeof eg.streamMessage>[]): void {
  for (const m of ms) eg.apply(s, eg.messageEvent(m));
}

describe("recent conversations", () => {
  it("starts from the register: recent direct messages and every conversation with unread messages, newest first", () => {
    const s = eg.store({
      ...people,
      recent_private_conversations: [
        { user_ids: [2], max_message_id: 300 },
        { user_ids: [2, 3], max_message_id: 120 },
      ],
      unread_msgs: {
        count: 3,
        pms: [],
        huddles: [],
        mentions: [],
        old_unreads_missing: false,
        streams: [
          { stream_id: 10, topic: "lunch", unread_message_ids: [200, 210] },
          { stream_id: 11, topic: "logo", unread_message_ids: [50] },
        ],
      },
    });
    expect(keys(s)).toEqual(["dm:2", "general>lunch", "dm:2,3", "design>logo"]);
    const lunch = recentConversations(s).rows[1]!;
    expect(lunch).toMatchObject({ unread: 2, maxId: 210, participants: [], narrow: { kind: "topic", channelId: 10, topic: "lunch" } });
    expect(recentConversations(s).rows[2]!.participants).toEqual([2, 3]);
  });

  it("a new message puts its conversation first, with its sender first among the participants", () => {
    const s = eg.store(people);
    const a = eg.streamMessage({ stream: general, subject: "plans", sender_id: 2 });
    const b = eg.streamMessage({ stream: design, subject: "logo", sender_id: 3 });
    live(s, a, b);
    expect(keys(s)).toEqual(["design>logo", "general>plans"]);
    const c = eg.streamMessage({ stream: general, subject: "Plans", sender_id: 3, timestamp: eg.fixedTime + 99 });
    live(s, c);
    expect(keys(s)).toEqual(["general>Plans", "design>logo"]);
    const row = recentConversations(s).rows[0]!;
    expect(row).toMatchObject({ participants: [3, 2], unread: 2, maxId: c.id, timestamp: eg.fixedTime + 99 });
    const dm = eg.dmMessage({ from: eg.thirdUser, to: [eg.selfUser] });
    live(s, dm);
    expect(keys(s)[0]).toBe("dm:3");
  });

  it("reading and marking unread changes the counts and the unread-only filter at once", () => {
    const s = eg.store(people);
    const a = eg.streamMessage({ stream: general, subject: "plans" });
    const b = eg.streamMessage({ stream: design, subject: "logo", flags: ["read"] });
    live(s, a, b);
    expect(keys(s, { unreadOnly: true })).toEqual(["general>plans"]);
    eg.apply(s, eg.flagsEvent("add", "read", [a.id]));
    expect(keys(s, { unreadOnly: true })).toEqual([]);
    expect(keys(s)).toEqual(["design>logo", "general>plans"]);
    // Marked unread again, an old message of a conversation never loaded: the conversation appears.
    eg.apply(s, eg.flagsEvent("remove", "read", [42], { message_details: { 42: { type: "stream", stream_id: 10, topic: "archive" } } }));
    expect(keys(s, { unreadOnly: true })).toEqual(["general>archive"]);
    expect(keys(s)).toEqual(["design>logo", "general>plans", "general>archive"]);
  });

  it("follows a topic moved whole: the new name takes its place, the old one goes", () => {
    const s = eg.store(people);
    const [a, b] = [eg.streamMessage({ stream: general, subject: "draft" }), eg.streamMessage({ stream: general, subject: "draft", sender_id: 3 })];
    const other = eg.streamMessage({ stream: design, subject: "logo" });
    live(s, a!, b!, other);
    eg.apply(s, eg.moveEvent({ ids: [a!.id, b!.id], from: { channelId: 10, topic: "draft" }, to: { channelId: 11, topic: "final" }, mode: "change_all" }));
    expect(keys(s)).toEqual(["design>logo", "design>final"]);
    expect(recentConversations(s).rows[1]).toMatchObject({ participants: [3, 2], unread: 2, maxId: b!.id });
  });

  it("a partial move keeps the old topic at its newest remaining message", () => {
    const s = eg.store(people);
    const a = eg.streamMessage({ stream: general, subject: "thread" });
    const mid = eg.streamMessage({ stream: design, subject: "logo" });
    const [b, c] = [eg.streamMessage({ stream: general, subject: "thread" }), eg.streamMessage({ stream: general, subject: "thread" })];
    live(s, a, mid, b!, c!);
    eg.apply(s, eg.moveEvent({ ids: [c!.id], from: { channelId: 10, topic: "thread" }, to: { topic: "side" }, mode: "change_one" }));
    expect(keys(s)).toEqual(["general>side", "general>thread", "design>logo"]);
    expect(recentConversations(s).rows[1]!.maxId).toBe(b!.id);
    // Messages the client never loaded moved in: the target still learns its newest id.
    eg.apply(s, eg.moveEvent({ ids: [9000, 9001], from: { channelId: 10, topic: "elsewhere" }, to: { topic: "thread" }, mode: "change_all" }));
    expect(keys(s)[0]).toBe("general>thread");
    expect(recentConversations(s).rows[0]!.maxId).toBe(9001);
  });

  it("deleting the newest message falls back to the one before; deleting all of them removes the conversation", () => {
    const s = eg.store(people);
    const a = eg.streamMessage({ stream: general, subject: "oops", flags: ["read"] });
    const other = eg.streamMessage({ stream: design, subject: "logo", flags: ["read"] });
    const b = eg.streamMessage({ stream: general, subject: "oops", flags: ["read"], sender_id: 3 });
    live(s, a, other, b);
    eg.apply(s, eg.deleteEvent([b.id], { channelId: 10, topic: "oops" }));
    expect(keys(s)).toEqual(["design>logo", "general>oops"]);
    expect(recentConversations(s).rows[1]).toMatchObject({ maxId: a.id, participants: [2] });
    eg.apply(s, eg.deleteEvent([a.id], { channelId: 10, topic: "oops" }));
    expect(keys(s)).toEqual(["design>logo"]);
  });

  it("leaves out muted topics and muted channels unless asked; marks followed topics", () => {
    const quiet = eg.subscription({ stream_id: 12, name: "quiet", is_muted: true });
    const s = eg.store({ ...people, subscriptions: [general, design, quiet], user_topics: [
      { stream_id: 10, topic_name: "noise", visibility_policy: 1, last_updated: 1 },
      { stream_id: 11, topic_name: "logo", visibility_policy: 3, last_updated: 1 },
    ] });
    live(s, eg.streamMessage({ stream: general, subject: "noise" }), eg.streamMessage({ stream: design, subject: "logo" }), eg.streamMessage({ stream: quiet, subject: "x" }));
    expect(keys(s)).toEqual(["design>logo"]);
    expect(keys(s, { includeMuted: true })).toEqual(["quiet>x", "design>logo", "general>noise"]);
    expect(recentConversations(s, { includeMuted: true }).rows.map((r) => [r.muted, r.followed])).toEqual([[true, false], [false, true], [true, false]]);
  });

  it("filters by channel, by participants and by typed text (case and accents ignored)", () => {
    const s = eg.store(people);
    live(
      s,
      eg.streamMessage({ stream: general, subject: "Budget", sender_id: 4, sender_full_name: jose.full_name }),
      eg.streamMessage({ stream: design, subject: "logo", sender_id: 3 }),
      eg.dmMessage({ from: jose, to: [eg.selfUser, eg.otherUser] }),
    );
    expect(keys(s, { channelId: 11 })).toEqual(["design>logo"]);
    expect(keys(s, { participants: [4] })).toEqual(["dm:2,4", "general>Budget"]);
    expect(keys(s, { participants: [4, 2] })).toEqual(["dm:2,4"]);
    expect(keys(s, { text: "jose" })).toEqual(["dm:2,4", "general>Budget"]);
    expect(keys(s, { text: "DESIGN" })).toEqual(["design>logo"]);
    expect(keys(s, { text: "budg" })).toEqual(["general>Budget"]);
    expect(keys(s, { only: "dms" })).toEqual(["dm:2,4"]);
  });

  it("pages: offset and limit, and whether more rows follow", () => {
    const s = eg.store(people);
    live(s, ...["a", "b", "c", "d"].map((t) => eg.streamMessage({ stream: general, subject: t })));
    expect(recentConversations(s, {}, { limit: 2 })).toMatchObject({ more: true });
    expect(recentConversations(s, {}, { offset: 2, limit: 2 }).rows.map((r) => r.topic)).toEqual(["b", "a"]);
    expect(recentConversations(s, {}, { offset: 2, limit: 2 }).more).toBe(false);
  });

  it("batches of the recent view are kept as conversations without storing the messages", () => {
    const s = eg.store(people);
    const batch = [eg.streamMessage({ stream: general, subject: "old", flags: ["read"] }), eg.dmMessage({ flags: ["read"] }), eg.streamMessage({ stream: design, subject: "new", flags: ["read"] })];
    let notified = 0;
    s.subscribe(() => notified++);
    addRecentMessages(s, batch);
    expect(keys(s)).toEqual(["design>new", "dm:2", "general>old"]);
    expect(s.messages.byId.size).toBe(0);
    expect(notified).toBe(1);
    expect(s.topicsOf(10).map((t) => t.name)).toEqual(["old"]);
  });

  it("says when a filter needs no loading: unread ones are all known, and a channel's once its topics are", () => {
    const s = eg.store(people);
    expect(recentFilterComplete(s, { unreadOnly: true })).toBe(true);
    expect(recentFilterComplete(s, { channelId: 10 })).toBe(false);
    s.setTopics(10, [{ name: "archive", max_id: 7 }]);
    expect(recentFilterComplete(s, { channelId: 10 })).toBe(true);
    expect(keys(s, { channelId: 10 })).toEqual(["general>archive"]);
    expect(recentFilterComplete(s, { text: "x" })).toBe(false);
  });

  it("journals only the conversations an event touched", () => {
    const s = eg.store(people);
    live(s, eg.streamMessage({ stream: general, subject: "a" }), eg.streamMessage({ stream: design, subject: "b" }));
    const at = s.recent.changes.position;
    live(s, eg.streamMessage({ stream: general, subject: "a" }));
    expect(new Set(s.recent.changes.since(at)!.map((c) => c.key))).toEqual(new Set(["t:10:a"]));
  });
});

describe("the recency order", () => {
  it("keeps items by rank through rises, falls, removals and batches", () => {
    const order = new RecencyOrder<{ key: string; rank: number }>();
    const items = ["a", "b", "c", "d"].map((key, i) => ({ key, rank: i * 10 }));
    for (const it of items) order.set(it, it.rank);
    const ranks = () => [...order.descending()].map((it) => it.key).join("");
    const move = (i: number, rank: number) => {
      items[i]!.rank = rank;
      order.set(items[i]!, rank);
    };
    expect(ranks()).toBe("dcba");
    move(0, 99); // the usual change: now the newest
    expect(ranks()).toBe("adcb");
    move(0, 15); // its newest message deleted
    expect(ranks()).toBe("dcab");
    move(3, -1); // back to nothing known: the oldest end
    expect(ranks()).toBe("cabd");
    order.delete(items[2]!);
    expect(ranks()).toBe("abd");
    order.batch(() => {
      move(3, 50);
      move(1, 40);
    });
    expect(ranks()).toBe("dba");
    expect(order.check((it) => it.rank)).toEqual([]);
    expect(order.size).toBe(3);
  });

  it("puts items in their place from either end: new ones among the oldest, old ranks and ties by key", () => {
    const order = new RecencyOrder<{ key: string; rank: number }>();
    const items: Array<{ key: string; rank: number }> = [];
    const put = (key: string, rank: number) => {
      const it = { key, rank };
      items.push(it);
      order.set(it, rank);
    };
    for (let i = 0; i < 50; i++) put(`t${String(i).padStart(2, "0")}`, 1000 + i);
    // Conversations just made (nothing filed yet), in no order of key, and old activity.
    for (const key of ["n5", "n1", "n9", "n3"]) put(key, -1);
    put("old", 3);
    put("tie", 1020);
    put("t20b", 1020);
    const keys = [...order.descending()].map((it) => it.key);
    expect(keys.slice(-6)).toEqual(["t00", "old", "n9", "n5", "n3", "n1"]);
    expect(keys.indexOf("tie") < keys.indexOf("t20b")).toBe(true);
    expect(keys.indexOf("t20b") < keys.indexOf("t20")).toBe(true);
    expect(order.check((it) => it.rank)).toEqual([]);
    expect(order.size).toBe(items.length);
  });
});
