/**
 * The open organizations as the screen shows them (several accounts): each
 * one's name, unread total and connection, kept current from every account's
 * feed and the registry's, redrawn only when a summary changed; the
 * notifications of the organizations not on screen (named by their
 * organization); and the way to put another one on screen, with a
 * conversation of it open.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { Narrow } from "../../model/narrow.js";
import type { Store } from "../../model/store.js";
import type { AccountHandle, AccountsView, Note } from "../../sync/account-handle.js";
import type { Organizations } from "../app-context.js";
import { summarize, type OrgSummary } from "../organizations.js";

/** Per account: a narrow to open once it is on screen (asked for from another organization). */
const PENDING_OPEN = Symbol("organizations: the narrow to open");
type Pending = { narrow: Narrow | undefined };

export interface OrganizationsHooks {
  /** A notification of an organization not on screen. */
  otherNote(note: Note, org: string): void;
  /** Opens a narrow of the account on screen. */
  open(narrow: Narrow): void;
  /** Says something in the status line. */
  notice(text: string): void;
}

export function useOrganizations(
  accounts: AccountsView | undefined,
  active: AccountHandle,
  store: Store | undefined,
  hooks: OrganizationsHooks,
): { orgs: OrgSummary[] | undefined; control: Organizations | undefined } {
  const read = () => (accounts && accounts.list().length > 1 ? summarize(accounts.list(), active.key) : undefined);
  const [orgs, setOrgs] = useState(read);
  const live = useRef({ orgs, hooks });
  live.current = { orgs, hooks };
  useEffect(() => {
    if (!accounts) return;
    // What the screen drew: an account that changed between that render and now is drawn again.
    let shown = JSON.stringify(live.current.orgs);
    const refresh = () => {
      const now = read();
      const text = JSON.stringify(now);
      if (text === shown) return;
      shown = text;
      setOrgs(now);
    };
    // Each account's feed, followed through its handle: a reconnected account has a new one.
    const offs = new Map<AccountHandle, () => void>();
    const follow = () => {
      const now = accounts.list();
      for (const h of now) {
        if (offs.has(h)) continue;
        const off = h.subscribe((c) => {
          if (c.kind === "notify" && h.key !== active.key) live.current.hooks.otherNote(c.note, h.name);
          if (c.kind === "store" || c.kind === "changed" || c.kind === "connection") refresh();
        });
        offs.set(h, off);
      }
      for (const [h, off] of offs) {
        if (now.includes(h)) continue;
        off();
        offs.delete(h);
      }
      refresh();
    };
    follow();
    const offRegistry = accounts.subscribe(follow);
    return () => {
      offRegistry();
      for (const off of offs.values()) off();
    };
  }, [accounts, active]);

  // A narrow asked for before this account was on screen opens once its store is here.
  useEffect(() => {
    if (!store) return;
    const pending = active.keep<Pending>(PENDING_OPEN, () => ({ narrow: undefined }));
    if (!pending.narrow) return;
    live.current.hooks.open(pending.narrow);
    pending.narrow = undefined;
  }, [active, store]);

  const control = useMemo((): Organizations | undefined => {
    if (!accounts) return undefined;
    return {
      list: () => live.current.orgs ?? [],
      show(key, narrow) {
        if (key === active.key) {
          if (narrow) live.current.hooks.open(narrow);
          return;
        }
        const target = accounts.get(key);
        if (!target) return;
        // Nothing to draw yet (never connected, no cache): it stays where it is, and says why.
        if (!target.store()) {
          const why = summarize([target], active.key)[0]?.trouble;
          live.current.hooks.notice(`${target.name} has nothing to show yet${why ? ` (${why})` : ""}`);
          return;
        }
        if (narrow) target.keep<Pending>(PENDING_OPEN, () => ({ narrow: undefined })).narrow = narrow;
        accounts.setActive(key);
      },
      admin: accounts.admin,
      disconnect: (key) => accounts.disconnect(key),
      reconnect: (key) => accounts.reconnect(key),
      stores: () => {
        const orgs = summarize(accounts.list(), active.key);
        return accounts.list().map((h, i) => ({ org: orgs[i]!, store: h.store() }));
      },
      followUnread(find) {
        const all = accounts.list();
        const at = all.findIndex((h) => h.key === active.key);
        for (let i = 1; i < all.length; i++) {
          const h = all[(at + i) % all.length]!;
          const store = h.store();
          const narrow = store && find(store);
          if (!narrow) continue;
          this.show(h.key, narrow);
          return true;
        }
        return false;
      },
    };
  }, [accounts, active]);
  return { orgs, control };
}
