/**
 * Messages laid out ahead of the reader. Once a frame is out, the messages a page above the
 * pane and a page below it are laid out while the terminal is idle, into the layout cache
 * (layout-cache.ts), nearest first and alternating up and down: the key that turns the page then
 * finds them laid out, and costs what a key that only moves the selection costs. Without this, a
 * page turn into messages never drawn paid for a pane's worth of Markdown at once (8-14 ms against
 * 2-3 for a move, and so most of the slowest keys).
 *
 * The work goes in small slices, each at the turn of the event loop after keys and answers were
 * read, and stops as soon as the pane moves on (a new job replaces it). A message the cache
 * holds already is not rendered again: its lines are taken from it. Each message's block (its
 * headers and lines) is handed to `keep` too, for the pane's block memo (block-memo.ts), so the
 * page turn takes the blocks as they are. Previews of images are not started for messages the
 * reader has not reached: they are laid out without them (a message with a picture is laid out
 * again when it shows, and its block is not handed over; one without is taken as is).
 */
import type { Message } from "../api/schemas/common.js";
import type { Store } from "../model/store.js";
import type { RenderContext } from "../render/markdown.js";
import { mayLinkImages } from "./images/image-refs.js";
import { layoutMessage, type Block, type LayoutOptions } from "./message-layout.js";

/** How long one slice of the work may take before the event loop gets its turn. */
export const SLICE_MS = 2;

export interface LayAhead {
  cancel(): void;
  /** Resolves once all is laid out or the job was cancelled (tests wait on it). */
  done: Promise<void>;
}

/**
 * The order in which messages around the pane are laid out: index `before` and up, `after` and
 * down, alternating, each side until `lines` lines are laid out on it or its end is reached.
 * `lineCount` lays a message out and says how many lines it has.
 */
export function* aheadOrder(count: number, before: number, after: number, lines: number, lineCount: (i: number) => number): Generator<number> {
  let up = before;
  let down = after;
  let upLines = 0;
  let downLines = 0;
  while ((up >= 0 && upLines < lines) || (down < count && downLines < lines)) {
    if (up >= 0 && upLines < lines) {
      yield up;
      upLines += lineCount(up--);
    }
    if (down < count && downLines < lines) {
      yield down;
      downLines += lineCount(down++);
    }
  }
}

/**
 * Lays out, in slices at idle turns, a pane's height of messages above `first` and below `last`
 * (indexes into `messages`, the pane's first and last message) with the pane's own options,
 * handing each block without pictures to `keep` (blocks with them differ once shown).
 */
export function layAhead(
  store: Store,
  messages: readonly Message[],
  first: number,
  last: number,
  height: number,
  o: LayoutOptions,
  ctx: RenderContext,
  keep?: (message: Message, prev: Message | undefined, block: Block) => void,
): LayAhead {
  const cache = o.cache;
  if (!cache) return { cancel() {}, done: Promise.resolve() };
  const options: LayoutOptions = { ...o, images: undefined };
  const lineCount = (i: number) => {
    const m = messages[i]!;
    const prev = messages[i - 1];
    const block = layoutMessage(store, m, prev, options, ctx);
    if (keep && !(o.images && mayLinkImages(m.content))) keep(m, prev, block);
    return block.lines.length;
  };
  const order = aheadOrder(messages.length, first - 1, last + 1, height, lineCount);
  let cancelled = false;
  let timer: ReturnType<typeof setImmediate> | undefined;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const slice = () => {
    timer = undefined;
    if (cancelled) return;
    const until = performance.now() + SLICE_MS;
    // Each step of the order lays one message out (lineCount does, as it counts).
    while (performance.now() < until) {
      if (order.next().done) return finish();
    }
    timer = setImmediate(slice);
  };
  timer = setImmediate(slice);
  return {
    cancel() {
      cancelled = true;
      if (timer) clearImmediate(timer);
      finish();
    },
    done,
  };
}
