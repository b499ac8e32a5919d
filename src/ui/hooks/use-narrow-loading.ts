/**
 * Keeps the open narrow loaded: loads it (again after a rebuild, or when the
 * model marked it stale), the expanded channel's topics (every channel's
 * while the sidebar filter is open), the server's verdict on messages that
 * may belong to it, and older (newer) messages when the reader reaches the
 * first (last) one loaded.
 */
import { useEffect } from "react";
import type { Narrow } from "../../model/narrow.js";
import { folderSections } from "../../model/selectors-views.js";
import type { Store } from "../../model/store.js";
import type { Commands } from "../../sync/commands.js";
import { wantsNewer, wantsOlder, type PaneFocus } from "../../sync/screen/pane-upkeep.js";

export type LoadingCommands = Pick<Commands, "loadNarrow" | "fetchTopics" | "fetchTopicsOf" | "checkNarrowMatches" | "fetchOlder" | "fetchNewer">;

export interface NarrowLoading {
  store: Store | undefined;
  version: number;
  narrow: Narrow | undefined;
  expandedChannel: number | undefined;
  focus: PaneFocus;
  selectedIndex: number;
  /** Messages loaded in the narrow. */
  count: number;
  /** The sidebar filter is open: it searches the topics of every channel in the sidebar. */
  filtering?: boolean;
}

export function useNarrowLoading(commands: LoadingCommands, o: NarrowLoading): void {
  const { store, version, narrow, expandedChannel, focus, selectedIndex, count, filtering } = o;
  const list = store && narrow ? store.messages.list(narrow) : undefined;
  useEffect(() => {
    if (store && narrow) void commands.loadNarrow(narrow);
  }, [store, narrow, commands, list?.stale]);
  useEffect(() => {
    if (store && expandedChannel !== undefined) void commands.fetchTopics(expandedChannel);
  }, [store, expandedChannel, commands, version]);
  useEffect(() => {
    if (store && filtering) void commands.fetchTopicsOf(folderSections(store).flatMap((s) => s.channels.map((c) => c.channelId)));
  }, [store, filtering, commands]);
  useEffect(() => {
    if (store) void commands.checkNarrowMatches();
  }, [store, version, commands]);
  useEffect(() => {
    if (narrow && wantsOlder({ focus, narrow, selectedIndex, list })) void commands.fetchOlder(narrow);
  }, [focus, selectedIndex, list, narrow, commands]);
  useEffect(() => {
    if (narrow && wantsNewer({ focus, narrow, selectedIndex, count, list })) void commands.fetchNewer(narrow);
  }, [focus, selectedIndex, count, list, narrow, commands]);
}
