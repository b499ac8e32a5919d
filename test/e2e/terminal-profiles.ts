/**
 * How real terminals answer the questions an app may ask at start-up, as data for the test
 * terminal (pty-terminal.ts): primary device attributes (DA1, `CSI c`), name and version
 * (XTVERSION, `CSI > q`), a mode's state (DECRQM, `CSI ? Pn $ p`), the kitty graphics query
 * (`ESC _ G … a=q … ESC \`), the background colour (OSC 11), the cell and window size in pixels
 * (`CSI 16 t`, `CSI 14 t`), and the cursor position (`CSI 6 n`).
 *
 * Where each answer comes from:
 * - DA1, XTVERSION and DECRQM 2026 as ucs-detect recorded them on each terminal
 *   (github.com/jquast/ucs-detect, data/*.yaml: XTerm 390, kitty 0.43.1, WezTerm 20251025,
 *   foot 1.25.0, iTerm2 3.6.5, GNOME Terminal 3.52 with VTE 7600, Windows Terminal 1.23);
 *   kitty's DA1 from its source (kitty/window.py da1(): "?62;" and 52 only with clipboard
 *   writes allowed, off by default); xterm's VT340 mode (`xterm -ti vt340`, sixel) from xterm's
 *   charproc.c CASE_DA1; the Linux console's from the kernel's console_codes(4) ("VT102", `?6c`).
 * - Kitty graphics: kitty answers the query (kitty/graphics.c); WezTerm too, with
 *   enable_kitty_graphics on by default (wezterm config.rs, term/src/terminalstate/kitty.rs).
 * - OSC 11: xterm, VTE (vte.cc Terminal::reply) and foot (osc.c) end the answer as the question
 *   ended (BEL or ST); kitty (screen.c) and WezTerm (termwiz osc.rs) always with ST; the Linux
 *   console and GNU screen do not answer (terminal-colorsaurus doc/terminal-survey.md).
 * - Window sizes: kitty (screen.c screen_report_size), foot (csi.c) and Windows Terminal answer
 *   14 and 16; VTE answers 14 but not 16 (vteseq.cc); iTerm2 14 but not 16 (its parser tests
 *   list 15–17 as not defined); xterm both, since its default disallowedWindowOps names neither.
 * The colours and pixel sizes are each terminal's usual defaults; only their shape matters here.
 */

export type OscTerminator = "same" | "st" | "bel";

export interface TerminalProfile {
  /** Short name, as tests name the case. */
  name: string;
  /** The terminal and version the answers are from. */
  label: string;
  /** What the terminal puts in its shell's environment. */
  env: Record<string, string>;
  /** The DA1 answer after `CSI` (e.g. "?62;c"); undefined: no answer. */
  da1?: string;
  /** The XTVERSION text inside `DCS > |` … `ST`; undefined: no answer. */
  xtversion?: string;
  /** DECRQM: each private mode's state (0 not recognised, 1 set, 2 reset, 3/4 permanently); undefined: no answer at all. */
  decrqm?: Record<number, number>;
  /** Whether it answers the kitty graphics protocol's query (and transmissions that ask for an answer). */
  kittyGraphics?: boolean;
  /** OSC 10 / 11 colours as `rgb:RRRR/GGGG/BBBB`; undefined: no answer. */
  foreground?: string;
  background?: string;
  /** How an OSC answer ends. */
  oscTerminator?: OscTerminator;
  /** One cell in pixels; also the pty's pixel size (TIOCGWINSZ). */
  cellPx?: { width: number; height: number };
  /** Which `CSI Ps t` reports it answers: 14 (text area in pixels), 16 (cell in pixels), 18 (text area in cells). */
  windowReports?: readonly number[];
  /** Whether it answers the cursor position report (`CSI 6 n`). */
  cursorReport?: boolean;
}

const TRUECOLOR = { COLORTERM: "truecolor" };

const XTERM: TerminalProfile = {
  name: "xterm",
  label: "XTerm 390 (VT420, its default)",
  env: { TERM: "xterm-256color", XTERM_VERSION: "XTerm(390)" },
  da1: "?64;1;2;6;9;15;16;17;18;21;22;28c",
  xtversion: "XTerm(390)",
  decrqm: { 2026: 0 },
  foreground: "rgb:0000/0000/0000",
  background: "rgb:ffff/ffff/ffff",
  oscTerminator: "same",
  cellPx: { width: 6, height: 13 },
  windowReports: [14, 16, 18],
  cursorReport: true,
};

export const PROFILES = {
  xterm: XTERM,
  "xterm-sixel": {
    ...XTERM,
    name: "xterm-sixel",
    label: "XTerm 390 as a VT340 (xterm -ti vt340: sixel)",
    da1: "?63;1;2;4;6;9;15;16;22;28c",
  },
  kitty: {
    name: "kitty",
    label: "kitty 0.43.1",
    env: { TERM: "xterm-kitty", ...TRUECOLOR, KITTY_WINDOW_ID: "1" },
    da1: "?62;c",
    xtversion: "kitty(0.43.1)",
    decrqm: { 2026: 2 },
    kittyGraphics: true,
    foreground: "rgb:dddd/dddd/dddd",
    background: "rgb:0000/0000/0000",
    oscTerminator: "st",
    cellPx: { width: 9, height: 20 },
    windowReports: [14, 16, 18],
    cursorReport: true,
  },
  iterm2: {
    name: "iterm2",
    label: "iTerm2 3.6.5",
    env: { TERM: "xterm-256color", ...TRUECOLOR, TERM_PROGRAM: "iTerm.app", TERM_PROGRAM_VERSION: "3.6.5", LC_TERMINAL: "iTerm2" },
    da1: "?64;1;2;4;6;17;18;21;22c",
    xtversion: "iTerm2 3.6.5",
    decrqm: { 2026: 2 },
    foreground: "rgb:c7c7/c7c7/c7c7",
    background: "rgb:0000/0000/0000",
    oscTerminator: "same",
    cellPx: { width: 14, height: 34 },
    windowReports: [14, 18],
    cursorReport: true,
  },
  wezterm: {
    name: "wezterm",
    label: "WezTerm 20251025-070338-b6e75fd7",
    env: { TERM: "xterm-256color", ...TRUECOLOR, TERM_PROGRAM: "WezTerm", TERM_PROGRAM_VERSION: "20251025-070338-b6e75fd7" },
    da1: "?65;4;6;18;22;52c",
    xtversion: "WezTerm 20251025-070338-b6e75fd7",
    decrqm: { 2026: 2 },
    kittyGraphics: true,
    foreground: "rgb:b2b2/b2b2/b2b2",
    background: "rgb:0000/0000/0000",
    oscTerminator: "st",
    cellPx: { width: 10, height: 22 },
    windowReports: [14, 16, 18],
    cursorReport: true,
  },
  foot: {
    name: "foot",
    label: "foot 1.25.0",
    env: { TERM: "foot", ...TRUECOLOR },
    da1: "?62;4;22;28;52c",
    xtversion: "foot(1.25.0)",
    decrqm: { 2026: 2 },
    foreground: "rgb:dcdc/dcdc/cccc",
    background: "rgb:2424/2424/2424",
    oscTerminator: "same",
    cellPx: { width: 16, height: 33 },
    windowReports: [14, 16, 18],
    cursorReport: true,
  },
  vte: {
    name: "vte",
    label: "GNOME Terminal 3.52 (VTE 0.76, 7600)",
    env: { TERM: "xterm-256color", ...TRUECOLOR, VTE_VERSION: "7600" },
    da1: "?61;1;21;22c",
    xtversion: "VTE(7600)",
    decrqm: { 2026: 4 },
    foreground: "rgb:2e2e/3434/3636",
    background: "rgb:ffff/ffff/ffff",
    oscTerminator: "same",
    cellPx: { width: 9, height: 19 },
    windowReports: [14, 18],
    cursorReport: true,
  },
  "windows-terminal": {
    name: "windows-terminal",
    label: "Windows Terminal 1.23",
    env: { TERM: "xterm-256color", WT_SESSION: "5f7b1a2c-0d3e-4f60-9a1b-2c3d4e5f6a7b" },
    da1: "?61;4;6;7;14;21;22;23;24;28;32;42;52c",
    decrqm: { 2026: 0 },
    foreground: "rgb:cccc/cccc/cccc",
    background: "rgb:0c0c/0c0c/0c0c",
    oscTerminator: "st",
    cellPx: { width: 10, height: 20 },
    windowReports: [14, 16, 18],
    cursorReport: true,
  },
  linux: {
    name: "linux",
    label: "the Linux console (VT102: DA1 and the cursor position only)",
    env: { TERM: "linux" },
    da1: "?6c",
    cursorReport: true,
  },
  silent: {
    name: "silent",
    label: "a terminal (or link) that answers nothing",
    env: { TERM: "xterm-256color" },
  },
} satisfies Record<string, TerminalProfile>;

export type ProfileName = keyof typeof PROFILES;

/**
 * When the answers arrive: at once; late (after the app has stopped waiting); a byte at a time
 * (as a slow link splits them); or held until the test releases them, at a moment it chooses
 * (while the compose box is open, say) and, if it likes, one at a time with keys between them.
 */
export type AnswerTiming =
  | { kind: "at-once" }
  | { kind: "late"; afterMs: number }
  | { kind: "split"; byteGapMs: number }
  | { kind: "held" };
