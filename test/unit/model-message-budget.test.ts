import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEEP_ABOVE_READER, messageBytes } from "../../src/model/message-budget.js";
import type { Narrow } from "../../src/model/narrow.js";
import { wantsOlder } from "../../src/sync/upkeep/pane-upkeep.js";
import { narrowMessages } from "../../src/model/selectors.js";
import type { Message } from "../../src/api/schemas/common.js";
import * as eg from "../fixtures/example.js";

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

const channels = [10, 11, 12, 13].map((id) => eg.subscription({ stream_id: id, name: `c${id}` }));
const done = { foundOldest: true, foundNewest: true, direction: "around" as const };
const narrowOf = (i: number): Narrow => ({ kind: "channel", channelId: channels[i]!.stream_id });
const batch = (i: number, n: number, size = 1000): Message[] =>
  Array.from({ length: n }, () => eg.streamMessage({ stream: channels[i], content: "x".repeat(size) }));

function storeWithBudget(bytes: number) {
  const s = eg.store({ subscriptions: channels });
  s.messageBudget.setBudget(bytes);
  return s;
}

describe("the message budget", () => {
  it("drops the lists left longest ago, never the one on screen, and forgets their messages", () => {
    const one = messageBytes(batch(0, 1)[0]!);
    const s = storeWithBudget(one * 25);
    const shown: Message[][] = [];
    for (let i = 0; i < 4; i++) {
      s.showNarrow(narrowOf(i));
      shown.push(batch(i, 10));
      s.addFetched(narrowOf(i), shown[i]!, done);
    }
    // 40 messages for room for 25 (trimmed to three quarters): the two narrows left first went.
    expect(s.messages.list(narrowOf(0))).toBeUndefined();
    expect(s.messages.list(narrowOf(1))).toBeUndefined();
    expect(narrowMessages(s, narrowOf(2)).map((m) => m.id)).toEqual(shown[2]!.map((m) => m.id));
    expect(narrowMessages(s, narrowOf(3)).map((m) => m.id)).toEqual(shown[3]!.map((m) => m.id));
    for (const m of [...shown[0]!, ...shown[1]!]) expect(s.messages.byId.has(m.id)).toBe(false);
    expect(s.messages.byId.size).toBe(20);
  });

  it("weighs messages by their size, not their number", () => {
    const s = storeWithBudget(200_000);
    s.showNarrow(narrowOf(0));
    s.addFetched(narrowOf(0), batch(0, 50, 100), done); // small ones: ~55 kB
    s.showNarrow(narrowOf(1));
    s.addFetched(narrowOf(1), batch(1, 5, 20_000), done); // five long ones: ~200 kB
    expect(s.messages.list(narrowOf(0))).toBeUndefined();
    expect(s.messages.list(narrowOf(1))?.ids).toHaveLength(5);
  });

  it("keeps the list on screen even when it alone is over the budget, and live messages no list holds do not pile up", () => {
    const s = storeWithBudget(50_000);
    s.showNarrow(narrowOf(0));
    const open = batch(0, 40, 2000);
    s.addFetched(narrowOf(0), open, done);
    for (const m of batch(1, 200, 500)) s.insertLive(m); // a channel no list is loaded for
    expect(s.messages.list(narrowOf(0))?.ids).toHaveLength(40);
    expect(s.messages.byId.size).toBeLessThan(40 + 200);
    for (const m of open) expect(s.messages.byId.has(m.id)).toBe(true);
  });

  it("a starred message forgotten by the budget stays starred", () => {
    const s = storeWithBudget(20_000);
    s.showNarrow(narrowOf(0));
    const [star] = batch(0, 1);
    star!.flags = ["starred", "read"];
    s.addFetched(narrowOf(0), [star!], done);
    s.showNarrow(narrowOf(1));
    s.addFetched(narrowOf(1), batch(1, 30), done);
    expect(s.messages.byId.has(star!.id)).toBe(false);
    expect(s.messages.starred.has(star!.id)).toBe(true);
  });
});

describe("the message budget and a list filled before any narrow is shown", () => {
  it("keeps the list just fetched into, however large", () => {
    const s = storeWithBudget(10_000);
    const big = batch(0, 100);
    s.addFetched(narrowOf(0), big, done);
    expect(narrowMessages(s, narrowOf(0)).map((m) => m.id)).toEqual(big.map((m) => m.id));
  });
});

describe("the message budget and the list on screen, with the reader's place known", () => {
  /** 600 messages on screen, with room for 100. */
  const sixHundredOnScreen = () => {
    const s = storeWithBudget(messageBytes(batch(0, 1)[0]!) * 100);
    s.showNarrow(narrowOf(0));
    const open = batch(0, 600);
    s.addFetched(narrowOf(0), open, done);
    return { s, open };
  };

  it("cuts the list's older end down to a margin above the reader, and the list is then fetched further back", () => {
    const { s, open } = sixHundredOnScreen();
    // Reading near the newest: the 550th message is the first wholly on screen.
    const reader = open[550]!.id;
    s.messages.noteReader(narrowOf(0), reader);
    // Over the budget (checked again once a quarter more has come): the older end goes.
    const live = batch(0, 200);
    for (const m of live) s.insertLive(m);
    const ids = s.messages.list(narrowOf(0))!.ids;
    expect(ids[0]).toBe(open[550 - KEEP_ABOVE_READER]!.id);
    expect(ids).toContain(reader);
    expect(ids.at(-1)).toBe(live.at(-1)!.id);
    // The reader at its first message now asks for the older ones again.
    const list = s.messages.list(narrowOf(0))!;
    expect(wantsOlder({ focus: "messages", narrow: narrowOf(0), selectedIndex: 0, list })).toBe(true);
    expect(s.messages.byId.has(open[0]!.id)).toBe(false);
    expect(s.messages.byId.size).toBe(ids.length);
  });

  it("keeps the whole list while the reader is near its top, or the place is another narrow's", () => {
    const { s, open } = sixHundredOnScreen();
    s.messages.noteReader(narrowOf(1), open[550]!.id);
    for (const m of batch(0, 200)) s.insertLive(m);
    expect(s.messages.list(narrowOf(0))!.ids).toHaveLength(800);
    s.messages.noteReader(narrowOf(0), open[KEEP_ABOVE_READER - 1]!.id);
    for (const m of batch(0, 300)) s.insertLive(m);
    expect(s.messages.list(narrowOf(0))!.ids).toHaveLength(1100);
    expect(s.messages.list(narrowOf(0))!.foundOldest).toBe(true);
  });
});
