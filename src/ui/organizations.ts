/**
 * Several organizations on one screen: each open account as a section of the
 * sidebar (its name, its unread total, and on its row what is wrong with its
 * connection: down, refused), the one on screen open with its own rows under
 * it (it folds like a channel folder), the others folded: Enter on one puts
 * it on screen. Pure: the summaries are read from the accounts' handles.
 */
import { feedUnreadCount } from "../model/selectors.js";
import type { AccountHandle, ConnectionState } from "../sync/account-handle.js";
import type { Store } from "../model/store.js";
import { buildSidebarRows, type SidebarOptions, type SidebarRow } from "./sidebar-rows.js";

/** The pseudo folder id of the open organization's section (folded with the channel folders' toggle). */
export const ORG_SECTION = -3;

export interface OrgSummary {
  key: string;
  name: string;
  /** The organization's own name, once it is known. */
  realm: string | undefined;
  unread: number;
  active: boolean;
  /** What the row says of the connection when it is not live (reconnecting, refused…). */
  trouble: string | undefined;
}

/** What the row of an account says while its first connection is under way (not a fault). */
export const CONNECTING = "connecting…";

/** A short word for a connection that is not live, for a sidebar row. */
export function troubleOf(state: ConnectionState, hasStore: boolean): string | undefined {
  switch (state.kind) {
    case "live":
      return undefined;
    case "connecting":
      return hasStore ? undefined : CONNECTING;
    case "reconnecting":
      // Why is in the status line once it is on screen; the row has room for the word only.
      return "offline";
    case "failed":
      // A refused key (revoked, or the user deactivated) in the words that fit a row; the rest as said.
      return /refused our credentials/.test(state.error) ? `key refused (${state.error.replace(/^.*?credentials:\s*/, "")})` : state.error;
    case "stopped":
      return "disconnected";
  }
}

export function summarize(handles: AccountHandle[], activeKey: string | undefined): OrgSummary[] {
  return handles.map((h) => {
    const store = h.store();
    return {
      key: h.key,
      name: h.name,
      realm: store?.realm.name,
      unread: store ? feedUnreadCount(store) : 0,
      active: h.key === activeKey,
      trouble: troubleOf(h.connection(), store !== undefined),
    };
  });
}

/** The organizations' sections around the open one's rows; one organization alone has no section. */
export function withOrganizations(rows: SidebarRow[], orgs: OrgSummary[] | undefined, collapsed: readonly number[] = []): SidebarRow[] {
  if (!orgs || orgs.length < 2) return rows;
  const open = !collapsed.includes(ORG_SECTION);
  const out: SidebarRow[] = [];
  for (const o of orgs) {
    out.push({ kind: "org", key: o.key, label: o.name, unread: o.unread, active: o.active, open: o.active && open, trouble: o.trouble });
    if (o.active && open) out.push(...rows);
  }
  return out;
}

/** The sidebar's rows: the account's own, inside the organizations' sections when there are several. */
export function sidebarRowsOf(store: Store, o: SidebarOptions, orgs: OrgSummary[] | undefined): SidebarRow[] {
  return withOrganizations(buildSidebarRows(store, o), orgs, o.collapsedFolders);
}

/** The next organization after the active one (`step` 1) or before it (-1), round. */
export function cycleKey(orgs: OrgSummary[], step: 1 | -1): string | undefined {
  if (orgs.length < 2) return undefined;
  const at = orgs.findIndex((o) => o.active);
  return orgs[(at + step + orgs.length) % orgs.length]?.key;
}
