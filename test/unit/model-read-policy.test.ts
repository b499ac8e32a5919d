/**
 * Where views open and what they leave out, as the service's apps do it: the
 * mark-as-read setting's values, the views that open at their first unread
 * message, and the combined feed's and a channel's muting rules, one test a
 * rule. The feed, the Inbox, the sidebar counts and `n`/`p` agree on what is
 * unread.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schemas/common.js";
import { narrowKey, narrowToApi, type Narrow } from "../../src/model/narrow.js";
import { isConversationView, markReadPolicy, opensAtFirstUnread } from "../../src/model/read-policy.js";
import { narrowMessages } from "../../src/model/selectors.js";
import { inbox, VIEW_COUNTS } from "../../src/model/selectors-views.js";
import type { Store } from "../../src/model/store.js";
import { nextUnreadDm, nextUnreadTopic } from "../../src/ui/features/navigation.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const general = eg.subscription({ stream_id: 10, name: "general" });
const quiet = eg.subscription({ stream_id: 11, name: "quiet", is_muted: true });
const gone = eg.subscription({ stream_id: 12, name: "gone" });

const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;
const policy = (stream_id: number, topic_name: string, visibility_policy: number) => ({ stream_id, topic_name, visibility_policy, last_updated: 1 });

describe("the mark-as-read setting", () => {
  it("reads the service's values; missing (older servers) or unknown is the service's default, always", () => {
    expect(markReadPolicy({ web_mark_read_on_scroll_policy: 1 })).toBe("always");
    expect(markReadPolicy({ web_mark_read_on_scroll_policy: 2 })).toBe("conversations");
    expect(markReadPolicy({ web_mark_read_on_scroll_policy: 3 })).toBe("never");
    expect(markReadPolicy({})).toBe("always");
    expect(markReadPolicy({ web_mark_read_on_scroll_policy: 9 })).toBe("always");
    expect(markReadPolicy({ web_mark_read_on_scroll_policy: "3" })).toBe("always");
  });

  it("a conversation view is one topic or one DM conversation; a channel's view is not", () => {
    expect(isConversationView({ kind: "topic", channelId: 10, topic: "lunch" })).toBe(true);
    expect(isConversationView({ kind: "dm", userIds: [2, 3] })).toBe(true);
    expect(isConversationView({ kind: "channel", channelId: 10 })).toBe(false);
    expect(isConversationView({ kind: "all-dms" })).toBe(false);
    expect(isConversationView({ kind: "feed" })).toBe(false);
  });
});

describe("where a view opens", () => {
  it("at the first unread message in the feed, channels, conversations, all DMs and mentions; starred at the newest", () => {
    const first: Narrow[] = [{ kind: "feed" }, { kind: "channel", channelId: 10 }, { kind: "topic", channelId: 10, topic: "t" }, { kind: "dm", userIds: [2] }, { kind: "all-dms" }, { kind: "mentioned" }];
    for (const n of first) expect(opensAtFirstUnread(n), narrowKey(n)).toBe(true);
    expect(opensAtFirstUnread({ kind: "starred" })).toBe(false);
  });

  it("a search opens at the newest match, unless it asks for a personal filter such as is:unread", () => {
    const search = (terms: Array<{ operator: string; operand: string; negated?: boolean }>): Narrow => ({ kind: "search", query: "q", terms });
    expect(opensAtFirstUnread({ kind: "search", query: "lunch" })).toBe(false);
    expect(opensAtFirstUnread(search([{ operator: "search", operand: "lunch" }]))).toBe(false);
    expect(opensAtFirstUnread(search([{ operator: "is", operand: "unread" }]))).toBe(true);
    expect(opensAtFirstUnread(search([{ operator: "is", operand: "mentioned" }, { operator: "search", operand: "x" }]))).toBe(true);
    expect(opensAtFirstUnread(search([{ operator: "is", operand: "starred" }]))).toBe(false);
    expect(opensAtFirstUnread(search([{ operator: "is", operand: "unread", negated: true }]))).toBe(false);
  });

  it("the combined feed asks the server for in:home, which leaves muted channels and topics out there too", () => {
    expect(narrowToApi({ kind: "feed" })).toEqual([{ operator: "in", operand: "home" }]);
  });
});

/** A store whose combined feed was fetched with every message below (as a server that ignored in:home would send them). */
function feedStore(messages: Message[], o: Record<string, unknown> = {}): Store {
  const s = eg.store({ subscriptions: [general, quiet], unread_msgs: eg.unreadMessages(messages), ...o });
  s.addFetched({ kind: "feed" }, messages, { foundOldest: true, foundNewest: true, direction: "around" });
  return s;
}
const inFeed = (s: Store) => narrowMessages(s, { kind: "feed" }).map((m) => m.id);

describe("the combined feed leaves out what is muted", () => {
  it("direct messages are always in it", () => {
    const dm = eg.dmMessage();
    expect(inFeed(feedStore([dm]))).toEqual([dm.id]);
  });

  it("a muted topic is left out, mentions in it too", () => {
    const lunch = eg.streamMessage({ stream: general, subject: "lunch" });
    const muted = eg.streamMessage({ stream: general, subject: "gossip" });
    const mention = eg.streamMessage({ stream: general, subject: "gossip", flags: ["mentioned"] });
    const s = feedStore([lunch, muted, mention], { user_topics: [policy(10, "Gossip", MUTED)] });
    expect(inFeed(s)).toEqual([lunch.id]);
  });

  it("a muted channel is left out", () => {
    const m = eg.streamMessage({ stream: quiet, subject: "anything" });
    expect(inFeed(feedStore([m]))).toEqual([]);
  });

  it("a followed topic of a muted channel is in it", () => {
    const m = eg.streamMessage({ stream: quiet, subject: "release" });
    expect(inFeed(feedStore([m], { user_topics: [policy(11, "release", FOLLOWED)] }))).toEqual([m.id]);
  });

  it("an unmuted topic of a muted channel is in it", () => {
    const m = eg.streamMessage({ stream: quiet, subject: "release" });
    expect(inFeed(feedStore([m], { user_topics: [policy(11, "release", UNMUTED)] }))).toEqual([m.id]);
  });

  it("a channel one is not subscribed to is left out", () => {
    const m = eg.streamMessage({ stream: gone, subject: "old" });
    expect(inFeed(feedStore([m]))).toEqual([]);
  });

  it("muting after the feed was loaded takes the topic's messages out; unmuting brings them back with the next load", () => {
    const m = eg.streamMessage({ stream: general, subject: "lunch" });
    const s = feedStore([m]);
    eg.apply(s, { type: "user_topic", ...policy(10, "lunch", MUTED) });
    expect(inFeed(s)).toEqual([]);
    eg.apply(s, { type: "user_topic", ...policy(10, "lunch", 0) });
    expect(s.messages.list({ kind: "feed" })?.stale).toBe(true);
  });

  it("a new message in a muted topic does not join the feed", () => {
    const s = feedStore([], { user_topics: [policy(10, "gossip", MUTED)] });
    const m = eg.streamMessage({ stream: general, subject: "gossip" });
    eg.apply(s, eg.messageEvent(m));
    expect(inFeed(s)).toEqual([]);
  });
});

describe("a channel's view leaves out its muted topics", () => {
  const channel: Narrow = { kind: "channel", channelId: 11 };
  const inChannel = (s: Store) => narrowMessages(s, channel).map((m) => m.id);

  it("but for messages that mention the reader", () => {
    const plain = eg.streamMessage({ stream: quiet, subject: "gossip" });
    const mention = eg.streamMessage({ stream: quiet, subject: "gossip", flags: ["mentioned"] });
    const other = eg.streamMessage({ stream: quiet, subject: "release" });
    const s = eg.store({ subscriptions: [general, quiet], user_topics: [policy(11, "gossip", MUTED)] });
    s.addFetched(channel, [plain, mention, other], { foundOldest: true, foundNewest: true, direction: "around" });
    // The channel is muted, yet its own view shows its topics: only the muted topic goes.
    expect(inChannel(s)).toEqual([mention.id, other.id]);
  });

  it("while the muted topic's own view shows all of it", () => {
    const plain = eg.streamMessage({ stream: quiet, subject: "gossip" });
    const s = eg.store({ subscriptions: [general, quiet], user_topics: [policy(11, "gossip", MUTED)] });
    const topic: Narrow = { kind: "topic", channelId: 11, topic: "gossip" };
    s.addFetched(topic, [plain], { foundOldest: true, foundNewest: true, direction: "around" });
    expect(narrowMessages(s, topic).map((m) => m.id)).toEqual([plain.id]);
  });
});

describe("the feed, the Inbox, the counts and n/p agree on what is unread", () => {
  it("in an organization with every kind of muting", () => {
    const messages = [
      eg.streamMessage({ stream: general, subject: "lunch" }),
      eg.streamMessage({ stream: general, subject: "gossip" }), // muted topic
      eg.streamMessage({ stream: quiet, subject: "noise" }), // muted channel
      eg.streamMessage({ stream: quiet, subject: "release" }), // followed in a muted channel
      eg.streamMessage({ stream: quiet, subject: "launch" }), // unmuted in a muted channel
      eg.dmMessage(),
      eg.dmMessage({ from: eg.thirdUser }),
    ];
    const s = feedStore(messages, { user_topics: [policy(10, "gossip", MUTED), policy(11, "release", FOLLOWED), policy(11, "launch", UNMUTED)] });
    const feedUnread = inFeed(s).filter((id) => s.unreads.has(id));
    expect(feedUnread.length).toBe(5);

    const box = inbox(s);
    const inboxTopics = box.channels.flatMap((c) => c.topics.map((t) => `${c.channelId}:${t.topic}`)).sort();
    expect(box.total).toBe(feedUnread.length);
    expect(VIEW_COUNTS.feed(s).unread).toBe(feedUnread.length);
    expect(VIEW_COUNTS.inbox(s).unread).toBe(feedUnread.length);

    // n visits every unread topic the feed shows, and no other; p every unread DM conversation.
    const visited = new Set<string>();
    let at: Narrow | undefined;
    for (let i = 0; i < 10; i++) {
      const next = nextUnreadTopic(s, at);
      if (!next || visited.has(`${next.channelId}:${next.topic}`)) break;
      visited.add(`${next.channelId}:${next.topic}`);
      at = next;
    }
    const feedTopics = new Set(messages.filter((m) => m.type === "stream" && inFeed(s).includes(m.id)).map((m) => `${m.stream_id}:${m.subject}`));
    expect([...visited].sort()).toEqual([...feedTopics].sort());
    expect(inboxTopics).toEqual([...feedTopics].sort());
    const dms = new Set<string>();
    let dmAt: Narrow | undefined;
    for (let i = 0; i < 10; i++) {
      const next = nextUnreadDm(s, dmAt);
      if (!next || dms.has(next.userIds.join(","))) break;
      dms.add(next.userIds.join(","));
      dmAt = next;
    }
    expect(dms.size).toBe(box.dms.length);
    expect(box.dms.reduce((n, d) => n + d.unread, 0)).toBe(2);
  });
});
