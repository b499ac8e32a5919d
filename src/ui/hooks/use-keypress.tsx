/**
 * One keypress bus. The root reads keys once; handlers register with a
 * priority and the first (highest) that returns true consumes the key.
 * Handlers are kept in refs, so they always see current state (no stale
 * closures dropping keys).
 */
import { createContext, useContext, useEffect, useRef, type ReactNode } from "react";
import { useInput, type Key } from "ink";
import { keyName } from "../keys.js";

export type KeyHandler = (name: string, input: string, key: Key) => boolean;

interface Entry {
  priority: number;
  handler: { current: KeyHandler };
  active: { current: boolean };
}

const BusContext = createContext<Set<Entry> | null>(null);

export function KeypressProvider({ children, onAnyKey }: { children: ReactNode; onAnyKey?: () => void }) {
  const entries = useRef(new Set<Entry>()).current;
  const anyKey = useRef(onAnyKey);
  anyKey.current = onAnyKey;
  useInput((input, key) => {
    anyKey.current?.();
    const name = keyName(input, key);
    const sorted = [...entries].filter((e) => e.active.current).sort((a, b) => b.priority - a.priority);
    for (const e of sorted) if (e.handler.current(name, input, key)) return;
  });
  return <BusContext.Provider value={entries}>{children}</BusContext.Provider>;
}

export function useKeypress(handler: KeyHandler, opts: { priority?: number; active?: boolean } = {}): void {
  const entries = useContext(BusContext);
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const activeRef = useRef(opts.active ?? true);
  activeRef.current = opts.active ?? true;
  const priority = opts.priority ?? 0;
  useEffect(() => {
    if (!entries) return;
    const entry: Entry = { priority, handler: handlerRef, active: activeRef };
    entries.add(entry);
    return () => {
      entries.delete(entry);
    };
  }, [entries, priority]);
}
