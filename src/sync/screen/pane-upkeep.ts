/**
 * What the message pane asks of the sync layer as the reader moves: which
 * shown messages now count as read, and whether to fetch older ones.
 */
import type { Narrow } from "../../model/narrow.js";

export type PaneFocus = "sidebar" | "messages" | "compose";

/**
 * Messages shown in the pane count as read once the reader is in the pane;
 * never from the sidebar, and never in search results.
 */
export function idsToMarkRead(o: { focus: PaneFocus; narrow: Narrow | undefined; shownUnread: Iterable<number> }): number[] {
  if (o.focus === "sidebar" || !o.narrow || o.narrow.kind === "search") return [];
  return [...o.shownUnread];
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
