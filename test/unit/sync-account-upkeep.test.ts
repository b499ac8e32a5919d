/**
 * The account runtime's upkeep as plain objects, without React: the view
 * upkeep (what the screen shows is loaded and marked read, each piece again
 * only when what it depends on changed), typing notices expiring with the
 * store, notifications at most one a second, and notices kept for a screen
 * that was not listening yet.
 */
import { describe, expect, it } from "vitest";
import type { Narrow } from "../../src/model/narrow.js";
import type { Store } from "../../src/model/store.js";
import { ChangeFeed } from "../../src/sync/account-changes.js";
import { Notifier } from "../../src/sync/upkeep/notifier.js";
import type { Note } from "../../src/sync/upkeep/notifications.js";
import { TypingExpiry } from "../../src/sync/upkeep/typing-expiry.js";
import { ViewUpkeep } from "../../src/sync/upkeep/view-upkeep.js";
import { FakeClock } from "../fixtures/fake-clock.js";
import * as eg from "../fixtures/example.js";

const general = eg.subscription({ stream_id: 10, name: "general" });
const lunch: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };

/** A view upkeep over `store` whose commands record what they are asked. */
function upkeepOn(first: Store, o: { live?: boolean } = {}) {
  const asked: string[] = [];
  let store = first;
  const record = (name: string) => async (arg?: unknown) => void asked.push(arg === undefined ? name : `${name} ${JSON.stringify(arg)}`);
  const commands = {
    loadNarrow: record("load"),
    fetchTopics: record("topics"),
    fetchTopicsOf: record("topicsOf"),
    checkNarrowMatches: async () => undefined,
    fetchOlder: record("older"),
    fetchNewer: record("newer"),
    markRead: (ids: number[]) => void asked.push(`read ${ids.join(",")}`),
  };
  const views: Array<Narrow | undefined> = [];
  const upkeep = new ViewUpkeep({ store: () => store, live: () => o.live ?? true, commands, noteView: (n) => views.push(n) });
  return {
    upkeep,
    asked,
    views,
    replace(next: Store) {
      store = next;
      upkeep.storeReplaced();
    },
  };
}

function lunchMessages(n: number, read: (i: number) => boolean = () => false) {
  return Array.from({ length: n }, (_, i) => eg.streamMessage({ stream: general, subject: "lunch", flags: read(i) ? ["read"] : [] }));
}

function storeWith(messages: ReturnType<typeof lunchMessages>, o: { foundOldest?: boolean; settings?: Record<string, unknown> } = {}) {
  const unread = messages.filter((m) => !m.flags.includes("read"));
  const s = eg.store({ subscriptions: [general], unread_msgs: eg.unreadMessages(unread), user_settings: { ...o.settings } });
  s.addFetched(lunch, messages, { foundOldest: o.foundOldest ?? true, foundNewest: true, direction: "around" });
  return s;
}

describe("the view upkeep", () => {
  it("loads the open narrow once per view and store, not on every change of the store", () => {
    eg.resetIds();
    const s = eg.store({ subscriptions: [general] });
    const u = upkeepOn(s);
    u.upkeep.set({ narrow: lunch, focus: "messages" });
    expect(u.asked).toEqual([`load ${JSON.stringify(lunch)}`]);
    u.upkeep.set({ narrow: { ...lunch }, selectedIndex: 3 });
    eg.apply(s, { type: "typing", op: "start", message_type: "stream", sender: { user_id: 2 }, stream_id: 10, topic: "lunch" });
    u.upkeep.run();
    expect(u.asked.filter((a) => a.startsWith("load"))).toHaveLength(1);
    // A rebuild's store: the narrow is loaded into it.
    u.replace(eg.store({ subscriptions: [general] }));
    expect(u.asked.filter((a) => a.startsWith("load"))).toHaveLength(2);
    // The cache hears of the open view once per view.
    expect(u.views).toEqual([lunch]);
  });

  it("fetches the expanded channel's topics, and every channel's while the sidebar filter is open", () => {
    eg.resetIds();
    const design = eg.subscription({ stream_id: 11, name: "design" });
    const u = upkeepOn(eg.store({ subscriptions: [general, design] }));
    u.upkeep.set({ expandedChannel: 11 });
    expect(u.asked).toEqual(["topics 11"]);
    u.upkeep.set({ filtering: true });
    expect(u.asked.at(-1)).toMatch(/^topicsOf \[(10,11|11,10)\]$/);
  });

  it("asks for older messages at the top of a narrow whose oldest is not loaded", () => {
    eg.resetIds();
    const s = storeWith(lunchMessages(5), { foundOldest: false });
    const u = upkeepOn(s);
    u.upkeep.set({ narrow: lunch, focus: "messages", selectedIndex: 2, count: 5 });
    expect(u.asked.some((a) => a.startsWith("older"))).toBe(false);
    u.upkeep.set({ selectedIndex: 0 });
    expect(u.asked.filter((a) => a.startsWith("older"))).toHaveLength(1);
  });

  it("marks what is shown whole and unread, once per visit; never under a popup, from the sidebar, from the cache, or on its way", () => {
    eg.resetIds();
    const messages = lunchMessages(4, (i) => i === 0);
    const ids = messages.map((m) => m.id);
    const reads = (u: ReturnType<typeof upkeepOn>) => u.asked.filter((a) => a.startsWith("read"));

    const covered = upkeepOn(storeWith(messages));
    covered.upkeep.set({ narrow: lunch, focus: "messages", shown: ids, settled: true, covered: true });
    covered.upkeep.set({ focus: "sidebar", covered: false });
    covered.upkeep.set({ focus: "messages", settled: false });
    expect(reads(covered)).toEqual([]);
    covered.upkeep.set({ settled: true });
    expect(reads(covered)).toEqual([`read ${ids.slice(1).join(",")}`]);
    covered.upkeep.set({ shown: [...ids] });
    expect(reads(covered)).toHaveLength(1);

    const cached = upkeepOn(storeWith(messages), { live: false });
    cached.upkeep.set({ narrow: lunch, focus: "messages", shown: ids, settled: true });
    expect(reads(cached)).toEqual([]);

    const never = upkeepOn(storeWith(messages, { settings: { web_mark_read_on_scroll_policy: 3 } }));
    never.upkeep.set({ narrow: lunch, focus: "messages", shown: ids, settled: true });
    expect(reads(never)).toEqual([]);
  });

  it("after a new store, what the old screen showed counts as seen no more, until the screen says again", () => {
    eg.resetIds();
    const messages = lunchMessages(3);
    const u = upkeepOn(eg.store({ subscriptions: [general] }));
    u.upkeep.set({ narrow: lunch, focus: "messages", shown: messages.map((m) => m.id), settled: true });
    u.replace(storeWith(messages));
    expect(u.asked.filter((a) => a.startsWith("read"))).toEqual([]);
    expect(u.upkeep.current.shown).toEqual([]);
    u.upkeep.set({ shown: messages.map((m) => m.id), settled: true });
    expect(u.asked.filter((a) => a.startsWith("read"))).toEqual([`read ${messages.map((m) => m.id).join(",")}`]);
  });
});

describe("typing expiry with the store", () => {
  it("one timer for the first notice to expire, set again as the store changes", async () => {
    const clock = new FakeClock();
    const s = eg.store({}, { now: () => clock.now() });
    const expiry = new TypingExpiry(clock);
    s.subscribe(() => expiry.update(s));
    const typing = (user: number, topic: string) =>
      eg.apply(s, { type: "typing", op: "start", message_type: "stream", sender: { user_id: user }, stream_id: 10, topic });
    typing(2, "lunch");
    await clock.advance(10_000);
    typing(3, "plans");
    expect(clock.pending).toBe(1);
    await clock.advance(6_000);
    expect(s.typistsIn({ channelId: 10, topic: "lunch" })).toEqual([]);
    expect(s.typistsIn({ channelId: 10, topic: "plans" })).toEqual([3]);
    await clock.advance(10_000);
    expect(s.typistsIn({ channelId: 10, topic: "plans" })).toEqual([]);
    expect(clock.pending).toBe(0);
    expiry.cancel();
  });
});

describe("notifications over time", () => {
  it("the first at once, the rest of a burst as one a second later; only messages still unread", async () => {
    eg.resetIds();
    const clock = new FakeClock();
    const rung: Note[] = [];
    const notifier = new Notifier(clock, (n) => rung.push(n), 1000);
    const s = eg.store({ subscriptions: [general] });
    const dm = (text: string) => eg.dmMessage({ from: eg.otherUser, to: [eg.selfUser], content: text, flags: [] });
    const deliver = (m: ReturnType<typeof dm>, flags: string[] = []) => {
      const e = eg.messageEvent(m, flags);
      eg.apply(s, e);
      notifier.events([e as never], s);
    };
    deliver(dm("first"));
    expect(rung.map((n) => n.body)).toEqual(["first"]);
    deliver(dm("second"));
    deliver(dm("third"));
    deliver(dm("read elsewhere"), ["read"]);
    expect(rung).toHaveLength(1);
    await clock.advance(1000);
    expect(rung).toHaveLength(2);
    expect(rung[1]!.title).toMatch(/^2 new messages — /);
    expect(rung[1]!.body).toBe("third");
    notifier.dispose();
  });
});

describe("the change feed", () => {
  it("keeps the notices told while nobody listened for the first screen, once; the rest go to listeners", () => {
    const feed = new ChangeFeed();
    feed.emit({ kind: "notice", notice: { text: "A kept edit was saved.", kind: "info" } });
    feed.emit({ kind: "outbox" });
    const heard: string[] = [];
    const off = feed.subscribe((c) => heard.push(c.kind));
    feed.emit({ kind: "notice", notice: { text: "heard", kind: "info" } });
    expect(heard).toEqual(["notice"]);
    expect(feed.takeUnheard()).toEqual([{ text: "A kept edit was saved.", kind: "info" }]);
    expect(feed.takeUnheard()).toEqual([]);
    off();
    expect(feed.listening).toBe(0);
  });
});
