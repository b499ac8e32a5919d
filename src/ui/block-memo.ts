/**
 * The message pane's laid-out blocks, kept from one render to the next while nothing they are
 * drawn from changed. A key that only moves the selection changes none of it, so the pane's
 * blocks come back as the same objects: nothing is laid out or compared again, and the rows
 * drawn from them (MessagePane's memoised rows) see the same lines and are left as they are.
 *
 * What a block is drawn from: its message and the one before it (the headers), the store as of
 * its version (names, channels, reactions, widgets, stars all change it), the render context
 * (names, colours, glyphs), the layout's options, whether the Markdown engine is loaded, the
 * glyph set, and the day it is (a time or a day separator says "Today" against it). Any change
 * of these starts the memo afresh; within one of them, a message object that was replaced
 * (edited, fetched again) is laid out again. Only the blocks of the frame before are kept (a
 * pane's worth), so a long walk through a big list holds no more than that, and the blocks laid
 * out ahead of the reader (lay-ahead.ts), at most AHEAD_MAX of them: the page the next page turn
 * shows is then taken as is, not laid out again from the layout cache's lines while the key waits.
 * A block is offered for the inputs it was laid out under, and taken only while those hold.
 */
import type { Message } from "../api/schemas/common.js";
import type { Store } from "../model/store.js";
import type { RenderContext } from "../render/markdown.js";
import { isMarkdownLoaded } from "../render/markdown.js";
import { presentationKey } from "../render/glyphs.js";
import { parts } from "../render/time.js";
import type { Block, LayoutOptions } from "./message-layout.js";

interface Kept {
  message: Message;
  prev: Message | undefined;
  block: Block;
}

/** The most blocks laid out ahead that are kept: two pages of one-line messages on a tall terminal. */
export const AHEAD_MAX = 512;

export class BlockMemo {
  private inputs: readonly unknown[] = [];
  /** The blocks of the frame being laid out, and those of the frame before. */
  private kept = new Map<number, Kept>();
  private before = new Map<number, Kept>();
  /** Blocks laid out ahead of the reader under the current inputs, oldest first. */
  private ahead = new Map<number, Kept>();

  /** Starts a frame laid out from these inputs: what was kept for other inputs is forgotten. */
  use(store: Store, o: LayoutOptions, ctx: RenderContext, scope: string): void {
    const inputs = inputsOf(store, o, ctx, scope);
    const same = sameInputs(inputs, this.inputs);
    this.inputs = inputs;
    this.before = same ? this.kept : new Map();
    this.kept = new Map();
    if (!same) this.ahead = new Map();
  }

  /** The block laid out for `message` after `prev` under the current inputs, if kept. */
  get(message: Message, prev: Message | undefined): Block | undefined {
    const k = this.kept.get(message.id) ?? this.before.get(message.id) ?? this.ahead.get(message.id);
    if (!k || k.message !== message || k.prev !== prev) return undefined;
    this.kept.set(message.id, k);
    return k.block;
  }

  set(message: Message, prev: Message | undefined, block: Block): void {
    this.kept.set(message.id, { message, prev, block });
  }

  /**
   * A block laid out between frames (ahead of the reader) from these inputs: kept for a later
   * frame when they are the current frame's, else dropped (the store or the look changed since).
   */
  offer(store: Store, o: LayoutOptions, ctx: RenderContext, scope: string, message: Message, prev: Message | undefined, block: Block): void {
    if (!sameInputs(inputsOf(store, o, ctx, scope), this.inputs)) return;
    this.ahead.delete(message.id);
    this.ahead.set(message.id, { message, prev, block });
    if (this.ahead.size > AHEAD_MAX) this.ahead.delete(this.ahead.keys().next().value!);
  }
}

function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

/** Everything a block is drawn from besides its message and the one before it. */
function inputsOf(store: Store, o: LayoutOptions, ctx: RenderContext, scope: string): unknown[] {
  const day = parts(o.now !== undefined ? (o.now > 1e11 ? o.now : o.now * 1000) : Date.now(), o.timeZone).dayNumber;
  return [
    store,
    store.version,
    ctx,
    scope,
    day,
    isMarkdownLoaded(),
    presentationKey(),
    o.width,
    o.showRecipients,
    o.color,
    o.timeZone,
    o.openSpoilers,
    o.expanded,
    o.expandKey,
    o.images,
    o.cache,
  ];
}
