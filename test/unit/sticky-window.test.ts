/**
 * The message pane's window stays put while the selection moves inside it (each scrolled row is
 * a row resent over the link), turns a page when the selection leaves it, keeping the message
 * just left in sight, and follows a new message at the bottom by exactly its lines.
 */
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schemas/common.js";
import { loadMarkdown } from "../../src/render/markdown.js";
import { visibleLines } from "../../src/ui/components/MessagePane.js";
import { renderContext, type LayoutOptions } from "../../src/ui/message-layout.js";
import { layoutStickyWindow, shownIds, type WindowTop } from "../../src/ui/sticky-window.js";
import * as eg from "../fixtures/example.js";

const T = 1_763_600_000;
const HEIGHT = 12;
const o: LayoutOptions = { width: 60, showRecipients: true, color: false, timeZone: "UTC", now: T };

beforeAll(async () => {
  await loadMarkdown();
});
beforeEach(() => {
  eg.resetIds();
});

/** 40 messages from alternating senders, every fifth one three lines long. */
function conversation(): { store: ReturnType<typeof eg.store>; messages: Message[] } {
  const store = eg.store();
  const messages = Array.from({ length: 40 }, (_, i) =>
    eg.streamMessage({
      content: i % 5 === 0 ? `message ${i}\n\nsecond paragraph of ${i}` : `message ${i}`,
      sender_id: i % 2 === 0 ? 3 : 4,
      sender_full_name: i % 2 === 0 ? "Third Person" : "Fourth Person",
      timestamp: T + i * 60,
    }),
  );
  return { store, messages };
}

/** What the pane shows with message `selected` chosen after the window `previous`. */
function pane(c: ReturnType<typeof conversation>, selected: number, previous: WindowTop | undefined) {
  const window = layoutStickyWindow(c.store, c.messages, selected, HEIGHT, o, renderContext(c.store, false, "UTC", false), previous);
  const rows = visibleLines(window.blocks, c.messages[selected]!.id, HEIGHT, window.skip);
  return { rows: rows.map((r) => r.line.text), ids: rows.map((r) => r.id), top: window.top };
}

describe("the message pane's window", () => {
  it("does not scroll while the selection moves inside it, and turns a page when it leaves", () => {
    const c = conversation();
    let view = pane(c, 39, undefined);
    expect(view.ids).toContain(c.messages[39]!.id);
    expect(view.rows).toHaveLength(HEIGHT);
    let moves = 0;
    let turns = 0;
    for (let selected = 38; selected >= 0; selected--) {
      const next = pane(c, selected, view.top);
      expect(next.ids, `selection ${selected} in view`).toContain(c.messages[selected]!.id);
      expect(next.rows).toHaveLength(HEIGHT);
      const id = c.messages[selected]!.id;
      const count = (ids: number[]) => ids.filter((i) => i === id).length;
      const wasWhollyShown = count(view.ids) > 0 && count(view.ids) === count(next.ids);
      if (wasWhollyShown) {
        expect(next.rows, `selection ${selected}: the pane stays put`).toEqual(view.rows);
        moves++;
      } else {
        // A page turned: the message just left is still in sight, below the selection.
        expect(next.ids).toContain(c.messages[selected + 1]!.id);
        expect(next.ids.indexOf(c.messages[selected]!.id)).toBeGreaterThan(HEIGHT / 3);
        turns++;
      }
      view = next;
    }
    expect(moves).toBeGreaterThan(turns * 2);
    expect(turns).toBeGreaterThan(2);
  });

  it("moving down past the bottom shows the selection near the top, under the message before it", () => {
    const c = conversation();
    let view = pane(c, 0, undefined);
    let turns = 0;
    for (let selected = 1; selected < 40; selected++) {
      const next = pane(c, selected, view.top);
      const id = c.messages[selected]!.id;
      expect(next.ids).toContain(id);
      const count = (ids: number[]) => ids.filter((i) => i === id).length;
      if (count(view.ids) > 0 && count(view.ids) === count(next.ids)) expect(next.rows).toEqual(view.rows);
      else if (selected < 37) {
        expect(next.ids).toContain(c.messages[selected - 1]!.id);
        expect(next.ids.indexOf(id)).toBeLessThan(HEIGHT / 2);
        turns++;
      }
      view = next;
    }
    expect(turns).toBeGreaterThan(2);
  });

  it("a new message at the bottom, followed, scrolls the pane by its own lines only", () => {
    const c = conversation();
    const before = pane(c, 39, undefined);
    c.messages.push(eg.streamMessage({ content: "just arrived", sender_id: 4, sender_full_name: "Fourth Person", timestamp: T + 40 * 60 }));
    const after = pane(c, 40, before.top);
    const added = after.ids.filter((id) => id === c.messages[40]!.id).length;
    expect(added).toBeGreaterThan(0);
    expect(after.rows.slice(0, HEIGHT - added)).toEqual(before.rows.slice(added));
  });
});

describe("what the pane shows whole", () => {
  const block = (id: number, lines: number) => ({ id, lines: Array.from({ length: lines }, (_, i) => ({ text: `${id}.${i}`, style: "body" as const })) });

  it("the messages wholly inside the pane's rows, not those cut at its top or bottom edge", () => {
    const blocks = [block(1, 3), block(2, 2), block(3, 2), block(4, 3)];
    // Rows 2..7 of 10: the first message's last line, the second and third whole, the fourth's first line.
    expect(shownIds(blocks, 2, 6, 2)).toEqual([2, 3]);
    expect(shownIds(blocks, 2, 10, 0)).toEqual([1, 2, 3, 4]);
    expect(shownIds(blocks, 1, 3, 0)).toEqual([1]);
  });

  it("a message taller than the pane counts once it fills the pane", () => {
    const blocks = [block(1, 2), block(2, 20), block(3, 2)];
    expect(shownIds(blocks, 2, 8, 2)).toEqual([2]);
    expect(shownIds(blocks, 2, 8, 10)).toEqual([2]);
    // Its first rows under the one before it: not yet.
    expect(shownIds(blocks, 1, 8, 0)).toEqual([1]);
  });

  it("agrees with the lines the pane draws", () => {
    const { store, messages } = conversation();
    const ctx = renderContext(store, false, "UTC");
    const w = layoutStickyWindow(store, messages, 20, HEIGHT, o, ctx, undefined);
    const rows = visibleLines(w.blocks, messages[20]!.id, HEIGHT, w.skip);
    const shown = shownIds(w.blocks, messages[20]!.id, HEIGHT, w.skip);
    expect(shown).toContain(messages[20]!.id);
    for (const id of shown) {
      const b = w.blocks.find((x) => x.id === id)!;
      expect(rows.filter((r) => r.id === id).length).toBe(b.lines.length);
    }
    for (const r of rows) if (!shown.includes(r.id)) expect(rows.filter((x) => x.id === r.id).length).toBeLessThan(w.blocks.find((b) => b.id === r.id)!.lines.length);
  });
});
