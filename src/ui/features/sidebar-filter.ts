/**
 * The sidebar's own keys: `q` filters it by typing (the filter line on top
 * takes every printable key while it is open), `t` shows or hides the
 * selected channel's topics.
 */
import { narrowKey } from "../../model/narrow.js";
import type { ActionContext, Feature } from "../app-context.js";
import { typedText } from "../keys.js";
import { filterCursor, rowMatches, sidebarRowKey, type SidebarOptions, type SidebarRow } from "../sidebar-rows.js";
import { sidebarRowsOf } from "../organizations.js";

/**
 * What the filter keys last set, ahead of the next render: keys that arrive
 * together (typing fast, a paste) each build on the one before, none is lost.
 */
export interface FilterLive {
  filter: string | null;
  cursor: number;
  /** The row the user moved to (its key); undefined: the first match. */
  pick?: string;
}

function rowsFor(ctx: ActionContext, o: SidebarOptions): SidebarRow[] {
  const s = ctx.ui.sidebar;
  return sidebarRowsOf(ctx.store, { expanded: s.expanded, filter: s.filter, collapsedFolders: s.collapsedFolders, ...o }, ctx.organizations?.list());
}

function setFilter(ctx: ActionContext, live: FilterLive, filter: string): void {
  const cursor = filterCursor(rowsFor(ctx, { filter }), filter, undefined);
  live.filter = filter;
  live.cursor = cursor;
  live.pick = undefined;
  ctx.dispatch({ type: "sidebar", filter, cursor, pick: null });
}

/** The row under the filter's cursor. */
function pickedRow(ctx: ActionContext, live: FilterLive, filter: string): SidebarRow | undefined {
  const rows = rowsFor(ctx, { filter });
  return rows[filterCursor(rows, filter, live.pick)];
}

/**
 * Leaves filtering with the cursor on the same row in the whole list: the
 * channel of a chosen topic shows its topics, a folded folder that holds the
 * row unfolds.
 */
function closeFilter(ctx: ActionContext, live: FilterLive, row: SidebarRow | undefined): void {
  const s = ctx.ui.sidebar;
  const expanded = row?.kind === "topic" || row?.kind === "channel" ? row.channelId : s.expanded;
  let cursor = 0;
  if (row) {
    const key = sidebarRowKey(row);
    const find = (collapsedFolders: number[]) => rowsFor(ctx, { filter: null, expanded, collapsedFolders }).findIndex((r) => sidebarRowKey(r) === key);
    cursor = find(s.collapsedFolders);
    for (const f of s.collapsedFolders) {
      if (cursor >= 0) break;
      const without = s.collapsedFolders.filter((x) => x !== f);
      const at = find(without);
      if (at >= 0) {
        ctx.dispatch({ type: "toggleFolder", folderId: f });
        cursor = at;
      }
    }
    cursor = Math.max(0, cursor);
  }
  live.filter = null;
  live.cursor = cursor;
  live.pick = undefined;
  ctx.dispatch({ type: "sidebar", filter: null, cursor, expanded: expanded ?? null });
}

/** The next row up or down that matches by its own name (folder headings and the channels of matching topics are passed over). */
function nextMatch(rows: SidebarRow[], filter: string, from: number, step: -1 | 1): number {
  for (let i = from + step; i >= 0 && i < rows.length; i += step) {
    if (rowMatches(rows[i]!, filter)) return i;
  }
  return from;
}

/** Enter while filtering: open the highlighted row and leave filtering with it selected. */
function openFiltered(ctx: ActionContext, live: FilterLive, filter: string): void {
  const row = pickedRow(ctx, live, filter);
  closeFilter(ctx, live, row);
  if (!row || row.kind === "header" || row.kind === "folder") return;
  if (row.kind === "org") return ctx.organizations?.show(row.key);
  if (row.kind === "view" && row.list) ctx.dispatch({ type: "screen", id: row.view });
  else ctx.openNarrow(row.narrow, { focus: row.kind === "channel" ? "sidebar" : "messages" });
}

/**
 * A key while the filter is open. Returns false for keys it leaves to the
 * rest of the app (Tab, Ctrl-C…).
 */
export function handleFilterKey(ctx: ActionContext, live: FilterLive, name: string, input: string): boolean {
  const filter = live.filter;
  if (filter === null) return false;
  const action = ctx.keymap.action("sidebar.filter", name);
  switch (action) {
    case "sidebarFilter.close":
      closeFilter(ctx, live, pickedRow(ctx, live, filter));
      return true;
    case "sidebarFilter.open":
      openFiltered(ctx, live, filter);
      return true;
    case "sidebarFilter.erase":
      if (filter === "") closeFilter(ctx, live, pickedRow(ctx, live, filter));
      else setFilter(ctx, live, [...filter].slice(0, -1).join(""));
      return true;
    case "sidebarFilter.clear":
      setFilter(ctx, live, "");
      return true;
    case "sidebarFilter.up":
    case "sidebarFilter.down": {
      const rows = rowsFor(ctx, { filter });
      live.cursor = nextMatch(rows, filter, filterCursor(rows, filter, live.pick), action === "sidebarFilter.up" ? -1 : 1);
      const row = rows[live.cursor];
      live.pick = row ? sidebarRowKey(row) : undefined;
      ctx.dispatch({ type: "sidebar", cursor: live.cursor, pick: live.pick ?? null });
      return true;
    }
  }
  const typed = typedText(name, input);
  if (typed !== undefined) {
    setFilter(ctx, live, filter + typed);
    return true;
  }
  return false;
}

/** t: show or hide the topics of the channel under the cursor (or of the topic's channel), keeping the cursor on it. */
function toggleTopics(ctx: ActionContext): void {
  const row = ctx.sidebarRows[ctx.ui.sidebar.cursor];
  if (row?.kind !== "channel" && row?.kind !== "topic") return;
  const expanded = ctx.ui.sidebar.expanded === row.channelId ? undefined : row.channelId;
  const key = narrowKey({ kind: "channel", channelId: row.channelId });
  const cursor = rowsFor(ctx, { expanded }).findIndex((r) => sidebarRowKey(r) === key);
  ctx.dispatch({ type: "sidebar", expanded: expanded ?? null, cursor: cursor >= 0 ? cursor : undefined });
}

export const sidebarFeature: Feature = {
  name: "sidebar",
  bindings: [
    { action: "sidebarFilter", keys: ["q"], context: "sidebar", help: "Filter channels, topics and conversations by typing (Enter open, Esc clear)" },
    { action: "sidebarTopics", keys: ["t"], context: "sidebar", help: "Show or hide the selected channel's topics" },
  ],
  actions: {
    // An empty filter shows every row: the cursor stays where it is until something is typed.
    sidebarFilter: (ctx) => ctx.dispatch({ type: "sidebar", filter: ctx.ui.sidebar.filter ?? "" }),
    sidebarTopics: toggleTopics,
  },
};
