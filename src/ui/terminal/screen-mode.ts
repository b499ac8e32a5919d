/**
 * The terminal taken over for the app, as full-screen programs do: the alternate screen (when
 * output is a terminal), entered before the first frame, so that frames and resizes leave
 * nothing in the scrollback and quitting brings back what was on the screen before; and
 * bracketed paste. Both are given back, with the cursor shown (and the mouse, when the reader
 * turned it on: ./mouse.ts), on every way out: quitting,
 * an error that ends the app, an uncaught exception, process.exit, and the signals that end a
 * process (SIGTERM, SIGHUP, SIGINT…, through signal-exit, after Ink's own last frame).
 * Terminal-wide state: there is one terminal.
 */
import onExit from "signal-exit";
import { releaseMouse } from "./mouse.js";

export const ENTER_ALTERNATE_SCREEN = "\x1b[?1049h";
export const LEAVE_ALTERNATE_SCREEN = "\x1b[?1049l";
/** Turn bracketed paste mode on and off: pasted text arrives marked, so a pasted newline never sends. */
export const BRACKETED_PASTE_ON = "\x1b[?2004h";
export const BRACKETED_PASTE_OFF = "\x1b[?2004l";
const HOME = "\x1b[H";
const SHOW_CURSOR = "\x1b[?25h";

let alternate = false;

/** Whether frames are drawn on the alternate screen: from its top line, as tall as the terminal. */
export function usesAlternateScreen(): boolean {
  return alternate;
}

interface Output {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface TakenTerminal {
  /** Gives the terminal back (once; later calls do nothing). */
  restore(): void;
}

/**
 * Takes the terminal. `beforeCrash` runs when an uncaught exception is about to end the process,
 * before the terminal is given back: the app's last frame then goes to the alternate screen, and
 * Node's report of the error to the normal one, where it stays readable.
 */
export function takeTerminal(out: Output, options: { beforeCrash?: () => void } = {}): TakenTerminal {
  const screen = Boolean(out.isTTY);
  let restored = false;
  const write = (text: string) => {
    try {
      out.write(text);
    } catch {
      // The terminal is gone (a hang-up): nothing to give back.
    }
  };
  const restore = () => {
    if (restored) return;
    restored = true;
    removeExitHook();
    process.off("uncaughtExceptionMonitor", onCrash);
    alternate = false;
    write(releaseMouse() + BRACKETED_PASTE_OFF + SHOW_CURSOR + (screen ? LEAVE_ALTERNATE_SCREEN : ""));
  };
  const onCrash = () => {
    try {
      options.beforeCrash?.();
    } catch {
      // The app could not draw its last frame: the terminal is given back all the same.
    }
    restore();
  };
  // After every other exit handler (Ink's unmount draws its last frame there).
  const removeExitHook = onExit(restore, { alwaysLast: true });
  process.on("uncaughtExceptionMonitor", onCrash);
  alternate = screen;
  // Entering keeps the cursor where it was: frames start from the top line.
  write((screen ? ENTER_ALTERNATE_SCREEN + HOME : "") + BRACKETED_PASTE_ON);
  return { restore };
}
