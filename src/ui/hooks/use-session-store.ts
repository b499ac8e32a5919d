/**
 * The session's store and connection state as React state. The first store
 * that arrives is announced once (the App opens the home view with it, in the
 * same render as the store).
 */
import { useEffect, useRef, useState } from "react";
import type { Store } from "../../model/store.js";
import type { ConnectionState, UpdateMachine } from "../../sync/update-machine.js";

export function useSessionStore(machine: UpdateMachine, onFirstStore: (s: Store) => void): { store: Store | undefined; conn: ConnectionState } {
  const [store, setStore] = useState<Store | undefined>(machine.store);
  const [conn, setConn] = useState<ConnectionState>(machine.state);
  const announced = useRef(machine.store !== undefined);
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
    const off = machine.onStore(take);
    if (machine.store) take(machine.store); // it may have come between the first render and now
    return off;
  }, [machine]);
  useEffect(() => machine.onState(setConn), [machine]);
  return { store, conn };
}
