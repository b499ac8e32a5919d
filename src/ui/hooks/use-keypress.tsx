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
  const paste = useRef<string | null>(null);
  useInput((input, key) => {
    anyKey.current?.();
    // Bracketed paste (enabled by the app): everything between the markers is one "paste" key
    // whose input is the text, so a pasted newline is text, never "send".
    if (paste.current === null && input.startsWith(PASTE_START)) {
      paste.current = "";
      input = input.slice(PASTE_START.length);
      if (!input) return;
    }
    if (paste.current !== null) {
      const end = input.indexOf(PASTE_END);
      paste.current += end === -1 ? input : input.slice(0, end);
      if (end === -1) return;
      const text = paste.current;
      paste.current = null;
      const sorted = [...entries].filter((e) => e.active.current).sort((a, b) => b.priority - a.priority);
      for (const e of sorted) if (e.handler.current("paste", text, NO_KEY)) break;
      return;
    }
    // Keys that arrive together (fast typing, a paste, a busy moment) come as one input: "jj".
    // Each is its own key press, in order.
    for (const [one, k] of splitKeys(input, key)) {
      const name = keyName(one, k);
      const sorted = [...entries].filter((e) => e.active.current).sort((a, b) => b.priority - a.priority);
      for (const e of sorted) if (e.handler.current(name, one, k)) break;
    }
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

/** Ink passes the bracketed-paste markers on without their ESC. */
const PASTE_START = "[200~";
const PASTE_END = "[201~";
/** Turn bracketed paste mode on and off (written by the app at start and exit). */
export const BRACKETED_PASTE_ON = "\x1b[?2004h";
export const BRACKETED_PASTE_OFF = "\x1b[?2004l";

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
} as Key;

/** Splits an input of several plain characters into single key presses; anything else passes as it is. */
export function splitKeys(input: string, key: Key): Array<[string, Key]> {
  const chars = [...input];
  if (chars.length <= 1 || key.ctrl || key.meta || key.escape) return [[input, key]];
  return chars.map((c): [string, Key] => {
    if (c === "\r") return ["", { ...NO_KEY, return: true }];
    if (c === "\t") return ["", { ...NO_KEY, tab: true }];
    if (c === "\x7f" || c === "\b") return ["", { ...NO_KEY, backspace: true }];
    if (c === "\n") return ["j", { ...NO_KEY, ctrl: true }];
    return [c, { ...NO_KEY, shift: c !== c.toLowerCase() }];
  });
}
