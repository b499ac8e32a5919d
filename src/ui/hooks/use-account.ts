/**
 * The account on screen, as React state: its store and connection state from
 * its change feed (the first store that arrives is announced once: the App
 * opens the home view with it, in the same render as the store), and the
 * notices and notifications the account tells while the screen is up.
 */
import { useEffect, useRef, useState } from "react";
import type { Store } from "../../model/store.js";
import type { AccountHandle, ConnectionState, Note, Notice } from "../../sync/account-handle.js";

export function useAccountStore(account: AccountHandle, onFirstStore: (s: Store) => void): { store: Store | undefined; conn: ConnectionState } {
  const [store, setStore] = useState<Store | undefined>(account.store());
  const [conn, setConn] = useState<ConnectionState>(account.connection());
  const announced = useRef(account.store() !== undefined);
  const first = useRef(onFirstStore);
  first.current = onFirstStore;
  useEffect(() => {
    const take = (s: Store) => {
      if (!announced.current) {
        announced.current = true;
        first.current(s);
      }
      setStore(s);
    };
    const off = account.subscribe((c) => {
      if (c.kind === "store") take(c.store);
      else if (c.kind === "connection") setConn(c.state);
    });
    // Either may have changed between the first render and now.
    const now = account.store();
    if (now) take(now);
    setConn(account.connection());
    return off;
  }, [account]);
  return { store, conn };
}

/** Notices for the status line (those told before the screen listened first) and notifications to ring. */
export function useAccountNotices(account: AccountHandle, on: { notice(n: Notice): void; notify(note: Note): void }): void {
  const handlers = useRef(on);
  handlers.current = on;
  useEffect(() => {
    const off = account.subscribe((c) => {
      if (c.kind === "notice") handlers.current.notice(c.notice);
      else if (c.kind === "notify") handlers.current.notify(c.note);
    });
    for (const n of account.takeNotices()) handlers.current.notice(n);
    return off;
  }, [account]);
}
