/**
 * Key names as tmux's send-keys takes them ("Enter", "C-c", "M-x", "Up", "BTab"…), turned into
 * the bytes an xterm-like terminal sends for them; a name tmux would not know is sent as text.
 */
const ESC = "\x1b";

const FIXED: Record<string, string> = {
  Enter: "\r",
  Escape: ESC,
  Tab: "\t",
  BTab: `${ESC}[Z`,
  BSpace: "\x7f",
  Space: " ",
  DC: `${ESC}[3~`,
  Delete: `${ESC}[3~`,
  IC: `${ESC}[2~`,
  Insert: `${ESC}[2~`,
  PPage: `${ESC}[5~`,
  PageUp: `${ESC}[5~`,
  NPage: `${ESC}[6~`,
  PageDown: `${ESC}[6~`,
  F1: `${ESC}OP`,
  F2: `${ESC}OQ`,
  F3: `${ESC}OR`,
  F4: `${ESC}OS`,
  F5: `${ESC}[15~`,
};

/** Cursor keys: CSI normally, SS3 once the program asked for application cursor keys (DECCKM). */
const CURSOR: Record<string, string> = { Up: "A", Down: "B", Right: "C", Left: "D", Home: "H", End: "F" };

export function keyBytes(name: string, applicationCursorKeys = false): string {
  const fixed = FIXED[name];
  if (fixed !== undefined) return fixed;
  const cursor = CURSOR[name];
  if (cursor !== undefined) return (applicationCursorKeys ? `${ESC}O` : `${ESC}[`) + cursor;
  const ctrl = /^C-(.)$/.exec(name);
  if (ctrl) {
    const c = ctrl[1]!;
    if (c === " " || c === "@") return "\0";
    const code = c.toUpperCase().charCodeAt(0);
    if (code >= 0x40 && code <= 0x5f) return String.fromCharCode(code & 0x1f);
    throw new Error(`keyBytes: no control character for ${JSON.stringify(name)}`);
  }
  const meta = /^M-(.+)$/.exec(name);
  if (meta) return ESC + keyBytes(meta[1]!, applicationCursorKeys);
  return name;
}
