/**
 * Tells the account what the screen shows of it after every render that
 * changed it: the open narrow, where the focus is, the expanded channel, the
 * selection, the messages wholly on screen. The account keeps that loaded and
 * marks read what was seen (sync/upkeep/view-upkeep.ts); the screen only says.
 */
import { useEffect, useMemo } from "react";
import type { ViewInput } from "../../sync/account-handle.js";
import type { Block } from "../message-layout.js";
import { shownIds } from "../sticky-window.js";

/** What the account is told, with the pane's window in place of the messages shown whole (worked out here). */
export interface ViewReport extends Omit<ViewInput, "shown"> {
  /** The pane's window as MessagePane draws it: its blocks, the lines of the first one above it, the selection, its rows. */
  blocks: Block[];
  skip: number;
  selectedId: number | undefined;
  rows: number;
}

export function useViewReport(report: (v: Partial<ViewInput>) => void, o: ViewReport): void {
  const { narrow, focus, expandedChannel, filtering, selectedIndex, count, blocks, skip, selectedId, rows, covered, settled } = o;
  const shown = useMemo(() => shownIds(blocks, selectedId, rows, skip), [blocks, selectedId, rows, skip]);
  useEffect(
    () => report({ narrow, focus, expandedChannel, filtering, selectedIndex, count, shown, covered, settled }),
    [report, narrow, focus, expandedChannel, filtering, selectedIndex, count, shown, covered, settled],
  );
}
