/**
 * The pane's laid-out blocks kept from frame to frame (block-memo.ts): the same objects while
 * nothing they show changed, so the memoised rows are left alone; laid out again when the store
 * changed, a message was replaced, or the day moved on ("Today" is yesterday's date by then).
 * And the selected message is found in a big list without a scan of it.
 */
import { beforeAll, beforeEach, expect, it } from "vitest";
import { loadMarkdown } from "../../src/render/markdown.js";
import { BlockMemo } from "../../src/ui/block-memo.js";
import { indexOfId } from "../../src/ui/hooks/use-message-window.js";
import { layoutMessage, renderContext, type Block, type LayoutOptions } from "../../src/ui/message-layout.js";
import { layoutStickyWindow, type WindowTop } from "../../src/ui/sticky-window.js";
import * as eg from "../fixtures/example.js";

const T = 1_763_600_000;

beforeAll(async () => {
  await loadMarkdown();
});
beforeEach(() => {
  eg.resetIds();
});

function setUp() {
  const store = eg.store();
  const messages = Array.from({ length: 6 }, (_, i) => eg.streamMessage({ content: `message ${i}`, sender_id: 3, sender_full_name: "Third Person", timestamp: T + i * 3600 }));
  store.addFetched({ kind: "channel", channelId: messages[0]!.stream_id! }, messages, { foundOldest: true, foundNewest: true, direction: "around" });
  const ctx = renderContext(store, false, "UTC", false);
  const memo = new BlockMemo();
  // As the pane draws frame after frame: from the window the frame before showed.
  let top: WindowTop | undefined;
  const lay = (o: LayoutOptions, selected = 5) => {
    memo.use(store, o, ctx, "scope");
    const w = layoutStickyWindow(store, messages, selected, 20, o, ctx, top, memo);
    top = w.top;
    return w.blocks;
  };
  return { store, messages, lay };
}

const options = (now = T + 6 * 3600): LayoutOptions => ({ width: 60, showRecipients: true, color: false, timeZone: "UTC", now });

it("gives the same blocks again while nothing they are drawn from changed, the selection aside", () => {
  const { lay } = setUp();
  lay(options());
  const first = lay(options());
  const again = lay(options(), 3);
  expect(again.length).toBe(first.length);
  again.forEach((b, i) => expect(b).toBe(first[i]));
});

it("lays out again what a store change touched: a reaction shows", () => {
  const { store, messages, lay } = setUp();
  lay(options());
  const before = lay(options());
  eg.apply(store, { type: "reaction", op: "add", message_id: messages[5]!.id, user_id: 3, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" });
  const after = lay(options());
  expect(after.at(-1)).not.toBe(before.at(-1));
  expect(after.at(-1)!.lines.map((l) => l.text).join("\n")).toContain("🎉 1");
});

it("lays out again a message replaced by a new copy of it", () => {
  const { messages, lay } = setUp();
  lay(options());
  const before = lay(options());
  messages[5] = { ...messages[5]!, content: "message 5, corrected" };
  const after = lay(options());
  expect(after.at(-1)!.lines.map((l) => l.text).join("\n")).toContain("message 5, corrected");
  expect(after[0]).toBe(before[0]);
});

it("lays out again when the day moves on: a day separator no longer says Today", () => {
  const { lay } = setUp();
  lay(options(T + 3600));
  const today = lay(options(T + 3600));
  expect(today[0]!.lines[0]!.text).toBe("Today");
  const tomorrow = lay(options(T + 3600 + 86_400));
  expect(tomorrow[0]!.lines[0]!.text).toBe("Yesterday");
});

it("takes the blocks laid out ahead of the reader as they are when the page turns, and not once the store changed", () => {
  const store = eg.store();
  const messages = Array.from({ length: 60 }, (_, i) => eg.streamMessage({ content: `message ${i}`, sender_id: 3, sender_full_name: "Third Person", timestamp: T + i * 3600 }));
  store.addFetched({ kind: "channel", channelId: messages[0]!.stream_id! }, messages, { foundOldest: true, foundNewest: true, direction: "around" });
  const ctx = renderContext(store, false, "UTC", false);
  const o = options(T + 60 * 3600);
  const memo = new BlockMemo();
  memo.use(store, o, ctx, "scope");
  const window = layoutStickyWindow(store, messages, 59, 10, o, ctx, undefined, memo);
  // Between frames: the page above is laid out and offered, as lay-ahead.ts does.
  const ahead = new Map<number, Block>();
  for (let i = 40; i < 59; i++) {
    const block = layoutMessage(store, messages[i]!, messages[i - 1], o, ctx);
    ahead.set(messages[i]!.id, block);
    memo.offer(store, o, ctx, "scope", messages[i]!, messages[i - 1], block);
  }
  // The page turns up: the blocks shown are the ones offered.
  memo.use(store, o, ctx, "scope");
  const turned = layoutStickyWindow(store, messages, 45, 10, o, ctx, window.top, memo);
  expect(turned.blocks.map((b) => b.id)).not.toContain(messages[59]!.id);
  for (const b of turned.blocks) expect(b).toBe(ahead.get(b.id));

  // Offered after the store changed (a reaction came in): not taken, the frame lays out anew.
  eg.apply(store, { type: "reaction", op: "add", message_id: messages[20]!.id, user_id: 3, emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" });
  const stale = layoutMessage(store, messages[20]!, messages[19], o, ctx);
  memo.offer(store, o, ctx, "scope", messages[20]!, messages[19], stale);
  memo.use(store, o, ctx, "scope");
  expect(memo.get(messages[20]!, messages[19])).toBeUndefined();
  // Offered under other inputs (another narrow's scope): not taken either.
  memo.offer(store, o, ctx, "other", messages[20]!, messages[19], stale);
  expect(memo.get(messages[20]!, messages[19])).toBeUndefined();
  // Offered under the frame's own: taken, but only after the same message.
  memo.offer(store, o, ctx, "scope", messages[20]!, messages[19], stale);
  expect(memo.get(messages[20]!, messages[18])).toBeUndefined();
  expect(memo.get(messages[20]!, messages[19])).toBe(stale);
});

it("finds the selected message in a narrow's messages by halving, and by a scan when they are out of order", () => {
  const { messages } = setUp();
  messages.forEach((m, i) => expect(indexOfId(messages, m.id)).toBe(i));
  expect(indexOfId(messages, messages.at(-1)!.id + 1)).toBe(-1);
  const shuffled = [messages[3]!, messages[0]!, messages[5]!, messages[1]!];
  shuffled.forEach((m, i) => expect(indexOfId(shuffled, m.id)).toBe(i));
});
