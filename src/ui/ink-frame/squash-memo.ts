/**
 * Ink's text squashing, remembered per text node (the Ink patch wraps Ink's `squashTextNodes`
 * with it: scripts/ink-patch.mjs). Every frame Ink squashes every text node on screen into one
 * string: it calls each styled child's transform (chalk) and then tokenizes the result to strip
 * escape sequences other than styles. A key that moves a selection changes a few rows; the
 * others were squashed again all the same, a good part of each frame.
 *
 * A node's squashed text depends only on its children: which nodes they are, each text child's
 * value, and each styled child's transform and own children. So the text is kept on the node
 * with those, and given again while a walk over them (no allocation, no string built) finds
 * them unchanged. React replaces a Text's transform whenever it renders the Text, so a
 * re-rendered row is squashed afresh even if its styles stayed the same.
 */

/** The part of Ink's DOM node the squashing reads. */
export interface TextNode {
  nodeName: string;
  nodeValue?: string;
  childNodes?: TextNode[];
  internal_transform?: unknown;
  /** What squashing this node gave, and what it was made from. */
  termchatSquashed?: Squashed;
}

interface Squashed {
  text: string;
  children: TextNode[];
  /** Per child: its value (a text child) or its transform (a styled one). */
  inputs: unknown[];
}

const nested = (n: TextNode) => n.nodeName === "ink-text" || n.nodeName === "ink-virtual-text";

/** Whether `node`'s squashed text, as kept, is still what squashing it would give. */
function unchanged(node: TextNode, kept: Squashed | undefined): kept is Squashed {
  if (!kept) return false;
  const children = node.childNodes ?? [];
  if (children.length !== kept.children.length) return false;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child !== kept.children[i]) return false;
    if (child.nodeName === "#text") {
      if (child.nodeValue !== kept.inputs[i]) return false;
    } else {
      if (child.internal_transform !== kept.inputs[i]) return false;
      if (nested(child) && !unchanged(child, child.termchatSquashed)) return false;
    }
  }
  return true;
}

/** `squash` (Ink's), remembered per node as the header says. */
export function rememberSquashed<N extends TextNode>(squash: (node: N) => string): (node: N) => string {
  return (node) => {
    if (unchanged(node, node.termchatSquashed)) return node.termchatSquashed.text;
    const text = squash(node);
    const children = (node.childNodes ?? []).slice();
    node.termchatSquashed = { text, children, inputs: children.map((c) => (c.nodeName === "#text" ? c.nodeValue : c.internal_transform)) };
    return text;
  };
}
