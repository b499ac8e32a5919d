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
 * pane's worth), so a long walk through a big list holds no more than that.
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

export class BlockMemo {
  private inputs: readonly unknown[] = [];
  /** The blocks of the frame being laid out, and those of the frame before. */
  private kept = new Map<number, Kept>();
  private before = new Map<number, Kept>();

  /** Starts a frame laid out from these inputs: what was kept for other inputs is forgotten. */
  use(store: Store, o: LayoutOptions, ctx: RenderContext, scope: string): void {
    const day = parts(o.now !== undefined ? (o.now > 1e11 ? o.now : o.now * 1000) : Date.now(), o.timeZone).dayNumber;
    const inputs = [
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
    const same = inputs.length === this.inputs.length && inputs.every((v, i) => Object.is(v, this.inputs[i]));
    this.inputs = inputs;
    this.before = same ? this.kept : new Map();
    this.kept = new Map();
  }

  /** The block laid out for `message` after `prev` under the current inputs, if kept. */
  get(message: Message, prev: Message | undefined): Block | undefined {
    const k = this.kept.get(message.id) ?? this.before.get(message.id);
    if (!k || k.message !== message || k.prev !== prev) return undefined;
    this.kept.set(message.id, k);
    return k.block;
  }

  set(message: Message, prev: Message | undefined, block: Block): void {
    this.kept.set(message.id, { message, prev, block });
  }
}
