/**
 * The message pane's window that stays put: while the selected message is still wholly in view
 * the pane does not scroll, so moving the selection redraws only the gutter of the rows that
 * gain or lose it. Only when the selection would leave the pane (or the pane would no longer be
 * full) is the window placed afresh around it, as layoutWindow places it: a whole stretch at a
 * time, not a line per key. On a terminal over a slow link every scrolled row is a row resent.
 */
import type { Message } from "../api/schemas/common.js";
import type { Store } from "../model/store.js";
import type { RenderContext } from "../render/markdown.js";
import type { BlockMemo } from "./block-memo.js";
import { layoutMessage, layoutWindow, type Block, type LayoutOptions } from "./message-layout.js";

/** The pane's first row: a message, and how many of its lines are scrolled off above. */
export interface WindowTop {
  id: number;
  skip: number;
}

export interface StickyWindow {
  blocks: Block[];
  /** Lines of the first block above the pane. */
  skip: number;
  top: WindowTop | undefined;
}

/**
 * The row a pane of `height` starts at: `skip`, moved only as far as the selected block needs to
 * be in view; without `skip`, the selected block's first row, or as far up as keeps the pane full.
 */
export function paneStart(blocks: Block[], selectedId: number | undefined, height: number, skip?: number): number {
  let total = 0;
  let selStart = -1;
  let selEnd = 0;
  for (const b of blocks) {
    if (b.id === selectedId) selStart = total;
    total += b.lines.length;
    if (b.id === selectedId) selEnd = total;
  }
  if (total <= height) return 0;
  let start = Math.max(0, Math.min(skip ?? Math.max(0, selStart), total - height));
  if (selStart < 0) return start;
  if (selEnd > start + height) start = selEnd - selStart > height ? selStart : selEnd - height;
  if (selStart < start) start = selStart;
  return start;
}

/**
 * The messages a pane of `height` rows shows whole (as MessagePane draws it: from paneStart on),
 * and one taller than the pane once it fills it: what the reader can be said to have seen. A
 * message cut at the top or the bottom edge is not among them.
 */
export function shownIds(blocks: Block[], selectedId: number | undefined, height: number, skip?: number): number[] {
  const start = paneStart(blocks, selectedId, height, skip);
  const end = start + height;
  const out: number[] = [];
  let row = 0;
  for (const b of blocks) {
    const first = row;
    row += b.lines.length;
    if (row <= start) continue;
    if (first >= end) break;
    if ((first >= start && row <= end) || (first <= start && row >= end)) out.push(b.id);
  }
  return out;
}

/** The top a freshly placed window shows, as the pane would show it. */
function topOf(blocks: Block[], selectedId: number | undefined, height: number): WindowTop | undefined {
  let start = paneStart(blocks, selectedId, height);
  for (const b of blocks) {
    if (start < b.lines.length) return { id: b.id, skip: start };
    start -= b.lines.length;
  }
  return undefined;
}

/**
 * The blocks for the pane with the selected message at `selected`, keeping the window that
 * starts at `previous` while the selection is wholly in it. When it is not, the window turns a
 * page: a selection gone below shows near the top, under the message before it; one gone above
 * shows near the bottom, over the message after it (each cut to a third of the pane), so the
 * message just left stays in sight. Without a previous window the selection is placed afresh.
 * Blocks kept in `memo` (made ready for these inputs by its `use`) are taken from it.
 */
export function layoutStickyWindow(
  store: Store,
  messages: Message[],
  selected: number,
  height: number,
  o: LayoutOptions,
  ctx: RenderContext,
  previous: WindowTop | undefined,
  memo?: BlockMemo,
): StickyWindow {
  if (messages.length === 0) return { blocks: [], skip: 0, top: undefined };
  const sel = Math.max(0, Math.min(messages.length - 1, selected));
  const pane = new Pane(store, messages, height, o, ctx, memo);
  if (previous) {
    const kept = pane.keep(sel, previous);
    if (kept) return kept;
    return messages[sel]!.id >= previous.id ? pane.selectionNearTop(sel) : pane.selectionNearBottom(sel);
  }
  const { blocks, firstIndex } = layoutWindow(store, messages, sel, height, o, ctx);
  // Kept for the next frame too: else the first key after a view opens lays out its page again,
  // and the headers' new lines draw their rows again.
  blocks.forEach((b, k) => memo?.set(messages[firstIndex + k]!, messages[firstIndex + k - 1], b));
  const top = topOf(blocks, messages[sel]!.id, height);
  if (!top) return { blocks, skip: 0, top };
  // Blocks wholly above the pane are not handed over.
  return { blocks: blocks.slice(blocks.findIndex((b) => b.id === top.id)), skip: top.skip, top };
}

class Pane {
  private readonly laid = new Map<number, Block>();
  private readonly context: number;

  constructor(
    private readonly store: Store,
    private readonly messages: Message[],
    private readonly height: number,
    private readonly o: LayoutOptions,
    private readonly ctx: RenderContext,
    private readonly memo: BlockMemo | undefined,
  ) {
    this.context = Math.max(1, Math.floor(height / 3));
  }

  private block(i: number): Block {
    let b = this.laid.get(i);
    if (!b) {
      const m = this.messages[i]!;
      const prev = this.messages[i - 1];
      b = this.memo?.get(m, prev);
      if (!b) {
        b = layoutMessage(this.store, m, prev, this.o, this.ctx);
        this.memo?.set(m, prev, b);
      }
      this.laid.set(i, b);
    }
    return b;
  }

  private lines(i: number): number {
    return this.block(i).lines.length;
  }

  /** The window starting at `previous`, if the selected message is wholly in it. */
  keep(sel: number, previous: WindowTop): StickyWindow | undefined {
    // Every message takes a line at least, so a top that keeps the selection in view is near it.
    let first = -1;
    for (let i = sel; i >= 0 && i >= sel - this.height; i--) {
      if (this.messages[i]!.id === previous.id) {
        first = i;
        break;
      }
    }
    if (first < 0 || previous.skip >= this.lines(first) || (first === sel && previous.skip > 0)) return undefined;
    let end = -previous.skip;
    for (let i = first; i <= sel; i++) end += this.lines(i);
    if (end > this.height) return undefined;
    return this.from(first, previous.skip);
  }

  /** The selection under (part of) the message before it. */
  selectionNearTop(sel: number): StickyWindow {
    if (sel === 0 || this.lines(sel) >= this.height) return this.from(sel, 0);
    const above = Math.min(this.lines(sel - 1), this.context, this.height - this.lines(sel));
    return this.from(sel - 1, this.lines(sel - 1) - above);
  }

  /** The selection over (part of) the message after it, the pane filled upwards. */
  selectionNearBottom(sel: number): StickyWindow {
    if (this.lines(sel) >= this.height) return this.from(sel, 0);
    let used = this.lines(sel) + (sel + 1 < this.messages.length ? Math.min(this.lines(sel + 1), this.context, this.height - this.lines(sel)) : 0);
    let first = sel;
    while (first > 0 && used < this.height) used += this.lines(--first);
    // A message cut at the top would be the next one up: left out, so it shows whole once
    // selected instead of turning the page one message early (the pane fills further down).
    if (used > this.height && first < sel) return this.from(first + 1, 0);
    return this.from(first, Math.max(0, used - this.height));
  }

  /**
   * The blocks shown from line `skip` of message `first` down, enough to fill the pane; when
   * the messages end before it is full, the top moves up until it is (or reaches the first).
   */
  private from(first: number, skip: number): StickyWindow {
    let used = -skip;
    let last = first - 1;
    while (last + 1 < this.messages.length && used < this.height) used += this.lines(++last);
    while (used < this.height && (skip > 0 || first > 0)) {
      if (skip > 0) {
        const back = Math.min(skip, this.height - used);
        skip -= back;
        used += back;
      } else {
        first--;
        skip = this.lines(first);
      }
    }
    const blocks: Block[] = [];
    for (let i = first; i <= last; i++) blocks.push(this.block(i));
    return { blocks, skip, top: { id: this.messages[first]!.id, skip } };
  }
}
