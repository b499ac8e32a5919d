/**
 * The mouse, when the reader turns it on: the terminal is asked to report presses, releases
 * and the wheel (mode 1000) in SGR form (mode 1006: `CSI < b ; x ; y M` for a press, `m` for a
 * release, coordinates from 1 and of any size). The patched input parser
 * (../ink-frame/input-parser.ts) cuts each report out whole, and the keypress bus
 * (../hooks/use-keypress.tsx) hands it on as one "mouse" entry in its turn among the keys (a
 * key typed just before a click acts before it), never as a key; the screen's mouse hook
 * takes every such entry, and acts on it while the mouse is on.
 *
 * While the mouse is off nothing is asked of the terminal, so its own text selection works as
 * always. Whether reporting is on is remembered here so that every way out gives it back
 * (screen-mode.ts turns it off with the alternate screen). Terminal-wide state: one terminal.
 */

/** Report presses and releases (with the wheel as buttons 4 and 5), in SGR form. */
export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
/** Stop reporting; 1002 (drags) too, in case someone else left it on. */
export const MOUSE_OFF = "\x1b[?1006l\x1b[?1002l\x1b[?1000l";

export type MouseButton = "left" | "middle" | "right" | "wheelUp" | "wheelDown" | "other";

export interface MouseEvent {
  button: MouseButton;
  /** A press (or a wheel step), a release, or a move with a button held (mode 1002 only). */
  kind: "press" | "release" | "drag";
  /** The cell, from 0 at the top left of the terminal. */
  x: number;
  y: number;
  shift: boolean;
  alt: boolean;
  ctrl: boolean;
}

/** The name the keypress bus gives a mouse report (its input is the report). */
export const MOUSE_KEY = "mouse";

/** An SGR report, with its ESC or without it (as Ink's input hook passes it on). */
const SGR = /^\x1b?\[<(\d{1,5});(\d{1,5});(\d{1,5})([Mm])$/;

export function isMouseReport(input: string): boolean {
  return SGR.test(input);
}

function buttonOf(code: number): MouseButton {
  const low = code & 3;
  if (code & 64) return code & 128 ? "other" : low === 0 ? "wheelUp" : low === 1 ? "wheelDown" : "other";
  if (code & 128) return "other";
  return low === 0 ? "left" : low === 1 ? "middle" : low === 2 ? "right" : "other";
}

/** The event an SGR report says; undefined for anything else. */
export function parseMouseReport(report: string): MouseEvent | undefined {
  const m = SGR.exec(report);
  if (!m) return undefined;
  const code = Number(m[1]);
  const x = Number(m[2]);
  const y = Number(m[3]);
  if (x < 1 || y < 1) return undefined;
  const button = buttonOf(code);
  const kind = m[4] === "m" ? "release" : code & 32 ? "drag" : "press";
  return { button, kind, x: x - 1, y: y - 1, shift: (code & 4) !== 0, alt: (code & 8) !== 0, ctrl: (code & 16) !== 0 };
}

/** Whether the terminal was asked to report the mouse (and has not been told to stop). */
let reporting = false;

/** Asks the terminal to report the mouse, or to stop; writes only when that changes. */
export function setMouseReporting(on: boolean, write: (sequence: string) => void): void {
  if (on === reporting) return;
  reporting = on;
  write(on ? MOUSE_ON : MOUSE_OFF);
}

export function mouseReporting(): boolean {
  return reporting;
}

/**
 * What gives the terminal back its mouse on the way out ("" when it was never asked), and
 * forgets that it was asked.
 */
export function releaseMouse(): string {
  if (!reporting) return "";
  reporting = false;
  return MOUSE_OFF;
}

/** For tests: nothing asked. */
export function resetMouse(): void {
  reporting = false;
}
