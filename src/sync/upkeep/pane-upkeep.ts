/**
 * What the message pane asks of the sync layer as the reader moves: which
 * shown messages now count as read, and whether to fetch older or newer ones.
 */
import type { Narrow } from "../../model/narrow.js";
import { viewMarksRead, type MarkReadPolicy } from "../../model/read-policy.js";

export type PaneFocus = "sidebar" | "messages" | "compose";

export interface PaneReading {
  focus: PaneFocus;
  narrow: Narrow | undefined;
  /** Messages wholly on screen (see shownIds in ui/sticky-window.ts), not merely loaded or cut at an edge. */
  shown: Iterable<number>;
  isUnread(id: number): boolean;
  /** The user's setting (read-policy.ts). */
  policy: MarkReadPolicy;
  /** Something covers the pane (a popup): nothing in it is being read. */
  covered: boolean;
  /** The screen shows the server's state, not the local cache's from the last run. */
  live: boolean;
  /** The view is where the reader asked to be, not on its way there (the newest not loaded yet). */
  settled: boolean;
}

/**
 * Messages on screen count as read once the reader is in the pane, in a view
 * where their setting allows it; never from the sidebar, under a popup, from
 * the cache before the server has answered, or while the view is still moving.
 */
export function idsToMarkRead(o: PaneReading): number[] {
  if (o.focus === "sidebar" || !o.narrow || o.covered || !o.live || !o.settled) return [];
  if (!viewMarksRead(o.narrow, o.policy)) return [];
  return [...o.shown].filter((id) => o.isUnread(id));
}

/**
 * What was marked during one visit of a view, so each message is marked once
 * per visit: when state that says it is unread comes back while it stays on
 * screen (a rebuild after the event queue was lost, a change made elsewhere),
 * it is not marked again behind the reader's back.
 */
export class ReadMarks {
  private view = "";
  private readonly done = new Set<number>();

  /** The ids of `ids` not yet marked during this visit of `view`; they count as marked from now on. */
  take(view: string, ids: readonly number[]): number[] {
    if (view !== this.view) {
      this.view = view;
      this.done.clear();
    }
    const fresh = ids.filter((id) => !this.done.has(id));
    for (const id of fresh) this.done.add(id);
    return fresh;
  }
}

/** Reaching the top of a narrow whose oldest message is not loaded yet asks for older ones. */
export function wantsOlder(o: {
  focus: PaneFocus;
  narrow: Narrow | undefined;
  selectedIndex: number;
  list: { foundOldest: boolean } | undefined;
}): boolean {
  return o.focus === "messages" && o.narrow !== undefined && o.selectedIndex <= 0 && o.list !== undefined && !o.list.foundOldest;
}

/** Reaching the last loaded message of a narrow whose newest is not loaded yet asks for newer ones. */
export function wantsNewer(o: {
  focus: PaneFocus;
  narrow: Narrow | undefined;
  selectedIndex: number;
  count: number;
  list: { foundNewest: boolean } | undefined;
}): boolean {
  return o.focus !== "sidebar" && o.narrow !== undefined && o.count > 0 && o.selectedIndex >= o.count - 1 && o.list !== undefined && !o.list.foundNewest;
}
