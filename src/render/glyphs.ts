/**
 * Every glyph termchat chooses itself, in one table with two sets: Unicode, and the ASCII
 * equivalents written when the terminal's character set is not UTF-8 (LANG=C and friends) or
 * the settings ask for them. The UI picks the set once the terminal is known (ui/look.ts) and
 * everything that draws reads it here: components, the Markdown renderer, truncation.
 *
 * Two kinds of use:
 * - marks by name (`glyphs().selected`, `glyphs().private`…);
 * - the client's own sentences through `t`, which writes their typography (· … — → “ ”) in the
 *   current set. Interpolated values are left alone: they may be server text, which is never
 *   transliterated (only sanitized), except emoji when emoji are shown as text.
 *
 * Emoji among the marks (🔒, 🔇, 📎, 🔗, 👍) become their `:name:` when emoji are shown as
 * text (fonts without colour emoji) and in the ASCII set.
 *
 * This is terminal-wide state, like ui/terminal/capabilities.ts: one terminal per process.
 */
import { emojiName } from "./emoji.js";

/** Ink's box border: a named style, or the ASCII one spelt out. */
export type BorderStyle = "round" | "single" | "classic";

export interface GlyphSet {
  name: "unicode" | "ascii";
  // The visual language of lists and the message pane: one mark each, explained in the help.
  /** The row or message under the cursor. */
  selected: string;
  /** The view or conversation shown in the main pane (sidebar). */
  open: string;
  /** An unread message (message pane). */
  unread: string;
  /** A folder or channel that can be opened, and one that is. */
  collapsed: string;
  expanded: string;
  // Sidebar and header markers.
  view: string;
  public: string;
  private: string;
  webPublic: string;
  archived: string;
  resolved: string;
  star: string;
  muted: string;
  // People.
  active: string;
  idle: string;
  offline: string;
  // Outcomes and bits of text.
  check: string;
  cross: string;
  pending: string;
  ellipsis: string;
  separator: string;
  prompt: string;
  textCursor: string;
  rule: string;
  quoteBar: string;
  spoilerClosed: string;
  spoilerOpen: string;
  upload: string;
  link: string;
  /** Before an image's caption in the message pane. */
  image: string;
  thumbsUp: string;
  /** Popups; the compose box uses `boxSingle`. */
  box: BorderStyle;
  boxSingle: BorderStyle;
  /** Markdown tables' lines: the corners and junctions of the top, middle and bottom rules, and the lines between. */
  table: TableLines;
}

export interface TableLines {
  top: readonly [string, string, string];
  middle: readonly [string, string, string];
  bottom: readonly [string, string, string];
  horizontal: string;
  vertical: string;
}

const UNICODE: GlyphSet = {
  name: "unicode",
  selected: "▌",
  open: "›",
  unread: "●",
  collapsed: "▸",
  expanded: "▾",
  view: "≡",
  public: "#",
  private: "🔒",
  webPublic: "◎",
  archived: "⌫",
  resolved: "✔",
  star: "★",
  muted: "🔇",
  active: "●",
  idle: "◐",
  offline: "○",
  check: "✓",
  cross: "✖",
  pending: "⧗",
  ellipsis: "…",
  separator: "·",
  prompt: "›",
  textCursor: "▏",
  rule: "─",
  quoteBar: "▎",
  spoilerClosed: "▶",
  spoilerOpen: "▼",
  upload: "📎",
  link: "🔗",
  image: "▨",
  thumbsUp: "👍",
  box: "round",
  boxSingle: "single",
  table: { top: ["┌", "┬", "┐"], middle: ["├", "┼", "┤"], bottom: ["└", "┴", "┘"], horizontal: "─", vertical: "│" },
};

const ASCII: GlyphSet = {
  name: "ascii",
  selected: ">",
  open: "=",
  unread: "*",
  collapsed: "+",
  expanded: "-",
  view: "~",
  public: "#",
  private: ":lock:",
  webPublic: "%",
  archived: "x",
  resolved: "v",
  star: "!",
  muted: ":mute:",
  active: "*",
  idle: "~",
  offline: "o",
  check: "v",
  cross: "x",
  pending: "~",
  ellipsis: "...",
  separator: "|",
  prompt: ">",
  textCursor: "_",
  rule: "-",
  quoteBar: ">",
  spoilerClosed: ">",
  spoilerOpen: "v",
  upload: ":paperclip:",
  link: ":link:",
  image: "[img]",
  thumbsUp: ":+1:",
  box: "classic",
  boxSingle: "classic",
  table: { top: ["+", "+", "+"], middle: ["+", "+", "+"], bottom: ["+", "+", "+"], horizontal: "-", vertical: "|" },

};

/** Typography of the client's own sentences, and what it is in ASCII. */
const TYPOGRAPHY: ReadonlyArray<readonly [string, string]> = [
  ["·", "|"],
  ["…", "..."],
  ["—", "--"],
  ["–", "-"],
  ["→", "->"],
  ["←", "<-"],
  ["↑", "Up"],
  ["↓", "Down"],
  ["“", '"'],
  ["”", '"'],
  ["‘", "'"],
  ["’", "'"],
  ["‹", "<"],
  ["›", ">"],
  ["×", "x"],
  ["★", "!"],
  ["✔", "v"],
  ["✓", "v"],
  ["✖", "x"],
  ["●", "*"],
];
const TYPOGRAPHY_MAP = new Map(TYPOGRAPHY);
const TYPOGRAPHY_RE = new RegExp(`[${TYPOGRAPHY.map(([u]) => u).join("")}]`, "g");

interface Presentation {
  ascii: boolean;
  emojiText: boolean;
}

let current: Presentation = { ascii: false, emojiText: false };
let shown: GlyphSet = UNICODE;

/** Chooses the set (and whether emoji are shown as text; always so in ASCII). */
export function setPresentation(p: Presentation): void {
  current = { ascii: p.ascii, emojiText: p.ascii || p.emojiText };
  shown = current.ascii ? ASCII : current.emojiText ? withEmojiAsText(UNICODE) : UNICODE;
}

/** The glyphs to write now. */
export function glyphs(): GlyphSet {
  return shown;
}

/** Whether emoji are written as `:name:` text. */
export function emojiAsText(): boolean {
  return current.emojiText;
}

/** A short key of the current choice, for caches of rendered text. */
export function presentationKey(): string {
  return `${current.ascii ? "a" : "u"}${current.emojiText ? "t" : "e"}`;
}

/** The glyph sets themselves (the help's legend shows both; tests check them). */
export const GLYPH_SETS: Readonly<Record<GlyphSet["name"], GlyphSet>> = { unicode: UNICODE, ascii: ASCII };

function withEmojiAsText(set: GlyphSet): GlyphSet {
  const out = { ...set };
  for (const [k, v] of Object.entries(set)) {
    if (typeof v === "string" && EMOJI_RE().test(v)) (out as Record<string, unknown>)[k] = emojiToText(v);
  }
  return out;
}

/** Client text in the current set: `t\`Loading…\`` or `t("Enter open · M mark read")`; values are kept as they are. */
export function t(text: string): string;
export function t(strings: TemplateStringsArray, ...values: unknown[]): string;
export function t(first: string | TemplateStringsArray, ...values: unknown[]): string {
  const own = (s: string) => (current.ascii ? s.replace(TYPOGRAPHY_RE, (c) => TYPOGRAPHY_MAP.get(c) ?? c) : s);
  if (typeof first === "string") return own(first);
  let out = own(first[0] ?? "");
  for (let i = 0; i < values.length; i++) out += String(values[i]) + own(first[i + 1] ?? "");
  return out;
}

/**
 * A resolved topic's mark in the glyphs in use: the service marks a resolved topic by starting
 * its name with "✔ ", which is a flag more than text (in a topic name, or after "> " in a title).
 */
export function presentResolved(s: string): string {
  return shown === UNICODE ? s : s.replace(/(^|> )✔ /, `$1${shown.resolved} `);
}

// ---- emoji as text --------------------------------------------------------------------------

let emojiRe: RegExp | undefined;
// Made on first use: the RGI emoji set costs tens of milliseconds to build.
function EMOJI_RE(): RegExp {
  emojiRe ??= new RegExp("\\p{RGI_Emoji}", "gv");
  emojiRe.lastIndex = 0;
  return emojiRe;
}

// Anything that could start an emoji; text without one skips the emoji set altogether.
const MAYBE_EMOJI_RE = /[\u00a9\u00ae\u203c-\u3299\ud83c-\ud83e\u20e3]/;

/** `s` with each emoji written as its `:name:` (`:1f9fd:` when the name is not known). */
export function emojiToText(s: string): string {
  if (!MAYBE_EMOJI_RE.test(s)) return s;
  return s.replace(EMOJI_RE(), (e) => {
    const name = emojiName(e);
    if (name !== undefined) return `:${name}:`;
    const code = [...e.replace(/\uFE0F/g, "")].map((c) => c.codePointAt(0)!.toString(16)).join("-");
    return `:${code}:`;
  });
}

/** Server text as shown: emoji as `:name:` when emoji are shown as text, else unchanged. */
export function presentEmoji(s: string): string {
  return current.emojiText ? emojiToText(s) : s;
}
