/** The sidebar as a flat list of rows: views, channels (one expanded to its topics), DMs. */
import type { Narrow } from "../model/narrow.js";
import { channelRows, dmRows, feedUnreadCount, topicRows } from "../model/selectors.js";
import type { Store } from "../model/store.js";

export type SidebarRow =
  | { kind: "header"; label: string }
  | { kind: "view"; label: string; narrow: Narrow; unread: number }
  | {
      kind: "channel";
      channelId: number;
      name: string;
      color: string;
      unread: number;
      muted: boolean;
      pinned: boolean;
      marker: string;
      expanded: boolean;
      narrow: Narrow;
    }
  | { kind: "topic"; channelId: number; topic: string; label: string; unread: number; muted: boolean; resolved: boolean; narrow: Narrow }
  | { kind: "dm"; label: string; unread: number; narrow: Narrow };

export function buildSidebarRows(store: Store, expandedChannel: number | undefined): SidebarRow[] {
  const rows: SidebarRow[] = [{ kind: "view", label: "Combined feed", narrow: { kind: "feed" }, unread: feedUnreadCount(store) }];
  rows.push({ kind: "header", label: "CHANNELS" });
  for (const c of channelRows(store)) {
    const expanded = c.channelId === expandedChannel;
    rows.push({
      kind: "channel",
      channelId: c.channelId,
      name: c.name,
      color: c.color,
      unread: c.unread,
      muted: c.muted,
      pinned: c.pinned,
      marker: c.archived ? "⌫" : c.private ? "🔒" : c.webPublic ? "◎" : "#",
      expanded,
      narrow: { kind: "channel", channelId: c.channelId },
    });
    if (!expanded) continue;
    for (const t of topicRows(store, c.channelId)) {
      rows.push({
        kind: "topic",
        channelId: c.channelId,
        topic: t.topic,
        label: t.displayName,
        unread: t.unread,
        muted: t.muted,
        resolved: t.resolved,
        narrow: { kind: "topic", channelId: c.channelId, topic: t.topic },
      });
    }
  }
  const dms = dmRows(store);
  if (dms.length) {
    rows.push({ kind: "header", label: "DIRECT MESSAGES" });
    for (const d of dms) rows.push({ kind: "dm", label: d.names, unread: d.unread, narrow: { kind: "dm", userIds: d.userIds } });
  }
  return rows;
}

/** Moves a cursor by `delta` rows, skipping headers, clamped to the list. */
export function moveCursor(rows: SidebarRow[], from: number, delta: number): number {
  if (rows.length === 0) return 0;
  let i = Math.max(0, Math.min(rows.length - 1, from));
  const step = delta < 0 ? -1 : 1;
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
