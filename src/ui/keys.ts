/** Turns Ink's key report into one canonical name, so bindings are plain data. */
import type { Key } from "ink";

/**
 * Names: printable characters as themselves ("j", "G", "?"), and
 * "up" "down" "left" "right" "pageup" "pagedown" "home" "end" "enter"
 * "escape" "tab" "S-tab" "backspace", with "C-" / "M-" prefixes.
 */
export function keyName(input: string, key: Key): string {
  const mods = (key.ctrl ? "C-" : "") + (key.meta ? "M-" : "");
  if (key.upArrow) return mods + "up";
  if (key.downArrow) return mods + "down";
  if (key.leftArrow) return mods + "left";
  if (key.rightArrow) return mods + "right";
  if (key.pageUp) return mods + "pageup";
  if (key.pageDown) return mods + "pagedown";
  if (key.home) return mods + "home";
  if (key.end) return mods + "end";
  if (key.return) return mods + (key.shift ? "S-enter" : "enter");
  if (key.escape && !input) return "escape";
  if (key.tab) return key.shift ? "S-tab" : "tab";
  // Most terminals send DEL (0x7f) for the Backspace key, which Ink reports as
  // "delete"; the Delete key proper is indistinguishable, so both erase backwards
  // (Ctrl-D deletes forwards in the editor).
  if (key.backspace || key.delete) return mods + "backspace";
  // A lone line feed is what Ctrl-J sends (Ink passes it on as text).
  if (input === "\n" && !key.meta) return "C-j";
  if (key.ctrl && input) return `C-${input.toLowerCase()}`;
  if (key.meta && input) return `M-${input}`;
  return input;
}

/** The name the keypress bus gives a bracketed paste (its input is the pasted text). */
export const PASTE = "paste";

export function isPaste(name: string): boolean {
  return name === PASTE;
}

const PRINTABLE = /^\P{Cc}+$/u;

/**
 * The text a key types, if it types any: a printable character, or pasted
 * text (its line breaks and tabs as spaces, other control characters gone).
 * Keys with a name of their own (Enter, arrows, Ctrl-…, Alt-…) type nothing.
 */
export function typedText(name: string, input: string): string | undefined {
  if (isPaste(name)) {
    const text = input.replace(/\r\n?|[\n\t]/g, " ").replace(/\p{Cc}/gu, "");
    return text || undefined;
  }
  return input && name === input && PRINTABLE.test(input) ? input : undefined;
}
