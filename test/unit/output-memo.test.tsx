/**
 * Ink's walk from its DOM to the frame buffer, remembered per node (src/ui/ink-frame/output-memo.ts):
 * a node whose subtree, box and handed-down transforms are as they were is not walked again, its
 * writes are given again; any change to it, under it, or to its box makes it walk afresh. Then the
 * same through Ink: a screen changed step by step in every way a screen changes (text, colours,
 * rows added and removed, a sibling that grows and moves the others, a pane resized, rows hidden)
 * looks at every step exactly as the same screen drawn by a new Ink instance, which has nothing kept.
 */
import { Box, Text, Transform } from "ink";
import { memo } from "react";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import { rememberOutput, touchNode, type OutputNode } from "../../src/ui/ink-frame/output-memo.js";
import { prng } from "../fixtures/prng.js";

interface FakeNode extends OutputNode {
  name: string;
  box: { left: number; top: number; width: number; height: number };
  children: FakeNode[];
}

function node(name: string, children: FakeNode[] = [], box = { left: 0, top: 0, width: 10, height: 1 }): FakeNode {
  const n: FakeNode = {
    name,
    box,
    children,
    yogaNode: { getComputedLeft: () => n.box.left, getComputedTop: () => n.box.top, getComputedWidth: () => n.box.width, getComputedHeight: () => n.box.height },
  };
  for (const c of children) c.parentNode = n;
  return n;
}

/** A frame buffer that records operations and can give them again. */
class Recorder {
  ops: string[] = [];
  mark = () => this.ops.length;
  since = (m: number) => this.ops.slice(m);
  replay = (ops: readonly unknown[]) => void this.ops.push(...(ops as string[]));
}

describe("the remembered walk", () => {
  it("walks a node again only when it, something under it, its box or the transforms handed down changed", () => {
    const walked: string[] = [];
    type Walk = (n: FakeNode, out: Recorder, o: { offsetX?: number; offsetY?: number; transformers?: Array<(s: string, i: number) => string> }) => void;
    const walk: Walk = rememberOutput<FakeNode, Recorder>(
      (n, out, o) => {
        walked.push(n.name);
        out.ops.push(`${n.name}@${(o.offsetX ?? 0) + n.box.left},${(o.offsetY ?? 0) + n.box.top}`);
        for (const c of n.children) walk(c, out, { offsetX: (o.offsetX ?? 0) + n.box.left, offsetY: (o.offsetY ?? 0) + n.box.top, transformers: o.transformers ?? [] });
      },
    );
    const a = node("a");
    const b = node("b", [], { left: 0, top: 1, width: 10, height: 1 });
    const pane = node("pane", [a, b], { left: 5, top: 0, width: 10, height: 2 });
    const side = node("side");
    const root = node("root", [side, pane], { left: 0, top: 0, width: 20, height: 2 });
    const frame = () => {
      walked.length = 0;
      const out = new Recorder();
      walk(root, out, {});
      return out.ops;
    };
    const first = frame();
    expect(walked).toEqual(["root", "side", "pane", "a", "b"]);
    // Nothing changed: the root's writes are given again, nothing is walked.
    expect(frame()).toEqual(first);
    expect(walked).toEqual([]);
    // A change under the pane: the path to it is walked, its sibling and the sidebar are not.
    touchNode(a);
    expect(frame()).toEqual(first);
    expect(walked).toEqual(["root", "pane", "a"]);
    // The sidebar grows: the pane moves right without a change of its own, and is walked at its new place.
    side.box.width = 12;
    pane.box.left = 12;
    touchNode(side);
    expect(frame()).toEqual(["root@0,0", "side@0,0", "pane@12,0", "a@12,0", "b@12,1"]);
    expect(walked).toEqual(["root", "side", "pane", "a", "b"]);
    // Resized in place (laid out again, no change to the DOM): walked again; its rows, whose boxes
    // are as they were, are not.
    pane.box.height = 3;
    root.termchatVersion = (root.termchatVersion ?? 0) + 1;
    frame();
    expect(walked).toEqual(["root", "pane"]);
    // A transform handed down that is not the one before: walked again, all of it.
    walked.length = 0;
    walk(root, new Recorder(), { transformers: [(s) => s.toUpperCase()] });
    expect(walked).toEqual(["root", "side", "pane", "a", "b"]);
  });
});

interface Model {
  header: string[];
  sideWidth: number;
  rows: Array<{ text: string; color?: string; bold?: boolean; hidden?: boolean }>;
  selected: number;
  status: string;
  shout: boolean;
}

const WORDS = ["alpha", "beta", "漢字", "👍 2", "naïve", "a longer line that will be cut at the pane's edge", "", "x"];
const COLORS = [undefined, "green", "red", "cyan"];

function randomModel(rand: () => number, before?: Model): Model {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const m: Model = before
    ? { ...before, header: before.header.slice(), rows: before.rows.map((r) => ({ ...r })) }
    : { header: ["termchat"], sideWidth: 12, rows: [], selected: 0, status: "connected", shout: false };
  if (!before) for (let i = 0; i < 6; i++) m.rows.push({ text: pick(WORDS) });
  // One to three changes of the kinds a screen sees.
  for (let k = 1 + Math.floor(rand() * 3); k > 0; k--) {
    const r = rand();
    if (r < 0.3) m.selected = Math.floor(rand() * Math.max(1, m.rows.length));
    else if (r < 0.4) m.rows.splice(Math.floor(rand() * (m.rows.length + 1)), 0, { text: pick(WORDS), color: pick(COLORS) });
    else if (r < 0.5 && m.rows.length > 1) m.rows.splice(Math.floor(rand() * m.rows.length), 1);
    else if (r < 0.6 && m.rows.length > 0) m.rows[Math.floor(rand() * m.rows.length)]!.text = pick(WORDS);
    else if (r < 0.7 && m.rows.length > 0) {
      const row = m.rows[Math.floor(rand() * m.rows.length)]!;
      row.color = pick(COLORS);
      row.bold = rand() < 0.5;
    } else if (r < 0.75 && m.rows.length > 0) m.rows[Math.floor(rand() * m.rows.length)]!.hidden = rand() < 0.5;
    else if (r < 0.82) m.header = rand() < 0.5 ? m.header.concat(pick(WORDS)) : m.header.slice(0, Math.max(1, m.header.length - 1));
    else if (r < 0.9) m.sideWidth = 6 + Math.floor(rand() * 12);
    else if (r < 0.95) m.status = pick(WORDS);
    else m.shout = !m.shout;
  }
  return m;
}

// Memoised parts, as the client's are: a step re-renders only those whose props changed, so most of
// the screen is given again from what was kept.
const Header = memo(function Header({ lines }: { lines: string }) {
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.split("\n").map((h, i) => (
        <Text key={i} bold>
          {h}
        </Text>
      ))}
    </Box>
  );
});

const Side = memo(function Side({ width }: { width: number }) {
  return (
    <Box width={width} flexShrink={0} flexDirection="column">
      <Text color="cyan">#general</Text>
      <Text>#random</Text>
    </Box>
  );
});

const Row = memo(function Row({ text, color, bold, hidden, selected }: { text: string; color?: string; bold?: boolean; hidden?: boolean; selected: boolean }) {
  return (
    <Box display={hidden ? "none" : "flex"}>
      <Text wrap="truncate">
        <Text color={selected ? "green" : undefined}>{selected ? "▌" : " "}</Text>
        <Text color={color} bold={bold}>
          {text}
        </Text>
      </Text>
    </Box>
  );
});

const shout = (line: string) => line.toUpperCase();
const quiet = (line: string) => line;

const Status = memo(function Status({ status, loud }: { status: string; loud: boolean }) {
  return (
    <Transform transform={loud ? shout : quiet}>
      <Text dimColor>{status}</Text>
    </Transform>
  );
});

function Screen({ m }: { m: Model }) {
  return (
    <Box flexDirection="column" width={50} height={14}>
      <Header lines={m.header.join("\n")} />
      <Box flexGrow={1}>
        <Side width={m.sideWidth} />
        <Box flexDirection="column" flexGrow={1} overflow="hidden">
          {m.rows.map((r, i) => (
            <Row key={i} text={r.text} color={r.color} bold={r.bold} hidden={r.hidden} selected={i === m.selected} />
          ))}
        </Box>
      </Box>
      <Status status={m.status} loud={m.shout} />
    </Box>
  );
}

describe("through Ink", () => {
  it("a screen changed step by step looks at every step as the same screen drawn afresh", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const rand = prng(seed);
      let m = randomModel(rand);
      const app = render(<Screen m={m} />);
      for (let step = 0; step < 12; step++) {
        m = randomModel(rand, m);
        app.rerender(<Screen m={m} />);
        const fresh = render(<Screen m={m} />);
        const expected = fresh.lastFrame();
        fresh.unmount();
        if (app.lastFrame() !== expected) expect({ seed, step, frame: app.lastFrame() }).toEqual({ seed, step, frame: expected });
      }
      app.unmount();
    }
  });
});
