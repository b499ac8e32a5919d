/**
 * Marks the messages on screen read, as the reader's setting allows it in the
 * open view (sync/screen/pane-upkeep.ts): only those shown whole, each once per
 * visit of the view, never in search results.
 */
import { useEffect, useMemo, useRef } from "react";
import { narrowKey, type Narrow } from "../../model/narrow.js";
import { markReadPolicy } from "../../model/read-policy.js";
import type { Store } from "../../model/store.js";
import type { Commands } from "../../sync/commands.js";
import { idsToMarkRead, ReadMarks, type PaneFocus } from "../../sync/screen/pane-upkeep.js";
import type { Block } from "../message-layout.js";
import { shownIds } from "../sticky-window.js";

export interface ReadingInput {
  store: Store | undefined;
  version: number;
  narrow: Narrow | undefined;
  focus: PaneFocus;
  /** The pane's window as MessagePane draws it: its blocks, the lines of the first one above it, the selection, its rows. */
  blocks: Block[];
  skip: number;
  selectedId: number | undefined;
  rows: number;
  /** A popup covers the pane. */
  covered: boolean;
  /** The store is the server's, not the local cache's. */
  live: boolean;
  /** The view is where the reader asked to be (not on its way to the newest message). */
  settled: boolean;
}

export function useReadMarking(commands: Pick<Commands, "markRead">, o: ReadingInput): void {
  const { store, version, narrow, focus, blocks, skip, selectedId, rows, covered, live, settled } = o;
  const marks = useRef(new ReadMarks());
  const shown = useMemo(() => shownIds(blocks, selectedId, rows, skip), [blocks, selectedId, rows, skip]);
  const policy = store ? markReadPolicy(store.personal.settings) : "never";
  useEffect(() => {
    if (!store) return;
    const ids = idsToMarkRead({ focus, narrow, shown, isUnread: (id) => store.unreads.has(id), policy, covered, live, settled });
    const fresh = marks.current.take(narrow ? narrowKey(narrow) : "", ids);
    if (fresh.length) commands.markRead(fresh);
  }, [shown, store, version, policy, focus, narrow, covered, live, settled, commands]);
}
