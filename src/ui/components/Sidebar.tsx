import { Box, Text } from "ink";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import { useTheme } from "../theme.js";
import type { SidebarRow } from "../sidebar-rows.js";

export interface SidebarProps {
  rows: SidebarRow[];
  cursor: number;
  width: number;
  height: number;
  focused: boolean;
  /** Key of the open narrow or view, to mark it. */
  openKey?: string;
  rowKey: (row: SidebarRow) => string;
  /** The filter being typed, shown on top. */
  filter?: string | null;
}

/** Only the rows that fit are rendered; the window follows the cursor. */
export function Sidebar({ rows, cursor, width, height, focused, openKey, rowKey, filter }: SidebarProps) {
  const listHeight = filter !== null && filter !== undefined ? height - 1 : height;
  const start = Math.max(0, Math.min(cursor - Math.floor(listHeight / 2), rows.length - listHeight));
  const visible = rows.slice(start, start + listHeight);
  return (
    <Box flexDirection="column" width={width} height={height} flexShrink={0}>
      {filter !== null && filter !== undefined ? (
        <Text wrap="truncate" inverse>
          {truncate(`/ ${filter}▏`, width - 1).padEnd(width - 1)}
        </Text>
      ) : null}
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
      {rows.length === 0 ? <Text dimColor>{filter ? "Nothing matches." : ""}</Text> : null}
    </Box>
  );
}

function countText(n: number): string {
  return n > 0 ? (n > 999 ? "999+" : String(n)) : "";
}

function SidebarLine(p: { row: SidebarRow; width: number; selected: boolean; focused: boolean; open: boolean }) {
  const theme = useTheme();
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
  let suffix = "";
  let dim = false;
  let color: string | undefined;
  switch (row.kind) {
    case "view":
      prefix = "≡ ";
      label = row.label;
      break;
    case "folder":
      prefix = row.collapsed ? "▸ " : "▾ ";
      label = sanitizeInline(row.label);
      dim = true;
      break;
    case "channel":
      prefix = ` ${row.expanded ? "▾" : "▸"}${row.marker}`;
      label = sanitizeInline(row.name);
      dim = row.muted;
      color = theme.channelColors && /^#[0-9a-f]{6}$/i.test(row.color) ? row.color : theme.accent;
      break;
    case "topic":
      prefix = row.resolved ? "   ✔ " : "    ";
      label = sanitizeInline(row.resolved ? row.label.replace(/^✔ /, "") : row.label);
      suffix = row.followed ? " ★" : row.muted ? " 🔇" : "";
      dim = row.muted;
      break;
    case "dm":
      prefix = "@ ";
      label = sanitizeInline(row.label);
      break;
  }
  const room = Math.max(1, width - displayWidth(prefix) - displayWidth(suffix) - (count ? count.length + 1 : 0));
  const text = truncate(label, room);
  const pad = " ".repeat(Math.max(0, room - displayWidth(text)));
  const highlighted = p.selected && p.focused;
  const marked = p.selected && !p.focused;
  return (
    <Text wrap="truncate" inverse={highlighted} underline={marked} dimColor={dim && !highlighted} bold={p.open || (row.unread > 0 && !dim)}>
      <Text color={highlighted ? undefined : color}>{prefix}</Text>
      {text}
      {suffix}
      {pad}
      {count ? <Text color={highlighted ? undefined : theme.count}>{" " + count}</Text> : null}
    </Text>
  );
}
