/**
 * Synchronized output (DEC private mode 2026): a terminal that has it shows a frame only once
 * all of it has arrived, so a frame never shows half drawn. The terminal probe asks (DECRQM)
 * rather than guesses and writes the answer into the terminal's record; until it says the mode
 * is known, frames go out unwrapped.
 */
import { terminalCapabilities } from "../terminal/capabilities.js";

export const BEGIN_SYNC = "\x1b[?2026h";
export const END_SYNC = "\x1b[?2026l";

/** Whether frames are to be wrapped in synchronized output. */
export function syncSupported(): boolean {
  return terminalCapabilities().synchronizedOutput;
}
