/**
 * The screen table: every view the user can open by name, listed once. A row
 * says its id, its label, whether it has a row among the sidebar's views (in
 * the table's order), what it shows (a narrow of messages, or a list screen's
 * component), its key scope, its count in the sidebar and its palette entry.
 * The sidebar, the UI state, the open view, the palette and the finder all
 * read this table, so a new screen is a row here and a component, nothing
 * else: its component is drawn with the list part (src/ui/list/) and its keys
 * go in a scope "screen.<id>" that falls through to the list screens' keys.
 */
import type { ComponentType } from "react";
import type { Narrow } from "../model/narrow.js";
import { hiddenViews, VIEW_COUNTS, type ViewCount } from "../model/selectors-views.js";
import type { Store } from "../model/store.js";
import type { ActionContext } from "./app-context.js";
import type { PaletteCommand } from "./palette-commands-context.js";
import { FollowedView } from "./views/FollowedView.js";
import { InboxView } from "./views/InboxView.js";
import { RecentView } from "./views/RecentView.js";
import { scheduledRows } from "../model/selectors-personal.js";
import { openReminders } from "./popups/RemindersList.js";
import { openScheduledList } from "./popups/ScheduledList.js";
import { openSnippets } from "./popups/SnippetsList.js";

/** What a list screen is drawn with: its room and whether the keys are its. */
export interface ScreenProps {
  width: number;
  height: number;
  focused: boolean;
}

export interface ScreenEntry {
  id: string;
  label: string;
  /** A row among the sidebar's views (in the table's order). */
  sidebar: boolean;
  /** A view of messages: the narrow it opens. */
  narrow?: Narrow;
  /** A list screen: what draws it (with the list part). */
  component?: ComponentType<ScreenProps>;
  /** A screen over the others (a popup list): what opens it. */
  popup?: (ctx: ActionContext) => void;
  /** A list screen's own key scope ("screen.<id>", falling through to "screen" then "list"). */
  scope?: string;
  /** Its count in the sidebar. */
  count?: (store: Store) => ViewCount;
  /** Its entry in the command palette (also found by the finder): "Go to …". */
  palette?: string;
  /** What its palette entry says beside it (how many are waiting). */
  detail?: (store: Store) => string;
}

export const SCREENS: readonly ScreenEntry[] = [
  { id: "inbox", label: "Inbox", sidebar: true, component: InboxView, scope: "screen", count: VIEW_COUNTS.inbox, palette: "Go to the Inbox" },
  { id: "feed", label: "Combined feed", sidebar: true, narrow: { kind: "feed" }, count: VIEW_COUNTS.feed, palette: "Go to the combined feed" },
  { id: "dms", label: "Direct messages", sidebar: true, narrow: { kind: "all-dms" }, count: VIEW_COUNTS.dms, palette: "Go to all direct messages" },
  { id: "mentions", label: "Mentions", sidebar: true, narrow: { kind: "mentioned" }, count: VIEW_COUNTS.mentions, palette: "Go to mentions" },
  { id: "starred", label: "Starred messages", sidebar: true, narrow: { kind: "starred" }, count: VIEW_COUNTS.starred, palette: "Go to starred messages" },
  { id: "followed", label: "Followed topics", sidebar: true, component: FollowedView, scope: "screen", count: VIEW_COUNTS.followed, palette: "Go to followed topics" },
  // Not among the sidebar's rows (b, Ctrl-P and the palette open it): the sidebar's views stay as short as they were.
  { id: "recent", label: "Recent conversations", sidebar: false, component: RecentView, scope: "screen.recent", palette: "Go to recent conversations" },
  // Lists over the open view (W, ! and Ctrl-N reach them too).
  { id: "scheduled", label: "Scheduled messages", sidebar: false, popup: (c) => openScheduledList(c), scope: "popup.scheduled", palette: "Scheduled messages", detail: scheduledCount },
  { id: "reminders", label: "Reminders", sidebar: false, popup: (c) => openReminders(c), scope: "popup.reminders", palette: "Reminders", detail: (store) => `${store.scheduled.reminders.size} waiting` },
  { id: "snippets", label: "Saved snippets", sidebar: false, popup: (c) => openSnippets(c), scope: "popup.snippets", palette: "Saved snippets", detail: (store) => `${store.personal.savedSnippets.size} saved` },
];

function scheduledCount(store: Store): string {
  const rows = scheduledRows(store);
  const failed = rows.filter((r) => r.state === "failed").length;
  return `${rows.length} waiting${failed ? `, ${failed} failed` : ""}`;
}

const BY_ID: ReadonlyMap<string, ScreenEntry> = new Map(SCREENS.map((s) => [s.id, s]));

export function screenById(id: string): ScreenEntry | undefined {
  return BY_ID.get(id);
}

/** The sidebar's view rows, in order, with their counts. */
export function sidebarScreens(store: Store): Array<{ screen: ScreenEntry; count: ViewCount }> {
  // Screens that count alike (the inbox and the feed) share their count function: each runs once.
  const counted = new Map<(store: Store) => ViewCount, ViewCount>();
  const countOf = (count: (store: Store) => ViewCount) => counted.get(count) ?? counted.set(count, count(store)).get(count)!;
  return shownScreens(store).map((screen) => ({ screen, count: screen.count ? countOf(screen.count) : { unread: 0 } }));
}

/** The screens with a sidebar row for this account (a spectator's and unpinned views left out). */
function shownScreens(store: Store): ScreenEntry[] {
  const hidden = hiddenViews(store);
  return SCREENS.filter((s) => s.sidebar && !hidden.has(s.id));
}

/** Where a screen sits among the sidebar's rows (the home view's cursor); 0 when it has none. */
export function sidebarIndex(store: Store, id: string): number {
  return Math.max(0, shownScreens(store).findIndex((s) => s.id === id));
}

/** Opens a screen: its narrow in the message pane, or its list. */
export function openScreen(ctx: ActionContext, screen: ScreenEntry): void {
  if (screen.popup) screen.popup(ctx);
  else if (screen.narrow) ctx.openNarrow(screen.narrow, { focus: "messages" });
  else ctx.dispatch({ type: "screen", id: screen.id });
}

/** The palette's entries of the table: "Go to …" for every screen that has one. */
export function screenCommands(store: Store): PaletteCommand[] {
  return SCREENS.filter((s) => s.palette).map((s) => ({ id: `screen.${s.id}`, title: s.palette!, ...(s.detail && { detail: s.detail(store) }), run: (ctx) => openScreen(ctx, s) }));
}
