/**
 * The UI's own state — what the user is looking at and doing, as opposed to
 * server state in the store. A pure reducer, so it survives store rebuilds
 * and is tested without a terminal.
 */
import { FEED, narrowKey, type Narrow } from "../model/narrow.js";
import type { SendTarget } from "../sync/account-handle.js";
import type { ThemeName } from "../config/settings.js";
import { SPECTATOR_SELF_ID, type Store } from "../model/store.js";

export type Focus = "sidebar" | "messages" | "compose";

/** A narrow of messages, or a list screen of the screen table (src/ui/screens.tsx) by its id. */
export type View = { kind: "narrow"; narrow: Narrow } | { kind: "screen"; id: string };

export interface Selection {
  /** The selected message; undefined: not chosen yet (first unread, else newest). */
  id?: number;
  /** Keep the newest message selected as new ones arrive. */
  follow: boolean;
  /** Nothing chosen yet in this narrow: start at the first unread message. */
  initial?: boolean;
}

/** Editing an existing message: which one, and (channel messages) where it moves to and how. */
export interface EditingState {
  messageId: number;
  topic?: string;
  /** Set when it moves to another channel. */
  channelId?: number;
  propagateMode?: "change_one" | "change_later" | "change_all";
}

export interface ComposeState {
  /** undefined while a new topic's name is being asked for. */
  target: SendTarget;
  label: string;
  /** Draft key of the conversation (see sync/draft-journal). */
  key: string;
  /** Editing an existing message instead of sending a new one. */
  editing?: EditingState;
  error?: string;
}

export interface UiState {
  focus: Focus;
  view: View;
  selection: Record<string, Selection>;
  /** `pick`: while filtering, the key of the row the user moved to (else the cursor is on the first match). */
  sidebar: { cursor: number; expanded?: number; filter: string | null; pick?: string; collapsedFolders: number[] };
  compose?: ComposeState;
  notice?: { text: string; kind: "info" | "error" };
  /** Narrow keys whose spoilers are open, per message id. */
  openSpoilers: number[];
  /** Long messages shown whole (the others are condensed), by message id. */
  expanded: number[];
  /** List screens (Inbox, Followed topics…): the cursor (a row key and its last index) and folded channels, by view. */
  lists: Record<string, ListState>;
  /** The colour theme chosen at run time (T); undefined: the one from settings. */
  theme?: ThemeName;
  /** The mouse turned on or off at run time (m); undefined: as the settings say. */
  mouse?: boolean;
  /** The picture of a message opened last (v opens its next one when asked again on the same message). */
  image?: { messageId: number; index: number };
}

export interface ListState {
  cursor?: string;
  index?: number;
  collapsed?: number[];
}

export type UiAction =
  | { type: "focus"; focus: Focus }
  | { type: "open"; narrow: Narrow; focus?: Focus; select?: number }
  | { type: "screen"; id: string }
  | { type: "home"; home: "inbox" | "feed"; cursor: number }
  | { type: "select"; id: number | undefined; follow: boolean }
  /** Where a view just opened landed (its first unread or newest message), kept unless something was chosen meanwhile. */
  | { type: "land"; key: string; id: number; follow: boolean }
  | { type: "sidebar"; cursor?: number; expanded?: number | null; filter?: string | null; pick?: string | null }
  | { type: "toggleFolder"; folderId: number }
  | { type: "compose"; compose: ComposeState | undefined }
  | { type: "composeError"; error: string | undefined }
  | { type: "notice"; text: string; kind?: "info" | "error" }
  | { type: "clearNotice" }
  | { type: "toggleSpoiler"; messageId: number }
  | { type: "toggleExpanded"; messageId: number }
  | { type: "list"; view: string; state: ListState }
  | { type: "theme"; theme: ThemeName }
  | { type: "mouse"; on: boolean }
  | { type: "image"; messageId: number; index: number };

export const INITIAL_UI: UiState = {
  focus: "sidebar",
  view: { kind: "narrow", narrow: FEED },
  selection: {},
  sidebar: { cursor: 0, filter: null, collapsedFolders: [] },
  openSpoilers: [],
  expanded: [],
  lists: {},
};

/**
 * Where the client opens. "home" follows the account's home view setting (web_home_view):
 * "inbox" and "recent_topics" (a conversation list, which we show as the Inbox) open the
 * Inbox, "all_messages" the combined feed. A spectator has no setting and nothing unread:
 * the combined feed (every web-public channel).
 */
export function homeView(store: Pick<Store, "personal" | "selfId">, start: "home" | "inbox" | "feed" = "home"): "inbox" | "feed" {
  if (start !== "home") return start;
  if (store.selfId === SPECTATOR_SELF_ID) return "feed";
  return store.personal.settings.web_home_view === "all_messages" ? "feed" : "inbox";
}

export function currentNarrow(s: UiState): Narrow | undefined {
  return s.view.kind === "narrow" ? s.view.narrow : undefined;
}

export function selectionOf(s: UiState, narrow: Narrow): Selection {
  return s.selection[narrowKey(narrow)] ?? { follow: true, initial: true };
}

export function uiReducer(s: UiState, a: UiAction): UiState {
  switch (a.type) {
    case "focus":
      return s.focus === a.focus ? s : { ...s, focus: a.focus };
    case "open": {
      // Opened at a message, or afresh: at its first unread (or newest) message as it is now.
      const key = narrowKey(a.narrow);
      const selection = { ...s.selection };
      if (a.select !== undefined) selection[key] = { id: a.select, follow: false };
      else delete selection[key];
      return { ...s, view: { kind: "narrow", narrow: a.narrow }, focus: a.focus ?? s.focus, selection };
    }
    case "land":
      return s.selection[a.key] ? s : { ...s, selection: { ...s.selection, [a.key]: { id: a.id, follow: a.follow } } };
    case "screen":
      return { ...s, view: { kind: "screen", id: a.id }, focus: "messages" };
    case "home":
      return a.home === "inbox"
        ? { ...s, view: { kind: "screen", id: "inbox" }, focus: "messages", sidebar: { ...s.sidebar, cursor: a.cursor } }
        : { ...s, view: { kind: "narrow", narrow: FEED }, focus: "sidebar", sidebar: { ...s.sidebar, cursor: a.cursor } };
    case "select": {
      const narrow = currentNarrow(s);
      if (!narrow) return s;
      return { ...s, selection: { ...s.selection, [narrowKey(narrow)]: { id: a.id, follow: a.follow } } };
    }
    case "sidebar": {
      const next = { ...s.sidebar };
      if (a.cursor !== undefined) next.cursor = a.cursor;
      if (a.expanded !== undefined) next.expanded = a.expanded ?? undefined;
      if (a.filter !== undefined) next.filter = a.filter;
      if (a.pick !== undefined) next.pick = a.pick ?? undefined;
      if (next.filter === null) next.pick = undefined;
      return { ...s, sidebar: next };
    }
    case "toggleFolder": {
      const has = s.sidebar.collapsedFolders.includes(a.folderId);
      const collapsedFolders = has ? s.sidebar.collapsedFolders.filter((f) => f !== a.folderId) : [...s.sidebar.collapsedFolders, a.folderId];
      return { ...s, sidebar: { ...s.sidebar, collapsedFolders } };
    }
    case "compose":
      return { ...s, compose: a.compose, focus: a.compose ? "compose" : s.focus === "compose" ? "messages" : s.focus };
    case "composeError":
      return s.compose ? { ...s, compose: { ...s.compose, error: a.error } } : s;
    case "notice":
      return { ...s, notice: { text: a.text, kind: a.kind ?? "info" } };
    case "theme":
      return { ...s, theme: a.theme };
    case "mouse":
      return { ...s, mouse: a.on };
    case "image":
      return { ...s, image: { messageId: a.messageId, index: a.index } };
    case "clearNotice":
      return s.notice ? { ...s, notice: undefined } : s;
    case "list":
      return { ...s, lists: { ...s.lists, [a.view]: { ...s.lists[a.view], ...a.state } } };
    case "toggleSpoiler": {
      const open = s.openSpoilers.includes(a.messageId);
      return { ...s, openSpoilers: open ? s.openSpoilers.filter((m) => m !== a.messageId) : [...s.openSpoilers, a.messageId] };
    }
    case "toggleExpanded": {
      const whole = s.expanded.includes(a.messageId);
      return { ...s, expanded: whole ? s.expanded.filter((m) => m !== a.messageId) : [...s.expanded, a.messageId] };
    }
  }
}
