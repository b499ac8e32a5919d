import { Box, Text } from "ink";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import type { SidebarRow } from "../sidebar-rows.js";

export interface SidebarProps {
  rows: SidebarRow[];
  cursor: number;
  width: number;
  height: number;
  focused: boolean;
  /** Key of the open narrow, to mark it. */
  openKey?: string;
  rowKey: (row: SidebarRow) => string;
}

/** Only the rows that fit are rendered; the window follows the cursor. */
export function Sidebar({ rows, cursor, width, height, focused, openKey, rowKey }: SidebarProps) {
  const start = Math.max(0, Math.min(cursor - Math.floor(height / 2), rows.length - height));
  const visible = rows.slice(start, start + height);
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0}>
      {visible.map((row, i) => {
        const index = start + i;
        return (
          <SidebarLine
            key={`${index}:${rowKey(row)}`}
            row={row}
            width={width - 1}
            selected={index === cursor}
            focused={focused}
            open={openKey !== undefined && rowKey(row) === openKey}
          />
        );
      })}
    </Box>
  );
}

function countText(n: number): string {
  return n > 0 ? (n > 999 ? "999+" : String(n)) : "";
}

function SidebarLine(p: { row: SidebarRow; width: number; selected: boolean; focused: boolean; open: boolean }) {
  const { row, width } = p;
  if (row.kind === "header") {
    return (
      <Text dimColor bold wrap="truncate">
        {truncate(row.label, width)}
      </Text>
    );
  }
  const count = countText(row.unread);
  let prefix = "";
  let label = "";
  let dim = false;
  let color: string | undefined;
  switch (row.kind) {
    case "view":
      prefix = "≡ ";
      label = row.label;
      break;
    case "channel":
      prefix = `${row.expanded ? "▾" : "▸"}${row.marker === "#" ? "#" : row.marker}`;
      label = sanitizeInline(row.name);
      dim = row.muted;
      color = /^#[0-9a-f]{6}$/i.test(row.color) ? row.color : undefined;
      break;
    case "topic":
      prefix = "  ";
      label = sanitizeInline(row.label);
      dim = row.muted;
      break;
    case "dm":
      prefix = "@ ";
      label = sanitizeInline(row.label);
      break;
  }
  const room = Math.max(1, width - displayWidth(prefix) - (count ? count.length + 1 : 0));
  const text = truncate(label, room);
  const pad = " ".repeat(Math.max(0, room - displayWidth(text)));
  const highlighted = p.selected && p.focused;
  return (
    <Text wrap="truncate" inverse={highlighted} dimColor={dim && !highlighted} bold={p.open || (row.unread > 0 && !dim)}>
      <Text color={highlighted ? undefined : color}>{prefix}</Text>
      {text}
      {pad}
      {count ? <Text color={highlighted ? undefined : "cyan"}>{" " + count}</Text> : null}
    </Text>
  );
}
