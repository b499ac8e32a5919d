/**
 * What the screen asks of the sync layer while it is up, without React: typing
 * notices expiring on fake time, register records checked a batch per turn,
 * which shown messages count as read (per view and setting), and when older
 * or newer ones are fetched.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkRecordsInTurns, type NextTurn } from "../../src/sync/upkeep/record-checks.js";
import type { Narrow } from "../../src/model/narrow.js";
import type { MarkReadPolicy } from "../../src/model/read-policy.js";
import { idsToMarkRead, ReadMarks, wantsNewer, wantsOlder, type PaneReading } from "../../src/sync/upkeep/pane-upkeep.js";
import { scheduleTypingExpiry } from "../../src/sync/upkeep/typing-expiry.js";
import { FakeClock } from "../fixtures/fake-clock.js";
import * as eg from "../fixtures/example.js";

const topic = { type: "typing", message_type: "stream", sender: { user_id: 2 }, stream_id: 10, topic: "lunch" };

describe("typing expiry", () => {
  it("drops a typist's notice when it expires, and not before", async () => {
    const clock = new FakeClock();
    const s = eg.store({}, { now: () => clock.now() });
    eg.apply(s, { ...topic, op: "start" });
    expect(s.typistsIn({ channelId: 10, topic: "lunch" })).toEqual([2]);
    const timer = scheduleTypingExpiry(s, clock);
    expect(timer).toBeDefined();
    await clock.advance(14_000);
    expect(s.typistsIn({ channelId: 10, topic: "lunch" })).toEqual([2]);
    await clock.advance(2_000);
    expect(s.typistsIn({ channelId: 10, topic: "lunch" })).toEqual([]);
  });

  it("sets no timer when nobody is typing, and a cancelled one drops nothing", async () => {
    const clock = new FakeClock();
    const s = eg.store({}, { now: () => clock.now() });
    expect(scheduleTypingExpiry(s, clock)).toBeUndefined();
    eg.apply(s, { ...topic, op: "start" });
    scheduleTypingExpiry(s, clock)?.cancel();
    await clock.advance(60_000);
    expect(s.typistsIn({ channelId: 10, topic: "lunch" })).toEqual([2]);
  });
});

/** Turns run by hand: the test decides when the next one comes. */
function handTurns() {
  const queue: Array<() => void> = [];
  const nextTurn: NextTurn = (fn) => {
    queue.push(fn);
    return () => queue.splice(queue.indexOf(fn), 1);
  };
  return { nextTurn, queue, run: () => queue.shift()?.() };
}

describe("record checks", () => {
  const many = () => Array.from({ length: 25 }, (_, i) => eg.user({ user_id: 2000 + i, full_name: `Person ${i}` }));

  it("checks a batch per turn and, at the end, reports the malformed records in one line", () => {
    const s = eg.store({ realm_users: [eg.selfUser, ...many(), { ...eg.otherUser, email: 5 }] });
    const turns = handTurns();
    const reported: string[] = [];
    checkRecordsInTurns(s, { batch: 10, nextTurn: turns.nextTurn, onMalformed: (t) => reported.push(t) });
    let rounds = 0;
    while (turns.queue.length && rounds < 20) {
      turns.run();
      rounds++;
    }
    expect(rounds).toBeGreaterThan(2); // 27 records, 10 a turn
    expect(rounds).toBeLessThan(20);
    expect(reported).toEqual([expect.stringMatching(/^Left out 1 malformed user \(user 2: email: /)]);
  });

  it("reports nothing when all are well, and stops when told to", () => {
    const clean = eg.store({ realm_users: [eg.selfUser, ...many()] });
    const turns = handTurns();
    const reported: string[] = [];
    checkRecordsInTurns(clean, { batch: 100, nextTurn: turns.nextTurn, onMalformed: (t) => reported.push(t) });
    turns.run();
    turns.run();
    expect(turns.queue).toEqual([]);
    expect(reported).toEqual([]);

    const broken = eg.store({ realm_users: [eg.selfUser, { ...eg.otherUser, email: 5 }] });
    const stop = checkRecordsInTurns(broken, { batch: 100, nextTurn: turns.nextTurn, onMalformed: (t) => reported.push(t) });
    stop();
    expect(turns.queue).toEqual([]);
    expect(reported).toEqual([]);
  });
});

describe("record checks after a grace", () => {
  afterEach(() => vi.useRealTimers());

  it("take their first turn only once the grace is over, and a stop during it cancels them", () => {
    vi.useFakeTimers();
    const broken = () => eg.store({ realm_users: [eg.selfUser, { ...eg.otherUser, email: 5 }] });
    const turns = handTurns();
    const reported: string[] = [];
    checkRecordsInTurns(broken(), { batch: 100, nextTurn: turns.nextTurn, startAfterMs: 250, onMalformed: (t) => reported.push(t) });
    vi.advanceTimersByTime(249);
    expect(turns.queue).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(turns.queue).toHaveLength(1);
    turns.run();
    turns.run();
    expect(reported).toEqual([expect.stringMatching(/^Left out 1 malformed user/)]);

    const stop = checkRecordsInTurns(broken(), { batch: 100, nextTurn: turns.nextTurn, startAfterMs: 250, onMalformed: (t) => reported.push(t) });
    stop();
    vi.advanceTimersByTime(10_000);
    expect(turns.queue).toEqual([]);
    expect(reported).toHaveLength(1);
  });
});

describe("read marking and older messages", () => {
  const topicNarrow = { kind: "topic" as const, channelId: 10, topic: "lunch" };
  const reading = (o: Partial<PaneReading> = {}): PaneReading => ({
    focus: "messages",
    narrow: topicNarrow,
    shown: [5001, 5002, 5003],
    isUnread: (id) => id !== 5003,
    policy: "always",
    covered: false,
    live: true,
    settled: true,
    ...o,
  });

  it("marks the unread messages on screen, only with the reader in the pane and the pane in sight", () => {
    expect(idsToMarkRead(reading())).toEqual([5001, 5002]);
    expect(idsToMarkRead(reading({ focus: "compose" }))).toEqual([5001, 5002]);
    expect(idsToMarkRead(reading({ focus: "sidebar" }))).toEqual([]);
    expect(idsToMarkRead(reading({ narrow: undefined }))).toEqual([]);
    expect(idsToMarkRead(reading({ covered: true }))).toEqual([]);
  });

  it("marks nothing from the local cache's copy, nor while the view is on its way to the newest message", () => {
    expect(idsToMarkRead(reading({ live: false }))).toEqual([]);
    expect(idsToMarkRead(reading({ settled: false }))).toEqual([]);
  });

  it("follows the user's setting in each view; search results, mentions and starred messages are never marked", () => {
    const views: Narrow[] = [
      { kind: "feed" },
      { kind: "channel", channelId: 10 },
      topicNarrow,
      { kind: "dm", userIds: [2] },
      { kind: "all-dms" },
      { kind: "mentioned" },
      { kind: "starred" },
      { kind: "search", query: "lunch" },
    ];
    const marking = (policy: MarkReadPolicy) => views.filter((narrow) => idsToMarkRead(reading({ narrow, policy })).length > 0).map((n) => n.kind);
    expect(marking("always")).toEqual(["feed", "channel", "topic", "dm", "all-dms"]);
    expect(marking("conversations")).toEqual(["topic", "dm"]);
    expect(marking("never")).toEqual([]);
  });

  it("marks each message once per visit of a view: state that says it is unread again does not mark it again", () => {
    const marks = new ReadMarks();
    expect(marks.take("topic:10:lunch", [5001, 5002])).toEqual([5001, 5002]);
    // A rebuild brings a store in which 5002 is unread again, still on screen; a new message came in too.
    expect(marks.take("topic:10:lunch", [5002, 5004])).toEqual([5004]);
    // Another view, then back: a new visit.
    expect(marks.take("feed", [5002])).toEqual([5002]);
    expect(marks.take("topic:10:lunch", [5002])).toEqual([5002]);
  });

  it("asks for older messages at the top of the pane until the oldest is loaded", () => {
    const at = (selectedIndex: number, foundOldest: boolean, focus: "messages" | "sidebar" = "messages") =>
      wantsOlder({ focus, narrow: topicNarrow, selectedIndex, list: { foundOldest } });
    expect(at(0, false)).toBe(true);
    expect(at(-1, false)).toBe(true);
    expect(at(3, false)).toBe(false);
    expect(at(0, true)).toBe(false);
    expect(at(0, false, "sidebar")).toBe(false);
    expect(wantsOlder({ focus: "messages", narrow: topicNarrow, selectedIndex: 0, list: undefined })).toBe(false);
  });

  it("asks for newer messages at the last loaded one until the newest is loaded", () => {
    const at = (selectedIndex: number, foundNewest: boolean, focus: "messages" | "sidebar" | "compose" = "messages") =>
      wantsNewer({ focus, narrow: topicNarrow, selectedIndex, count: 10, list: { foundNewest } });
    expect(at(9, false)).toBe(true);
    expect(at(9, false, "compose")).toBe(true);
    expect(at(8, false)).toBe(false);
    expect(at(9, true)).toBe(false);
    expect(at(9, false, "sidebar")).toBe(false);
    expect(wantsNewer({ focus: "messages", narrow: topicNarrow, selectedIndex: -1, count: 0, list: { foundNewest: false } })).toBe(false);
  });
});
