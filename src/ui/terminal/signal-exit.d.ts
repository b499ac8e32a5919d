// signal-exit 3 (the version Ink uses) ships no types; the part termchat uses.
declare module "signal-exit" {
  /** Calls `callback` when the process exits, by any means (signals included); returns the unsubscribe. */
  export default function onExit(callback: (code: number | null, signal: string | null) => void, options?: { alwaysLast?: boolean }): () => void;
}
