/**
 * One keypress bus. The root reads keys once; handlers register with a
 * priority and the first (highest) that returns true consumes the key.
 * Handlers are kept in refs, so they always see current state (no stale
 * closures dropping keys).
 */
import { createContext, useContext, useLayoutEffect, useRef, type ReactNode } from "react";
import { useInput, type Key } from "ink";
import { keyName, PASTE } from "../keys.js";
import { noteKey } from "../ink-frame/key-frames.js";
import { isMouseReport, MOUSE_KEY } from "../terminal/mouse.js";

/**
 * Returns false to pass the key on, true when it took the key, or "typed" when it took the key
 * as text into an editor whose state lives in refs (the next key of a burst may follow at once).
 */
export type KeyHandler = (name: string, input: string, key: Key) => boolean | "typed";

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
  // Keys waiting their turn; while it is not empty, a drain is under way.
  const queue = useRef<Array<[string, string, Key]>>([]).current;
  /** Hands a key to the highest active handler that takes it; returns what that handler said. */
  const deliver = ([name, input, key]: [string, string, Key]): ReturnType<KeyHandler> => {
    // What this key changes is drawn at once, not in Ink's next frame window.
    noteKey();
    const sorted = [...entries].filter((e) => e.active.current).sort((a, b) => b.priority - a.priority);
    for (const e of sorted) {
      const taken = e.handler.current(name, input, key);
      if (taken) return taken;
    }
    return false;
  };
  // Keys of a burst are handled one at a time, each after React has rendered what the one
  // before it changed, so every handler (a popup's filter, a list's cursor, a popup the
  // previous key opened) sees fresh state. React renders in a task it queues from a
  // microtask, so waiting for a microtask and then a task puts the next key after it.
  // Text typed into an editor that keeps its state in refs ("typed") needs no render in
  // between, so a long unbracketed paste is not slowed down to a frame per character.
  const drain = () => {
    for (;;) {
      const next = queue[0];
      if (!next) return;
      let taken: ReturnType<KeyHandler> = false;
      try {
        taken = deliver(next);
      } finally {
        queue.shift();
        if (queue.length && taken !== "typed") queueMicrotask(() => setImmediate(drain));
      }
      if (taken !== "typed") return;
    }
  };
  const enqueue = (keys: Array<[string, string, Key]>) => {
    const idle = queue.length === 0;
    queue.push(...keys);
    if (idle) drain();
  };
  // The terminal's answers to the probe never come here: Ink's input parser takes them out.
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
      enqueue([[PASTE, text, NO_KEY]]);
      return;
    }
    // A mouse report (the input parser cut it out whole) takes its turn among the keys, as one entry.
    if (isMouseReport(input)) return enqueue([[MOUSE_KEY, input, NO_KEY]]);
    // Keys that arrive together (fast typing, a paste, a lagging link) come as one input: "jj".
    // Each is its own key press, in order.
    enqueue(splitKeys(input, key).map(([one, k]) => [keyName(one, k), one, k]));
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
  // Registered during the commit, so a popup opened by one key hears the next one.
  useLayoutEffect(() => {
    if (!entries) return;
    const entry: Entry = { priority, handler: handlerRef, active: activeRef };
    entries.add(entry);
    return () => {
      entries.delete(entry);
    };
  }, [entries, priority]);
}

/** Ink passes the bracketed-paste markers on without their ESC (the mode is turned on by ../terminal/screen-mode.ts). */
const PASTE_START = "[200~";
const PASTE_END = "[201~";

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

/**
 * Splits an input of several plain characters into single key presses; anything else passes
 * as it is. Escape followed at once by a character (Esc then q typed ahead, or joined on the
 * way over a slow link) reads as Alt and that character; no key of ours is Alt and a
 * character, so it is taken as what it almost always is: Escape, then the character.
 */
export function splitKeys(input: string, key: Key): Array<[string, Key]> {
  if (key.meta && !key.ctrl && /^[\x21-\x7e]$/.test(input)) {
    return [
      ["", { ...NO_KEY, escape: true }],
      [input, { ...NO_KEY, shift: input !== input.toLowerCase() }],
    ];
  }
  const chars = [...input];
  if (chars.length <= 1 || key.ctrl || key.meta || key.escape) return [[input, key]];
  return chars.map((c): [string, Key] => {
    if (c === "\r") return ["", { ...NO_KEY, return: true }];
    if (c === "\t") return ["", { ...NO_KEY, tab: true }];
    if (c === "\x7f" || c === "\b") return ["", { ...NO_KEY, backspace: true }];
    if (c === "\n") return ["j", { ...NO_KEY, ctrl: true }];
    // Another control key read together with other keys (Ctrl-T after typed text): named as Ink names it alone.
    if (c >= "\x01" && c <= "\x1a") return [String.fromCharCode(c.charCodeAt(0) + 96), { ...NO_KEY, ctrl: true }];
    return [c, { ...NO_KEY, shift: c !== c.toLowerCase() }];
  });
}
