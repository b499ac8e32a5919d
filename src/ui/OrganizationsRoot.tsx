/**
 * Several accounts on one screen: the App of the account on screen (the
 * registry's active one), given every open account for the sidebar's
 * sections. Putting another organization on screen draws its App, which
 * comes back as it was left (its UI state is kept with its handle); the
 * others stay connected meanwhile, each in its own runtime.
 */
import { useEffect, useRef, useState } from "react";
import type { AccountHandle, AccountsView } from "../sync/account-handle.js";
import { App, type AppProps } from "./App.js";

export function Organizations({ accounts, onFirstFrame, ...props }: Omit<AppProps, "account"> & { accounts: AccountsView }) {
  const [active, setActive] = useState(() => accounts.active());
  useEffect(() => {
    setActive(accounts.active());
    return accounts.subscribe(() => setActive(accounts.active()));
  }, [accounts]);
  // The start's measurements are of the first frame only, whichever organization drew it.
  const first = useRef(onFirstFrame);
  const firstFrame = () => {
    const f = first.current;
    first.current = undefined;
    f?.();
  };
  // A reconnected account has a new handle: its App starts over on it (its UI state is kept by account).
  const ids = useRef({ of: new WeakMap<AccountHandle, number>(), count: 0 });
  if (!active) return null;
  if (!ids.current.of.has(active)) ids.current.of.set(active, ++ids.current.count);
  return <App key={`${active.key}:${ids.current.of.get(active)}`} {...props} account={active} accounts={accounts} onFirstFrame={firstFrame} />;
}
