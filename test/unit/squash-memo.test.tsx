/**
 * Ink's text squashing remembered per node (src/ui/ink-frame/squash-memo.ts): an unchanged node
 * is not squashed again, and every change to what its text is made of — a text child's value,
 * a child added or removed, a style's transform replaced, a nested node's text — gives the new
 * text. Then the same through Ink: rows whose styled text changes show the change.
 */
import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import { expect, it } from "vitest";
import { rememberSquashed } from "../../src/ui/ink-frame/squash-memo.js";

type Node = { nodeName: string; nodeValue?: string; childNodes?: Node[]; internal_transform?: (s: string) => string };

const text = (value: string): Node => ({ nodeName: "#text", nodeValue: value });
const styled = (transform: (s: string) => string, ...children: Node[]): Node => ({ nodeName: "ink-virtual-text", childNodes: children, internal_transform: transform });

it("squashes a node again only when what its text is made of changed", () => {
  let squashed = 0;
  // A squash as Ink's: children's texts joined, each styled child's transform applied.
  const squash: (n: Node) => string = rememberSquashed((n: Node) => {
    squashed++;
    return (n.childNodes ?? []).map((c) => (c.nodeName === "#text" ? c.nodeValue! : c.internal_transform!(squash(c)))).join("");
  });
  const upper = (s: string) => s.toUpperCase();
  const inner = text("world");
  const bold = styled(upper, inner);
  const row: Node = { nodeName: "ink-text", childNodes: [text("hello "), bold] };
  expect(squash(row)).toBe("hello WORLD");
  const once = squashed;
  expect(squash(row)).toBe("hello WORLD");
  expect(squashed).toBe(once);

  inner.nodeValue = "there";
  expect(squash(row)).toBe("hello THERE");
  bold.internal_transform = (s) => `*${s}*`;
  expect(squash(row)).toBe("hello *there*");
  row.childNodes!.push(text("!"));
  expect(squash(row)).toBe("hello *there*!");
  row.childNodes!.splice(0, 1);
  expect(squash(row)).toBe("*there*!");
  bold.childNodes!.push(text(" again"));
  expect(squash(row)).toBe("*there again*!");
});

it("through Ink: a row whose styled text or style changes shows it, the others stay", () => {
  const Row = ({ name, mark, color }: { name: string; mark: string; color?: string }) => (
    <Text>
      <Text color={color} bold>
        {mark}
      </Text>
      {` ${name}`}
    </Text>
  );
  const Screen = ({ marked, name }: { marked: number; name: string }) => (
    <Box flexDirection="column">
      {[0, 1, 2].map((i) => (
        <Row key={i} name={i === 1 ? name : `row ${i}`} mark={i === marked ? ">" : " "} color={i === marked ? "green" : undefined} />
      ))}
    </Box>
  );
  const app = render(<Screen marked={0} name="Ann" />);
  expect(app.lastFrame()).toContain("> row 0");
  app.rerender(<Screen marked={2} name="Ann" />);
  expect(app.lastFrame()).toContain("> row 2");
  expect(app.lastFrame()).toContain("  row 0");
  app.rerender(<Screen marked={2} name="Bo" />);
  expect(app.lastFrame()).toContain("  Bo");
  expect(app.lastFrame()).not.toContain("Ann");
  app.unmount();
});
