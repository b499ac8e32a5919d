/**
 * The upkeep that follows what the user is looking at: the screen tells the
 * account runtime what it shows (`set`), and the runtime keeps the open
 * narrow loaded (again after a rebuild, or when the model marked it stale),
 * the expanded channel's topics (every channel's while the sidebar filter is
 * open), the server's verdict on messages that may belong to a search, older
 * (newer) messages when the reader reaches the first (last) one loaded, where
 * the reader is (the budget trims the open list only away from it), the
 * local cache's note of the open view, and marks read what the reader has
 * seen (pane-upkeep.ts decides which).
 *
 * Each piece runs again only when what it depends on changed, as a screen's
 * effects would: a list that failed to load is not asked for again on every
 * change of the store, only when the view or the store is new.
 */
import { narrowKey, type Narrow } from "../../model/narrow.js";
import { markReadPolicy } from "../../model/read-policy.js";
import { folderSections } from "../../model/selectors-views.js";
import type { Store } from "../../model/store.js";
import type { Commands } from "../commands.js";
import { idsToMarkRead, ReadMarks, wantsNewer, wantsOlder, type PaneFocus } from "./pane-upkeep.js";

export type { PaneFocus } from "./pane-upkeep.js";

/** What the screen shows of one account, as far as the upkeep needs to know. */
export interface ViewInput {
  /** The open narrow (undefined in the Inbox and other list views). */
  narrow: Narrow | undefined;
  focus: PaneFocus;
  /** The channel whose topics the sidebar shows. */
  expandedChannel: number | undefined;
  /** The sidebar filter is open: it searches the topics of every channel in the sidebar. */
  filtering: boolean;
  /** The selected message's place among the narrow's loaded messages, and how many there are. */
  selectedIndex: number;
  count: number;
  /** Messages wholly on screen (not merely loaded, nor cut at the pane's edge). */
  shown: readonly number[];
  /** A popup covers the message pane. */
  covered: boolean;
  /** The view is where the reader asked to be (not on its way to the newest message). */
  settled: boolean;
}

export const NO_VIEW: Readonly<ViewInput> = {
  narrow: undefined,
  focus: "sidebar",
  expandedChannel: undefined,
  filtering: false,
  selectedIndex: -1,
  count: 0,
  shown: [],
  covered: false,
  settled: false,
};

export type UpkeepCommands = Pick<Commands, "loadNarrow" | "fetchTopics" | "fetchTopicsOf" | "checkNarrowMatches" | "fetchOlder" | "fetchNewer" | "markRead">;

export interface ViewUpkeepDeps {
  store(): Store | undefined;
  /** The store is the server's, not the local cache's from the last run (nothing is marked read from that). */
  live(store: Store): boolean;
  commands: UpkeepCommands;
  /** The open narrow, for the local cache (the next start opens it). */
  noteView?(narrow: Narrow | undefined): void;
}

/** Runs `fn` when `deps` differ from those of its last run (each compared with Object.is). */
class Step {
  private last: readonly unknown[] | undefined;

  run(deps: readonly unknown[], fn: () => void): void {
    const last = this.last;
    if (last && last.length === deps.length && last.every((d, i) => Object.is(d, deps[i]))) return;
    this.last = deps;
    fn();
  }
}

export class ViewUpkeep {
  private view: ViewInput = NO_VIEW;
  private shownKey = "";
  private readonly marks = new ReadMarks();
  private readonly steps = {
    cache: new Step(),
    load: new Step(),
    topics: new Step(),
    allTopics: new Step(),
    matches: new Step(),
    reader: new Step(),
    older: new Step(),
    newer: new Step(),
    read: new Step(),
  };

  constructor(private readonly deps: ViewUpkeepDeps) {}

  /** What the screen shows now (the parts not given stay as they were). */
  set(v: Partial<ViewInput>): void {
    this.view = { ...this.view, ...v };
    this.shownKey = this.view.shown.join(",");
    this.run();
  }

  get current(): Readonly<ViewInput> {
    return this.view;
  }

  /**
   * A new store replaced the old one: what the screen showed was the old store's, so nothing
   * counts as seen until the screen says what it shows now.
   */
  storeReplaced(): void {
    this.view = { ...this.view, shown: [], settled: false };
    this.shownKey = "";
    this.run();
  }

  /** Runs every piece whose inputs changed (the store's content among them). */
  run(): void {
    const { commands } = this.deps;
    const store = this.deps.store();
    const v = this.view;
    const narrow = v.narrow;
    const key = narrow ? narrowKey(narrow) : undefined;
    const version = store?.version ?? -1;
    const list = store && narrow ? store.messages.list(narrow) : undefined;
    const s = this.steps;
    s.cache.run([key], () => this.deps.noteView?.(narrow));
    s.load.run([store, key, list?.stale], () => {
      if (store && narrow) void commands.loadNarrow(narrow);
    });
    s.topics.run([store, v.expandedChannel, version], () => {
      if (store && v.expandedChannel !== undefined) void commands.fetchTopics(v.expandedChannel);
    });
    s.allTopics.run([store, v.filtering], () => {
      if (store && v.filtering) void commands.fetchTopicsOf(folderSections(store).flatMap((f) => f.channels.map((c) => c.channelId)));
    });
    s.matches.run([store, version], () => {
      if (store) void commands.checkNarrowMatches();
    });
    s.reader.run([store, key, v.shown[0]], () => {
      if (store && narrow && v.shown[0] !== undefined) store.messages.noteReader(narrow, v.shown[0]);
    });
    s.older.run([v.focus, v.selectedIndex, list, key], () => {
      if (narrow && wantsOlder({ focus: v.focus, narrow, selectedIndex: v.selectedIndex, list })) void commands.fetchOlder(narrow);
    });
    s.newer.run([v.focus, v.selectedIndex, v.count, list, key], () => {
      if (narrow && wantsNewer({ focus: v.focus, narrow, selectedIndex: v.selectedIndex, count: v.count, list })) void commands.fetchNewer(narrow);
    });
    if (!store) return;
    const policy = markReadPolicy(store.personal.settings);
    const live = this.deps.live(store);
    s.read.run([this.shownKey, store, version, policy, v.focus, key, v.covered, live, v.settled], () => {
      const ids = idsToMarkRead({ focus: v.focus, narrow, shown: v.shown, isUnread: (id) => store.unreads.has(id), policy, covered: v.covered, live, settled: v.settled });
      const fresh = this.marks.take(key ?? "", ids);
      if (fresh.length) commands.markRead(fresh);
    });
  }
}
