/** Reading half-block images off a tmux screen captured with its styles. */
import type { TmuxSession } from "./tmux.js";

/** Cells drawn as `▀` with a foreground and a background colour in force (24-bit or 256). */
export function colouredHalfBlocks(styled: string): number {
  let count = 0;
  for (const line of styled.split("\n")) {
    let fg = false;
    let bg = false;
    for (const m of line.matchAll(/\x1b\[([\d;:]*)m|▀/g)) {
      if (m[0] === "▀") {
        if (fg && bg) count++;
        continue;
      }
      const p = m[1] ?? "";
      if (p === "" || p === "0") fg = bg = false;
      if (/(^|;)38[;:][25][;:]/.test(p)) fg = true;
      if (/(^|;)48[;:][25][;:]/.test(p)) bg = true;
      if (/(^|;)39(;|$)/.test(p)) fg = false;
      if (/(^|;)49(;|$)/.test(p)) bg = false;
    }
  }
  return count;
}

/** The styled screen once `ok` holds of it (or the last one seen, after 10 s). */
export async function pollStyled(s: TmuxSession, ok: (styled: string) => boolean): Promise<string> {
  let last = "";
  const deadline = Date.now() + 10_000;
  for (let i = 0; i < 200 && Date.now() < deadline; i++) {
    last = await s.captureStyled();
    if (ok(last)) return last;
    await s.waitFor(/./, { timeoutMs: 1000 }); // one capture round trip between polls
  }
  return last;
}
