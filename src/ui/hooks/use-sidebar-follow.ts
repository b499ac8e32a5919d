/**
 * The sidebar's cursor follows the view or conversation opened from
 * elsewhere — a draft resumed, the Inbox, a search, a person's DM — so it
 * never stays on the one left behind: it moves to the open one's row (a
 * topic's channel shows its topics), or stays put when that has no row.
 * Opening from the sidebar itself leaves the cursor where it already is.
 */
import { useEffect } from "react";
import type { Store } from "../../model/store.js";
import type { ScreenActions } from "../contexts.js";
import { revealInSidebar } from "../features/navigation.js";
import { sidebarRowKey, type SidebarRow } from "../sidebar-rows.js";

export function useSidebarFollowsView(actions: ScreenActions | undefined, store: Store | undefined, openKey: string | undefined, rows: SidebarRow[]): void {
  useEffect(() => {
    if (!actions || openKey === undefined) return;
    const ctx = actions.now();
    if (ctx.ui.sidebar.filter !== null) return;
    const at = rows[ctx.ui.sidebar.cursor];
    if (at && sidebarRowKey(at) === openKey) return;
    revealInSidebar(ctx, ctx.ui.view.kind === "narrow" ? ctx.ui.view.narrow : `view:${ctx.ui.view.id}`);
    // Only a change of the open view moves the cursor (rows change on every render of the store); the user's own moves in the sidebar are theirs.
  }, [openKey, store]);
}
