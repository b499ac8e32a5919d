/**
 * The sidebar: views with counts, folders (▾ open, ▸ folded), channels in
 * their subscription colour with their markers (# public, 🔒 private,
 * ◎ web-public, ⌫ archived), the expanded channel's topics (✔ resolved,
 * ★ followed, 🔇 muted), DM conversations; the glyphs are those of
 * render/glyphs.ts (ASCII ones on terminals without Unicode). Muted rows are
 * dimmed. The gutter carries the marks of every list (RowMark.tsx): the
 * cursor's row (inverse while the sidebar has the keys), else the open view
 * or narrow, else the cursor's dim mark. While filtering (q) a filter line
 * sits on top and takes the typed keys, and the cursor is the only mark: it
 * is what Enter opens (the open view's mark would be a second cursor).
 * With several accounts open, each organization is a section (organizations.ts):
 * its name in the accent colour (the warning colour with what is wrong when
 * its connection is not live) and its unread total.
 */
import { Box, Text, type DOMElement } from "ink";
import { memo, useRef } from "react";
import { glyphs, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import { useScreenActions } from "../contexts.js";
import { handleFilterKey, type FilterLive } from "../features/sidebar-filter.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useHitRegion } from "../mouse/hit-map.js";
import { useRenderProbe } from "../render-probe.js";
import { useTheme } from "../theme.js";
import type { SidebarRow } from "../sidebar-rows.js";
import { CONNECTING } from "../organizations.js";
import { RowMark } from "./RowMark.js";

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

/**
 * Only the rows that fit are rendered; the window follows the cursor. It renders again only
 * when its props change (its rows, cursor, focus, size): a key elsewhere leaves it as it is.
 */
export const Sidebar = memo(function Sidebar({ rows, cursor, width, height, focused, openKey, rowKey, filter }: SidebarProps) {
  useRenderProbe("sidebar");
  const actions = useScreenActions();
  const filtering = filter !== null && filter !== undefined;
  // Decided on the latest UI state, not the rendered one: `q` and the text typed right after it
  // may arrive in one burst, before the filter line is even drawn.
  useKeypress((name, input) => {
    const now = actions.latest();
    if (now.focus !== "sidebar" || now.sidebar.filter === null) return false;
    const live: FilterLive = { filter: now.sidebar.filter, cursor: now.sidebar.cursor, pick: now.sidebar.pick };
    return handleFilterKey(actions.now(), live, name, input);
  }, { priority: 20 });

  const listHeight = Math.max(1, filtering ? height - 1 : height);
  const start = Math.max(0, Math.min(cursor - Math.floor(listHeight / 2), rows.length - listHeight));
  const visible = rows.slice(start, start + listHeight);
  const box = useRef<DOMElement>(null);
  useHitRegion({ kind: "sidebar", box, above: filtering ? 1 : 0, start, count: visible.length });
  return (
    <Box ref={box} flexDirection="column" width={width} height={height} flexShrink={0}>
      {filtering ? <FilterLine filter={filter} width={width - 1} focused={focused} /> : null}
      {visible.map((row, i) => {
        const index = start + i;
        return (
          <SidebarLine
            key={`${index}:${rowKey(row)}`}
            row={row}
            width={width - 1}
            selected={index === cursor}
            focused={focused}
            open={!filtering && openKey !== undefined && rowKey(row) === openKey}
          />
        );
      })}
      {rows.length === 0 ? <Text dimColor>{filtering ? " Nothing matches." : ""}</Text> : null}
    </Box>
  );
});

function FilterLine({ filter, width, focused }: { filter: string; width: number; focused: boolean }) {
  const theme = useTheme();
  const text = sanitizeInline(filter);
  const g = glyphs();
  const hint = focused && text === "" && width > 24 ? t(" type · Esc") : "";
  const shown = truncate(`q${g.prompt} ${text}${focused ? g.textCursor : ""}`, width - displayWidth(hint));
  return (
    <Text wrap="truncate" color={theme.accent} bold>
      {shown}
      <Text dimColor>{hint}</Text>
      {" ".repeat(Math.max(0, width - displayWidth(shown) - displayWidth(hint)))}
    </Text>
  );
}

function countText(n: number): string {
  return n > 0 ? (n > 999 ? "999+" : String(n)) : "";
}

interface Parts {
  prefix: string;
  label: string;
  suffix: string;
  dim: boolean;
  bold: boolean;
  color?: string;
}

function partsOf(row: Exclude<SidebarRow, { kind: "header" }>, channelColor: (c: string) => string | undefined): Parts {
  const g = glyphs();
  switch (row.kind) {
    case "view":
      return { prefix: `${g.view} `, label: row.label, suffix: "", dim: false, bold: false };
    case "navView":
      return { prefix: `${g.view} `, label: sanitizeInline(row.label), suffix: "", dim: false, bold: false };
    case "folder":
      return { prefix: `${row.collapsed ? g.collapsed : g.expanded} `, label: sanitizeInline(row.label), suffix: "", dim: true, bold: true };
    case "channel":
      return {
        prefix: `${row.expanded ? g.expanded : g.collapsed}${g[row.marker]}`,
        label: sanitizeInline(row.name),
        suffix: "",
        dim: row.muted,
        bold: false,
        color: channelColor(row.color),
      };
    case "topic":
      return {
        prefix: row.resolved ? `  ${g.resolved} ` : "    ",
        label: sanitizeInline(row.resolved ? row.label.replace(/^✔ /, "") : row.label),
        suffix: row.followed ? ` ${g.star}` : row.muted ? ` ${g.muted}` : "",
        dim: row.muted,
        bold: false,
      };
    case "dm":
      return { prefix: "@ ", label: sanitizeInline(row.label), suffix: "", dim: false, bold: false };
    case "org":
      // An organization's section: its name, and what is wrong with its connection, if anything.
      return {
        prefix: `${row.open ? g.expanded : g.collapsed} `,
        label: sanitizeInline(row.trouble ? `${row.label} ${row.trouble === CONNECTING ? "" : `${g.cross} `}${row.trouble}` : row.label),
        suffix: "",
        dim: false,
        bold: true,
      };
  }
}

function SidebarLine(p: { row: SidebarRow; width: number; selected: boolean; focused: boolean; open: boolean }) {
  useRenderProbe("sidebar row");
  const theme = useTheme();
  const { row, width } = p;
  if (row.kind === "header") {
    return (
      <Text dimColor bold wrap="truncate">
        {truncate(" " + row.label, width)}
      </Text>
    );
  }
  const parts = partsOf(row, (c) => theme.channel(c, "mark"));
  if (row.kind === "org") parts.color = row.trouble ? theme.warn : theme.accent;
  const count = countText(row.unread);
  const fixed = 1 + displayWidth(parts.prefix) + displayWidth(parts.suffix) + (count ? count.length + 1 : 0);
  const room = Math.max(1, width - fixed);
  const text = truncate(parts.label, room);
  const pad = " ".repeat(Math.max(0, room - displayWidth(text)));
  const highlighted = p.selected && p.focused;
  const dim = parts.dim && !highlighted;
  const mark = highlighted ? "selected" : p.open ? "open" : p.selected ? "selected" : "none";
  return (
    <Text wrap="truncate" inverse={highlighted} dimColor={dim} bold={p.open || parts.bold || (row.unread > 0 && !parts.dim)}>
      <RowMark kind={mark} focused={p.focused} inverse={highlighted} />
      <Text color={highlighted ? undefined : parts.color}>{parts.prefix}</Text>
      {row.kind === "org" && !highlighted ? <Text color={parts.color}>{text}</Text> : text}
      {parts.suffix}
      {pad}
      {count ? <Text color={highlighted || dim ? undefined : theme.count}>{" " + count}</Text> : null}
    </Text>
  );
}
