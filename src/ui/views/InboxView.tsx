/**
 * The Inbox: unread conversations, direct messages first, then channels
 * (pinned first, then by the newest unread) with their topics. A cursor moves
 * over them (j/k and the other message-pane movement keys), Enter opens a
 * topic or conversation at its first unread (on a channel it folds or unfolds
 * its topics), M marks the selected conversation or channel read. Counts
 * follow the store live. The cursor is kept by conversation, so it stays put
 * while other rows come and go.
 */
import { Box, Text, type DOMElement } from "ink";
import { useMemo, useRef, type RefObject } from "react";
import type { Narrow } from "../../model/narrow.js";
import { narrowTitle } from "../../model/selectors.js";
import { inbox } from "../../model/selectors-views.js";
import { glyphs, presentResolved, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import { displayWidth, truncate } from "../../render/wrap.js";
import type { ActionContext } from "../app-context.js";
import { useFeatureContext, useScreenActions, useScreenState } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useHitRegion } from "../mouse/hit-map.js";
import { useStoreVersion } from "../hooks/use-store.js";
import { useTheme, type Theme } from "../theme.js";
import { RowMark } from "../components/RowMark.js";
import { listStep } from "../list/list-part.js";
import { cursorIn, inboxRows, selectableNear, type ListRow } from "../list-rows.js";

export type { ListRow } from "../list-rows.js";

/**
 * A cursor over a list view's rows, kept in the UI state by row key (and its
 * last index, for when that row goes away), with the movement keys of the
 * message pane, Enter to open and the mark-read key; and the mouse's clicks
 * and wheel (the view puts `box` on its box, its title one row above the
 * rows). Returns the cursor and the window of rows that fits `height`.
 */
export function useListCursor<R extends ListRow>(
  view: string,
  rows: R[],
  height: number,
  o: { active: boolean; onOpen(row: R): void; onMarkRead(row: R): void; scope?: string; onAction?(action: string, row: R | undefined): boolean },
): { cursor: number; start: number; visible: R[]; box: RefObject<DOMElement | null> } {
  const { ui, keymap } = useScreenState();
  const { dispatch } = useScreenActions();
  const cursor = cursorIn(rows, ui.lists[view] ?? {});
  // Keys that arrive before the next render build on each other.
  const live = useRef(cursor);
  live.current = cursor;
  const moveTo = (target: number) => {
    const next = selectableNear(rows, Math.max(0, Math.min(rows.length - 1, target)), target < live.current ? -1 : 1);
    if (next < 0) return;
    live.current = next;
    dispatch({ type: "list", view, state: { cursor: rows[next]!.key, index: next } });
  };
  useKeypress(
    (name) => {
      const action = keymap.action(o.scope ?? "screen", name);
      const row = rows[live.current];
      const target = listStep(action, live.current, rows.length, Math.max(1, height - 2));
      if (target !== undefined) {
        moveTo(target);
        return true;
      }
      if (action === "list.open") {
        if (row) o.onOpen(row);
        return true;
      }
      if (action !== undefined && o.onAction?.(action, row)) return true;
      if (keymap.action("messages", name) === "markRead") {
        if (row) o.onMarkRead(row);
        return true;
      }
      return false;
    },
    { priority: 10, active: o.active },
  );
  const start = Math.max(0, Math.min(cursor - Math.floor(height / 2), rows.length - height));
  const visible = rows.slice(start, start + height);
  const box = useRef<DOMElement>(null);
  const open = (index: number) => {
    const row = rows[index];
    if (!row?.selectable) return;
    moveTo(index);
    o.onOpen(row);
  };
  useHitRegion({ kind: "list", box, above: 1, start, count: visible.length, open, move: (delta) => moveTo(live.current + delta) });
  return { cursor, start, visible, box };
}

/** Marks a conversation or channel read on the server (the counts follow through its events). */
export function markConversationRead(ctx: Pick<ActionContext, "store" | "account" | "attempt">, narrow: Narrow): void {
  const title = sanitizeInline(narrowTitle(ctx.store, narrow));
  ctx.attempt(() => ctx.account.actions.markNarrowRead(narrow), `Marked ${title} as read`);
}

/** One list line: the gutter's mark (RowMark.tsx), text on the left, an optional mention mark and a count on the right. */
export function ListLine(p: {
  width: number;
  selected: boolean;
  focused: boolean;
  prefix?: string;
  prefixColor?: string;
  text: string;
  suffix?: string;
  count?: number;
  mention?: boolean;
  bold?: boolean;
  dim?: boolean;
  theme: Theme;
}) {
  const count = p.count ? (p.mention ? "@ " : "") + String(p.count) : "";
  const prefix = p.prefix ?? "";
  const suffix = p.suffix ?? "";
  const room = Math.max(1, p.width - 1 - displayWidth(prefix) - displayWidth(suffix) - (count ? displayWidth(count) + 2 : 1));
  const text = truncate(p.text, room);
  const pad = " ".repeat(Math.max(0, room - displayWidth(text)));
  const highlighted = p.selected && p.focused;
  return (
    <Text wrap="truncate" inverse={highlighted} bold={p.bold} dimColor={p.dim && !highlighted}>
      <RowMark kind={p.selected ? "selected" : "none"} focused={p.focused} inverse={highlighted} />
      <Text color={highlighted ? undefined : p.prefixColor}>{prefix}</Text>
      {text}
      {suffix}
      {pad}
      {count ? (
        <Text color={highlighted ? undefined : p.mention ? p.theme.mention : p.theme.count}>{"  " + count}</Text>
      ) : (
        " "
      )}
    </Text>
  );
}

const NONE_COLLAPSED: number[] = [];

export function InboxView({ width, height, focused }: { width: number; height: number; focused: boolean }) {
  const ctx = useFeatureContext();
  const theme = useTheme();
  const collapsed = ctx.ui.lists.inbox?.collapsed ?? NONE_COLLAPSED;
  // Computed once per store change, not per key press (in a big organization it is the costly part).
  const version = useStoreVersion(ctx.store);
  const data = useMemo(() => inbox(ctx.store), [ctx.store, version]);
  const rows = useMemo(() => inboxRows(data, collapsed), [data, collapsed]);
  const total = data.total;
  const listHeight = Math.max(1, height - 1);
  const { cursor, start, visible, box } = useListCursor("inbox", rows, listHeight, {
    active: focused && ctx.ui.focus === "messages",
    onOpen: (row) => {
      if (row.kind === "channel") {
        const next = row.collapsed ? collapsed.filter((c) => c !== row.channelId) : [...collapsed, row.channelId];
        ctx.dispatch({ type: "list", view: "inbox", state: { collapsed: next, cursor: row.key } });
      } else if (row.kind === "dm" || row.kind === "topic") ctx.openNarrow(row.narrow, { focus: "messages", select: ctx.store.firstUnreadIn(row.narrow) });
    },
    onMarkRead: (row) => {
      if (row.kind === "channel") markConversationRead(ctx, { kind: "channel", channelId: row.channelId });
      else if (row.kind === "dm" || row.kind === "topic") markConversationRead(ctx, row.narrow);
    },
  });
  const channelColor = (c: string) => theme.channel(c, "mark");
  const g = glyphs();
  return (
    <Box ref={box} flexDirection="column" width={width} height={height} flexShrink={0}>
      <Text wrap="truncate">
        <Text bold>Inbox</Text>
        <Text dimColor>{total ? t`  ${total} unread · Enter open · M mark read` : ""}</Text>
      </Text>
      {rows.length === 0 ? <Text dimColor>Nothing unread. You are all caught up.</Text> : null}
      {visible.map((row, i) => {
        const common = { width, selected: start + i === cursor, focused, theme };
        switch (row.kind) {
          case "section":
            return (
              <Text key={row.key} dimColor bold wrap="truncate">
                {row.label}
              </Text>
            );
          case "dm":
            return <ListLine key={row.key} {...common} prefix=" @ " text={sanitizeInline(row.names)} count={row.unread} mention={row.mentioned} bold />;
          case "channel":
            return (
              <ListLine
                key={row.key}
                {...common}
                prefix={`${row.collapsed ? g.collapsed : g.expanded} ${g.public}`}
                prefixColor={channelColor(row.color)}
                text={sanitizeInline(row.name)}
                count={row.unread}
                mention={row.mentioned}
                bold
              />
            );
          case "topic":
            return (
              <ListLine key={row.key} {...common} prefix="    " text={presentResolved(sanitizeInline(row.name))} suffix={row.followed ? ` ${g.star}` : ""} count={row.unread} mention={row.mentioned} />
            );
        }
      })}
    </Box>
  );
}
