/**
 * The sidebar's cursor follows the view or conversation opened from
 * elsewhere — a draft resumed, the Inbox, a search, a person's DM — so it
 * never stays on the one left behind: it moves to the open one's row (a
 * topic's channel shows its topics), or stays put when that has no row.
 * Opening from the sidebar itself leaves the cursor where it already is.
 */
import { useEffect } from "react";
import type { ActionContext } from "../app-context.js";
import { revealInSidebar } from "../features/navigation.js";
import { sidebarRowKey, type SidebarRow } from "../sidebar-rows.js";

export function useSidebarFollowsView(ctx: ActionContext | undefined, openKey: string | undefined, rows: SidebarRow[]): void {
  useEffect(() => {
    if (!ctx || openKey === undefined) return;
    const now = ctx.latest();
    if (now.sidebar.filter !== null) return;
    const at = rows[now.sidebar.cursor];
    if (at && sidebarRowKey(at) === openKey) return;
    revealInSidebar({ ...ctx, ui: now }, now.view.kind === "narrow" ? now.view.narrow : `view:${now.view.kind}`);
    // Only a change of the open view moves the cursor (rows and context change on every render); the user's own moves in the sidebar are theirs.
  }, [openKey, ctx?.store]);
}
