/**
 * What the screen asks of the sync layer while it is up, without React: typing
 * notices expiring on fake time, register records checked a batch per turn,
 * which shown messages count as read, and when older ones are fetched.
 */
import { describe, expect, it } from "vitest";
import { checkRecordsInTurns, type NextTurn } from "../../src/sync/screen/record-checks.js";
import { idsToMarkRead, wantsOlder } from "../../src/sync/screen/pane-upkeep.js";
import { scheduleTypingExpiry } from "../../src/sync/screen/typing-expiry.js";
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

describe("read marking and older messages", () => {
  const topicNarrow = { kind: "topic" as const, channelId: 10, topic: "lunch" };

  it("marks what is shown read only with the reader in the pane, never in search results", () => {
    const shownUnread = new Set([5001, 5002]);
    expect(idsToMarkRead({ focus: "messages", narrow: topicNarrow, shownUnread })).toEqual([5001, 5002]);
    expect(idsToMarkRead({ focus: "compose", narrow: topicNarrow, shownUnread })).toEqual([5001, 5002]);
    expect(idsToMarkRead({ focus: "sidebar", narrow: topicNarrow, shownUnread })).toEqual([]);
    expect(idsToMarkRead({ focus: "messages", narrow: { kind: "search", query: "lunch" }, shownUnread })).toEqual([]);
    expect(idsToMarkRead({ focus: "messages", narrow: undefined, shownUnread })).toEqual([]);
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
});
