/**
 * The compose box's text editing as a pure reducer. Keys are applied to the
 * latest state held in a ref, so fast typing never loses or reorders keys.
 * The cursor moves by grapheme clusters (an emoji made of several code
 * points is one step, and is erased whole), and ↑/↓ by the lines the box
 * shows (compose-wrap.ts), keeping the column they started from.
 */
import { graphemes } from "../render/graphemes.js";
import { sanitize } from "../render/sanitize.js";
import { layoutText, moveVisual } from "./compose-wrap.js";
import { editingFeature } from "./features/editing.js";
import { Keymap } from "./keymap.js";
import { typedText } from "./keys.js";

/** The editing keys when no configured keymap is at hand. */
const EDIT_KEYMAP = new Keymap(editingFeature.bindings);

/** Editing actions by their keymap names (edit.<name>). */
const EDITS = {
  backspace: "backspace",
  delete: "delete",
  left: "left",
  right: "right",
  home: "home",
  end: "end",
  deleteWordBack: "deleteWordBack",
  killLine: "killLine",
  killToStart: "killToStart",
} as const;

export interface EditorState {
  text: string;
  /** Cursor position in UTF-16 units, always on a code point boundary. */
  cursor: number;
  /** The column (cells) ↑/↓ keep to while they follow one another; any other key forgets it. */
  goal?: number;
}

export type EditorAction =
  | { type: "insert"; text: string }
  | { type: "backspace" }
  | { type: "delete" }
  | { type: "left" }
  | { type: "right" }
  | { type: "home" }
  | { type: "end" }
  | { type: "deleteWordBack" }
  | { type: "killLine" }
  | { type: "killToStart" }
  | { type: "set"; text: string }
  /** Replaces the whole text and puts the cursor somewhere (autocomplete, $EDITOR). */
  | { type: "replace"; text: string; cursor: number }
  /** To the same column of the previous/next line as the box shows it (`width`: its text's columns; none: lines of the text). */
  | { type: "up"; width?: number }
  | { type: "down"; width?: number };

export const EMPTY_EDITOR: EditorState = { text: "", cursor: 0 };

/** The start of the grapheme cluster before offset `i`. */
function prevBoundary(text: string, i: number): number {
  if (i <= 0) return 0;
  return graphemes(text).containing(i - 1)?.index ?? i - 1;
}

/** The end of the grapheme cluster at offset `i`. */
function nextBoundary(text: string, i: number): number {
  if (i >= text.length) return text.length;
  const seg = graphemes(text).containing(i);
  return seg ? Math.max(i + 1, seg.index + seg.segment.length) : i + 1;
}

/** Typed or pasted text, with terminal control characters removed (newlines kept, tabs as spaces). */
export function cleanTyped(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\r\n?/g, "\n").replace(/\t/g, "    ").replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, "");
}

export function editorReducer(s: EditorState, a: EditorAction): EditorState {
  const next = reduce(s, a);
  if (next.goal === undefined || a.type === "up" || a.type === "down") return next;
  return { text: next.text, cursor: next.cursor };
}

function reduce(s: EditorState, a: EditorAction): EditorState {
  switch (a.type) {
    case "insert": {
      const t = cleanTyped(a.text);
      if (!t) return s;
      return { text: s.text.slice(0, s.cursor) + t + s.text.slice(s.cursor), cursor: s.cursor + t.length };
    }
    case "backspace": {
      if (s.cursor === 0) return s;
      const p = prevBoundary(s.text, s.cursor);
      return { text: s.text.slice(0, p) + s.text.slice(s.cursor), cursor: p };
    }
    case "delete": {
      if (s.cursor >= s.text.length) return s;
      const n = nextBoundary(s.text, s.cursor);
      return { text: s.text.slice(0, s.cursor) + s.text.slice(n), cursor: s.cursor };
    }
    case "left":
      return { ...s, cursor: prevBoundary(s.text, s.cursor) };
    case "right":
      return { ...s, cursor: nextBoundary(s.text, s.cursor) };
    case "home": {
      const start = s.text.lastIndexOf("\n", s.cursor - 1) + 1;
      return { ...s, cursor: start };
    }
    case "end": {
      const nl = s.text.indexOf("\n", s.cursor);
      return { ...s, cursor: nl === -1 ? s.text.length : nl };
    }
    case "deleteWordBack": {
      const before = s.text.slice(0, s.cursor).replace(/\s*\S*$/, "");
      return { text: before + s.text.slice(s.cursor), cursor: before.length };
    }
    case "killToStart": {
      const start = s.text.lastIndexOf("\n", s.cursor - 1) + 1;
      return { text: s.text.slice(0, start) + s.text.slice(s.cursor), cursor: start };
    }
    case "killLine": {
      const nl = s.text.indexOf("\n", s.cursor);
      const end = nl === -1 ? s.text.length : nl;
      return { text: s.text.slice(0, s.cursor) + s.text.slice(end), cursor: s.cursor };
    }
    case "set": {
      const text = sanitize(a.text, { multiline: true });
      return { text, cursor: text.length };
    }
    case "replace": {
      // Text from elsewhere (a draft, a message, $EDITOR) is cleaned like any string bound for the terminal.
      const text = sanitize(a.text, { multiline: true });
      let cursor = Math.max(0, Math.min(text.length, a.cursor - (a.text.length - text.length)));
      const code = text.charCodeAt(cursor);
      if (cursor > 0 && code >= 0xdc00 && code <= 0xdfff) cursor--;
      return { text, cursor };
    }
    case "up":
    case "down": {
      const moved = moveVisual(s.text, s.cursor, a.width ?? Number.MAX_SAFE_INTEGER, a.type === "up" ? -1 : 1, s.goal);
      return moved ? { text: s.text, cursor: moved.cursor, goal: moved.goal } : s;
    }
  }
}

/** How many lines the text takes in a box whose text is `width` columns wide (none: its lines as written). */
export function lineCount(s: EditorState, width?: number): number {
  if (width === undefined) {
    let n = 1;
    for (let i = s.text.indexOf("\n"); i !== -1; i = s.text.indexOf("\n", i + 1)) n++;
    return n;
  }
  return layoutText(s.text, width).length;
}

/** Maps a key name to an editing action, or undefined when the key is not an edit. */
export function editActionForKey(name: string, input: string, keymap: Keymap = EDIT_KEYMAP): EditorAction | undefined {
  const action = keymap.action("edit", name);
  const type = action?.startsWith("edit.") ? (action.slice("edit.".length) as keyof typeof EDITS) : undefined;
  if (type && type in EDITS) return { type: EDITS[type] };
  const text = typedText(name, input);
  return text === undefined ? undefined : { type: "insert", text };
}
