/**
 * The rows of the list views (the Inbox, Followed topics) and where their
 * cursor is, worked out from the store and the UI state alone: the views draw
 * them, and the palette acts on the row under the cursor (its channel and
 * topic) without asking the view.
 */
import { narrowKey, type Narrow } from "../model/narrow.js";
import { followedTopics, inbox } from "../model/selectors-views.js";
import type { Store } from "../model/store.js";
import type { ListState, UiState } from "./ui-state.js";

export interface ListRow {
  key: string;
  /** Section headings are passed over by the cursor. */
  selectable: boolean;
}

/** The selectable row nearest `index`, looking first in the direction of `step`; -1 when none is. */
export function selectableNear<R extends ListRow>(rows: R[], index: number, step: 1 | -1): number {
  for (let i = index; i >= 0 && i < rows.length; i += step) if (rows[i]!.selectable) return i;
  for (let i = index; i >= 0 && i < rows.length; i -= step) if (rows[i]!.selectable) return i;
  return -1;
}

/** The cursor's row: the one it was on (by key), else the selectable row nearest its last index. */
export function cursorIn<R extends ListRow>(rows: R[], state: ListState): number {
  const at = rows.findIndex((r) => r.key === state.cursor);
  return at >= 0 ? at : selectableNear(rows, Math.min(state.index ?? 0, rows.length - 1), 1);
}

export type InboxRow = ListRow &
  (
    | { kind: "section"; label: string; unread: number }
    | { kind: "dm"; narrow: Narrow; names: string; unread: number; mentioned: boolean }
    | { kind: "channel"; channelId: number; name: string; color: string; unread: number; mentioned: boolean; collapsed: boolean }
    | { kind: "topic"; narrow: Narrow; name: string; unread: number; mentioned: boolean; followed: boolean }
  );

/** The Inbox's rows: direct messages, then channels with their topics (those of a folded channel left out). */
export function inboxRows(data: ReturnType<typeof inbox>, collapsed: readonly number[]): InboxRow[] {
  const rows: InboxRow[] = [];
  if (data.dms.length) {
    rows.push({ kind: "section", key: "section:dms", selectable: false, label: "DIRECT MESSAGES", unread: data.dms.reduce((n, d) => n + d.unread, 0) });
    for (const d of data.dms) {
      const narrow: Narrow = { kind: "dm", userIds: d.userIds };
      rows.push({ kind: "dm", key: narrowKey(narrow), selectable: true, narrow, names: d.names, unread: d.unread, mentioned: d.mentioned });
    }
  }
  if (data.channels.length) rows.push({ kind: "section", key: "section:channels", selectable: false, label: "CHANNELS", unread: data.total - (rows[0]?.unread ?? 0) });
  for (const c of data.channels) {
    const folded = collapsed.includes(c.channelId);
    rows.push({ kind: "channel", key: `channel:${c.channelId}`, selectable: true, channelId: c.channelId, name: c.name, color: c.color, unread: c.unread, mentioned: c.mentioned, collapsed: folded });
    if (folded) continue;
    for (const t of c.topics) {
      const narrow: Narrow = { kind: "topic", channelId: c.channelId, topic: t.topic };
      rows.push({ kind: "topic", key: narrowKey(narrow), selectable: true, narrow, name: t.displayName, unread: t.unread, mentioned: t.mentioned, followed: t.followed });
    }
  }
  return rows;
}

export type FollowedRow = ListRow & { narrow: Narrow; channel: string; color?: string; topic: string; unread: number };

/** Followed topics' rows: those with unread messages first, then the most recent. */
export function followedRows(store: Store): FollowedRow[] {
  return followedTopics(store).map((t): FollowedRow => {
    const narrow: Narrow = { kind: "topic", channelId: t.channelId, topic: t.topic };
    return { key: narrowKey(narrow), selectable: true, narrow, channel: t.channelName, color: store.channels.get(t.channelId)?.color, topic: t.displayName, unread: t.unread };
  });
}

/** The channel (and topic) under the cursor of the open list view; undefined in other views or on no such row. */
export function listTarget(store: Store, ui: UiState): { channelId: number; topic?: string } | undefined {
  if (ui.view.kind === "screen" && ui.view.id === "inbox") {
    const rows = inboxRows(inbox(store), ui.lists.inbox?.collapsed ?? []);
    const at = rows[cursorIn(rows, ui.lists.inbox ?? {})];
    if (at?.kind === "channel") return { channelId: at.channelId };
    return at?.kind === "topic" && at.narrow.kind === "topic" ? { channelId: at.narrow.channelId, topic: at.narrow.topic } : undefined;
  }
  if (ui.view.kind === "screen" && ui.view.id === "followed") {
    const rows = followedRows(store);
    const at = rows[cursorIn(rows, ui.lists.followed ?? {})]?.narrow;
    return at?.kind === "topic" ? { channelId: at.channelId, topic: at.topic } : undefined;
  }
  return undefined;
}
