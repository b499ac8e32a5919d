/**
 * Ink's walk from its DOM to the frame buffer, remembered per node (the Ink patch wraps Ink's
 * `renderNodeToOutput` with it: scripts/ink-patch.mjs). Every frame Ink walks every node on
 * screen: for each, a few calls into the layout engine (WebAssembly, through a wrapper that
 * allocates), and for each text its squashing, measuring, wrapping and a write. A key that moves a
 * selection changes a few rows of one pane; the sidebar, the other rows, the status line and the
 * compose box were walked again all the same, a good part of each key.
 *
 * What a node writes into the frame depends only on its subtree (the nodes, their styles,
 * attributes, transforms and text), on where its box is (its absolute column and row) and how big
 * it is, and on the transforms its ancestors hand down. Ink's DOM functions, as patched, count
 * every change to a node on it and on each of its ancestors (`touchNode`, `termchatVersion`); so
 * a node's writes are kept with that count, its box and the transforms, and when all are the same
 * at the next frame they are written again as they were (the same operation objects, which the
 * frame buffer keeps its work on: output.ts), without walking the subtree.
 *
 * Why the box is enough: the layout engine lays out a subtree from its root's size alone; the
 * root's own size and place come from outside (a sibling that grew), and are compared.
 */

/** The part of Ink's DOM node this reads and keeps. */
export interface OutputNode {
  parentNode?: OutputNode | undefined;
  internal_static?: boolean;
  yogaNode?: { getComputedLeft(): number; getComputedTop(): number; getComputedWidth(): number; getComputedHeight(): number } | undefined;
  /** Changes to this node and to every node under it, counted (touchNode). */
  termchatVersion?: number;
  /** What this node wrote at the last frame it was walked in, and from what (rememberOutput). */
  termchatOutput?: Kept;
}

/** The frame buffer's side of it (output.ts): the operations recorded since a mark, and written again. */
export interface ReplayableOutput {
  mark(): number;
  since(mark: number): readonly unknown[];
  replay(ops: readonly unknown[]): void;
}

type Transformer = (line: string, index: number) => string;

interface Options {
  offsetX?: number;
  offsetY?: number;
  transformers?: Transformer[];
  skipStaticElements?: boolean;
}

interface Kept {
  version: number;
  x: number;
  y: number;
  width: number;
  height: number;
  skipStatic: boolean;
  transformers: readonly Transformer[];
  ops: readonly unknown[];
}

const NO_TRANSFORMERS: readonly Transformer[] = [];

/** Counts a change to `node`: its writes, and those of every node above it, are made afresh at the next frame. */
export function touchNode(node: OutputNode | undefined): void {
  for (let n = node; n !== undefined; n = n.parentNode) n.termchatVersion = (n.termchatVersion ?? 0) + 1;
}

function sameTransformers(a: readonly Transformer[], b: readonly Transformer[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function replayable(output: unknown): output is ReplayableOutput {
  return typeof (output as Partial<ReplayableOutput>).replay === "function";
}

/** `render` (Ink's renderNodeToOutput), remembered per node as the header says. */
export function rememberOutput<N extends OutputNode, O>(render: (node: N, output: O, options: Options) => void): (node: N, output: O, options: Options) => void {
  return (node, output, options) => {
    const yoga = node.yogaNode;
    // Nodes without a box of their own (text inside text) and buffers that cannot replay are walked as Ink walks them.
    if (!yoga || !replayable(output)) return render(node, output, options);
    const x = (options.offsetX ?? 0) + yoga.getComputedLeft();
    const y = (options.offsetY ?? 0) + yoga.getComputedTop();
    const width = yoga.getComputedWidth();
    const height = yoga.getComputedHeight();
    const version = node.termchatVersion ?? 0;
    const skipStatic = options.skipStaticElements === true;
    const transformers = options.transformers ?? NO_TRANSFORMERS;
    const kept = node.termchatOutput;
    if (
      kept !== undefined &&
      kept.version === version &&
      kept.x === x &&
      kept.y === y &&
      kept.width === width &&
      kept.height === height &&
      kept.skipStatic === skipStatic &&
      sameTransformers(kept.transformers, transformers)
    ) {
      output.replay(kept.ops);
      return;
    }
    const mark = output.mark();
    render(node, output, options);
    node.termchatOutput = { version, x, y, width, height, skipStatic, transformers, ops: output.since(mark) };
  };
}
