import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadMarkdown } from "../../src/render/markdown.js";
import { aheadOrder, layAhead } from "../../src/ui/lay-ahead.js";
import { LayoutCache } from "../../src/ui/layout-cache.js";
import { layoutMessage, renderContext, type LayoutOptions } from "../../src/ui/message-layout.js";
import * as eg from "../fixtures/example.js";

const T = 1_763_600_000;

beforeAll(async () => {
  await loadMarkdown();
});
beforeEach(() => eg.resetIds());

describe("the order messages are laid out ahead in", () => {
  it("alternates above and below, nearest first, each side up to the lines asked for", () => {
    // Every message two lines: three above (8 lines asked: 4 messages, only 3 there) and four below.
    expect([...aheadOrder(20, 2, 10, 8, () => 2)]).toEqual([2, 10, 1, 11, 0, 12, 13]);
  });

  it("stops on a side at the list's end, and counts the lines each message has", () => {
    const lines = [1, 1, 1, 1, 1, 9, 1, 1];
    expect([...aheadOrder(lines.length, 4, 6, 3, (i) => lines[i]!)]).toEqual([4, 6, 3, 7, 2]);
    expect([...aheadOrder(3, -1, 3, 10, () => 1)]).toEqual([]);
  });
});

describe("laying out ahead", () => {
  it("lays out a page above and below the pane into the cache, so that turning the page renders nothing new", async () => {
    const store = eg.store();
    const messages = Array.from({ length: 60 }, (_, i) => eg.streamMessage({ content: `message **${i}** with a [link](https://example.com/${i})`, timestamp: T + i * 600 }));
    for (const m of messages) store.messages.put(m);
    const cache = new LayoutCache();
    const o: LayoutOptions = { width: 60, showRecipients: true, color: false, timeZone: "UTC", now: T, cache };
    const ctx = renderContext(store, false, "UTC", false);
    // The pane shows messages 30 to 34.
    for (let i = 30; i <= 34; i++) layoutMessage(store, messages[i]!, messages[i - 1], o, ctx);
    expect(cache.bodyRenders).toBe(5);
    await layAhead(store, messages, 30, 34, 10, o, ctx).done;
    const laidAhead = cache.bodyRenders - 5;
    expect(laidAhead).toBeGreaterThanOrEqual(8);
    // Not the whole list: about a page each way.
    expect(laidAhead).toBeLessThan(30);
    // The page above and the page below are now taken from the cache.
    const before = cache.bodyRenders;
    for (const i of [29, 28, 27, 35, 36, 37]) layoutMessage(store, messages[i]!, messages[i - 1], o, ctx);
    expect(cache.bodyRenders).toBe(before);
    // Far away, nothing was laid out.
    layoutMessage(store, messages[2]!, messages[1], o, ctx);
    expect(cache.bodyRenders).toBe(before + 1);
  });

  it("stops when cancelled, and starts no preview of an image", async () => {
    const store = eg.store();
    const messages = Array.from({ length: 400 }, (_, i) => eg.streamMessage({ content: `line ${i}`, timestamp: T + i }));
    const cache = new LayoutCache();
    let previews = 0;
    const o: LayoutOptions = {
      width: 60,
      showRecipients: true,
      color: false,
      timeZone: "UTC",
      now: T,
      cache,
      images: () => {
        previews++;
        return undefined;
      },
    };
    const ctx = renderContext(store, false, "UTC", false);
    const job = layAhead(store, messages, 200, 200, 1000, o, ctx);
    job.cancel();
    await job.done;
    expect(cache.bodyRenders).toBe(0);
    await layAhead(store, messages, 200, 200, 4, o, ctx).done;
    expect(cache.bodyRenders).toBeGreaterThan(0);
    expect(previews).toBe(0);
  });

  it("hands each block laid out to the pane's memo, but not one that would show a picture", async () => {
    const store = eg.store();
    const messages = Array.from({ length: 40 }, (_, i) =>
      eg.streamMessage({ content: i === 18 ? "see [shot.png](/user_uploads/2/ab/shot.png)" : `message ${i}`, timestamp: T + i * 600 }),
    );
    const cache = new LayoutCache();
    const o: LayoutOptions = { width: 60, showRecipients: true, color: false, timeZone: "UTC", now: T, cache, images: () => undefined };
    const ctx = renderContext(store, false, "UTC", false);
    const kept = new Map<number, { prev: number | undefined; text: string }>();
    await layAhead(store, messages, 20, 24, 6, o, ctx, (m, prev, block) => kept.set(m.id, { prev: prev?.id, text: block.lines.map((l) => l.text).join("\n") })).done;
    // The page above and the page below, each block after the message before it, as the pane lays it out.
    for (const i of [19, 17, 25, 26]) {
      expect(kept.get(messages[i]!.id)).toEqual({ prev: messages[i - 1]!.id, text: layoutMessage(store, messages[i]!, messages[i - 1], o, ctx).lines.map((l) => l.text).join("\n") });
    }
    // The message linking an image was laid out (its lines are in the cache) but not handed over.
    expect(cache.get(ctx, messages[18]!.id)).toBeDefined();
    expect(kept.has(messages[18]!.id)).toBe(false);
    // Without previews, its block is the pane's too.
    const plain = new Set<number>();
    await layAhead(store, messages, 20, 24, 6, { ...o, images: undefined }, ctx, (m) => plain.add(m.id)).done;
    expect(plain.has(messages[18]!.id)).toBe(true);
  });
});
