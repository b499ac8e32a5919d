/**
 * Synchronized output (DEC private mode 2026): a terminal that has it shows a frame only once
 * all of it has arrived, so a frame never shows half drawn. The app asks (DECRQM) rather than
 * guesses; until an answer says the mode is known, frames go out unwrapped. The answer comes
 * back on the key input, where the keypress bus hands it here instead of to a handler.
 */
export const SYNC_QUERY = "\x1b[?2026$p";
export const BEGIN_SYNC = "\x1b[?2026h";
export const END_SYNC = "\x1b[?2026l";

/** The answer as Ink's input reader passes it on (with or without its ESC). */
const REPORT = /^\x1b?\[\?2026;(\d)\$y$/;

let supported = false;
let asked = false;

/** Whether frames are to be wrapped in synchronized output. */
export function syncSupported(): boolean {
  return supported;
}

/** Asks the terminal once; the query waits for nothing (the first frame does not wait for it). */
export function askSyncSupport(write: (bytes: string) => void): void {
  if (asked) return;
  asked = true;
  write(SYNC_QUERY);
}

/**
 * True when `input` is the terminal's answer about mode 2026 (and takes note of it): such input
 * is no key. Ps 1 (set), 2 (reset) and 3 (always set) mean the terminal knows the mode; 0 (not
 * recognised) and 4 (permanently reset) mean it does not.
 */
export function takeSyncReport(input: string): boolean {
  const m = REPORT.exec(input);
  if (!m) return false;
  const ps = Number(m[1]);
  supported = ps === 1 || ps === 2 || ps === 3;
  return true;
}

/** For tests: forget what the terminal said. */
export function resetSyncSupport(): void {
  supported = false;
  asked = false;
}
