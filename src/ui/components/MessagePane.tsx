import { Box, Text } from "ink";
import type { Block, Line } from "../message-layout.js";
import { sanitizeInline } from "../../render/sanitize.js";

export interface MessagePaneProps {
  blocks: Block[];
  selectedId: number | undefined;
  unread: Set<number>;
  height: number;
  width: number;
  focused: boolean;
  placeholder?: string;
}

/** Which lines of the laid-out blocks to show so the selected block is visible. */
export function visibleLines(blocks: Block[], selectedId: number | undefined, height: number) {
  const rows: Array<{ line: Line; id: number; first: boolean }> = [];
  let selStart = 0;
  let selEnd = 0;
  for (const b of blocks) {
    if (b.id === selectedId) selStart = rows.length;
    b.lines.forEach((line, i) => rows.push({ line, id: b.id, first: i === 0 }));
    if (b.id === selectedId) selEnd = rows.length;
  }
  if (rows.length <= height) return rows;
  let start = Math.max(0, Math.min(selStart, rows.length - height));
  if (selEnd > start + height) start = selEnd - selStart > height ? selStart : selEnd - height;
  return rows.slice(start, start + height);
}

export function MessagePane({ blocks, selectedId, unread, height, width, focused, placeholder }: MessagePaneProps) {
  const rows = visibleLines(blocks, selectedId, height);
  return (
    <Box flexDirection="column" height={height} width={width} flexShrink={0}>
      {rows.length === 0 ? (
        <Text dimColor>{sanitizeInline(placeholder ?? "")}</Text>
      ) : (
        rows.map((r, i) => {
          const selected = r.id === selectedId;
          const gutter = selected ? (focused ? "▌" : "│") : unread.has(r.id) && r.line.style === "sender" ? "●" : " ";
          return (
            <Text key={i} wrap="truncate">
              <Text color={selected ? "cyan" : unread.has(r.id) ? "yellow" : undefined}>{gutter}</Text>
              <StyledLine line={r.line} />
            </Text>
          );
        })
      )}
    </Box>
  );
}

function StyledLine({ line }: { line: Line }) {
  switch (line.style) {
    case "day":
      return <Text dimColor>{`── ${line.text} ──`}</Text>;
    case "recipient":
      return (
        <Text color="blue" bold>
          {line.text}
        </Text>
      );
    case "sender":
      return <Text bold>{line.text}</Text>;
    case "reactions":
      return <Text color="magenta">{" " + line.text}</Text>;
    case "note":
      return <Text dimColor>{" " + line.text}</Text>;
    case "body":
      return <Text>{" " + line.text}</Text>;
  }
}
