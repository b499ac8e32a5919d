/**
 * The sidebar as a flat list of rows: the built-in views, channel folders
 * (collapsible) with their channels, the expanded channel's topics, and DM
 * conversations. A filter keeps only the channels, topics and conversations
 * whose names contain it.
 */
import { narrowKey, type Narrow } from "../model/narrow.js";
import { dmRows, topicRows } from "../model/selectors.js";
import { folderSections } from "../model/selectors-views.js";
import { pinnedNavigationViews } from "../model/navigation-views.js";
import type { Store } from "../model/store.js";
import { sidebarScreens } from "./screens.js";

export type SidebarRow =
  | { kind: "header"; label: string }
  /** A row of the screen table; `list`: a list screen (the narrow is then only a placeholder). */
  | { kind: "view"; view: string; label: string; narrow: Narrow; unread: number; list: boolean }
  /** A custom navigation view the user pinned (the organization's or the user's own, from the server). */
  | { kind: "navView"; fragment: string; label: string; narrow: Narrow; unread: number }
  | { kind: "folder"; folderId: number; label: string; unread: number; collapsed: boolean; narrow: Narrow }
  | {
      kind: "channel";
      channelId: number;
      name: string;
      color: string;
      unread: number;
      muted: boolean;
      pinned: boolean;
      /** Which marker the channel gets (its glyph: render/glyphs.ts). */
      marker: ChannelMarker;
      expanded: boolean;
      narrow: Narrow;
    }
  | {
      kind: "topic";
      channelId: number;
      topic: string;
      label: string;
      unread: number;
      muted: boolean;
      followed: boolean;
      resolved: boolean;
      narrow: Narrow;
    }
  | { kind: "dm"; label: string; unread: number; narrow: Narrow }
  /** An organization's section (several accounts open: organizations.ts). */
  | { kind: "org"; key: string; label: string; unread: number; active: boolean; open: boolean; trouble: string | undefined };

/** Pseudo folder ids for the pinned section and channels in no folder. */
export const PINNED_SECTION = -1;
export const OTHER_SECTION = -2;

export interface SidebarOptions {
  expanded?: number;
  filter?: string | null;
  collapsedFolders?: number[];
}

export type ChannelMarker = "archived" | "private" | "webPublic" | "public";

export function channelMarker(c: { archived: boolean; private: boolean; webPublic: boolean }): ChannelMarker {
  return c.archived ? "archived" : c.private ? "private" : c.webPublic ? "webPublic" : "public";
}

export function buildSidebarRows(store: Store, o: SidebarOptions | number | undefined = {}): SidebarRow[] {
  const opts: SidebarOptions = typeof o === "number" || o === undefined ? { expanded: o } : o;
  const filter = opts.filter?.trim().toLowerCase() || "";
  const matches = (s: string) => !filter || s.toLowerCase().includes(filter);
  const rows: SidebarRow[] = [];
  if (!filter) {
    for (const { screen, count } of sidebarScreens(store)) {
      rows.push({ kind: "view", view: screen.id, label: screen.label, narrow: screen.narrow ?? { kind: "feed" }, unread: count.unread, list: !screen.narrow });
    }
    for (const v of pinnedNavigationViews(store)) {
      if (v.builtIn || !v.opens || !("narrow" in v.opens)) continue;
      rows.push({ kind: "navView", fragment: v.fragment, label: v.name, narrow: v.opens.narrow, unread: narrowUnread(store, v.opens.narrow) });
    }
  }
  for (const section of folderSections(store)) {
    const folderId = section.kind === "pinned" ? PINNED_SECTION : section.kind === "other" ? OTHER_SECTION : section.folder!.id;
    const collapsed = !filter && (opts.collapsedFolders ?? []).includes(folderId);
    const channels = section.channels.filter((c) => matches(c.name) || (filter && topicRows(store, c.channelId).some((t) => matches(t.displayName))));
    if (filter && channels.length === 0) continue;
    rows.push({ kind: "folder", folderId, label: section.label.toUpperCase(), unread: section.unread, collapsed, narrow: { kind: "feed" } });
    if (collapsed) continue;
    for (const c of channels) {
      const expanded = c.channelId === opts.expanded || (filter !== "" && !matches(c.name));
      rows.push({
        kind: "channel",
        channelId: c.channelId,
        name: c.name,
        color: c.color,
        unread: c.unread,
        muted: c.muted,
        pinned: c.pinned,
        marker: channelMarker(c),
        expanded,
        narrow: { kind: "channel", channelId: c.channelId },
      });
      if (!expanded) continue;
      for (const t of topicRows(store, c.channelId)) {
        if (filter && !matches(c.name) && !matches(t.displayName)) continue;
        rows.push({
          kind: "topic",
          channelId: c.channelId,
          topic: t.topic,
          label: t.displayName,
          unread: t.unread,
          muted: t.muted,
          followed: t.followed ?? false,
          resolved: t.resolved,
          narrow: { kind: "topic", channelId: c.channelId, topic: t.topic },
        });
      }
    }
  }
  const dms = dmRows(store).filter((d) => matches(d.names));
  if (dms.length) {
    rows.push({ kind: "header", label: "DIRECT MESSAGES" });
    for (const d of dms) rows.push({ kind: "dm", label: d.names, unread: d.unread, narrow: { kind: "dm", userIds: d.userIds } });
  }
  return rows;
}

/** Unread messages of a pinned view's narrow, where the unreads tell them at once (else none shown). */
function narrowUnread(store: Store, n: Narrow): number {
  if (n.kind === "channel") return store.unreads.countInChannel(n.channelId);
  if (n.kind === "topic") return store.unreads.idsInTopic(n.channelId, n.topic).length;
  return 0;
}

/** Moves a cursor by `delta` rows, skipping headers, clamped to the list. */
export function moveCursor(rows: SidebarRow[], from: number, delta: number): number {
  if (rows.length === 0) return 0;
  let i = Math.max(0, Math.min(rows.length - 1, from));
  const step = delta < 0 ? -1 : 1;
  if (rows[i]?.kind === "header") {
    let j = i;
    while (j >= 0 && j < rows.length && rows[j]?.kind === "header") j += step;
    if (j >= 0 && j < rows.length) i = j;
  }
  let left = Math.abs(delta);
  while (left > 0) {
    let j = i + step;
    while (j >= 0 && j < rows.length && rows[j]?.kind === "header") j += step;
    if (j < 0 || j >= rows.length) break;
    i = j;
    left--;
  }
  return i;
}

/** A row's identity, stable across rebuilds of the list: the open view or narrow it stands for. */
export function sidebarRowKey(row: SidebarRow): string {
  if (row.kind === "header") return `h:${row.label}`;
  if (row.kind === "folder") return `f:${row.folderId}`;
  if (row.kind === "org") return `org:${row.key}`;
  if (row.kind === "view" && row.list) return `view:${row.view}`;
  return narrowKey(row.narrow);
}

/**
 * Whether a row matches the filter by its own name. A channel shown only
 * because some of its topics match does not: it is there to say where they are.
 */
export function rowMatches(row: SidebarRow, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  const has = (s: string) => s.toLowerCase().includes(f);
  switch (row.kind) {
    case "channel":
      return has(row.name);
    case "topic":
      return has(row.label);
    case "dm":
    case "view":
    case "navView":
      return has(row.label);
    default:
      return false;
  }
}

/** The first row a filter leads to: a channel, topic or conversation whose name matches (not a folder heading, nor the channel of a matching topic). */
export function firstMatchIndex(rows: SidebarRow[], filter = ""): number {
  const i = rows.findIndex((r) => r.kind !== "header" && r.kind !== "folder" && rowMatches(r, filter));
  return i >= 0 ? i : Math.max(0, rows.findIndex((r) => r.kind !== "header" && r.kind !== "folder"));
}

/**
 * The filter's one cursor: the row the user moved to (by its key, so rows
 * that arrive meanwhile — topics fetched for the filter — do not shift it),
 * else the first match.
 */
export function filterCursor(rows: SidebarRow[], filter: string, pick: string | undefined): number {
  if (pick !== undefined) {
    const i = rows.findIndex((r) => sidebarRowKey(r) === pick);
    if (i >= 0) return i;
  }
  return firstMatchIndex(rows, filter);
}

/** The sidebar's width: narrower in a narrow terminal, so 80 columns leave room for messages. */
export function sidebarWidth(columns: number): number {
  return columns < 100 ? 22 : columns < 140 ? 30 : 34;
}
