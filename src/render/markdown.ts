// Message bodies: raw Markdown in the service's dialect → an ANSI string for a given width.
//
// marked and the highlighter take time to load (~100 ms), so the engine is imported by
// `loadMarkdown()` after the first frame; until then `renderMarkdown` gives a plain, sanitized,
// word-wrapped rendering. Rendered output is cached per (source, width, colour, viewer, and the
// account and version of the names it resolves), up to a number of bytes.
import { BASIC_COLORS, colorChalk, NO_COLORS, plainChalk } from "./body-colors.js";
import { createEngine, NO_WRAP, type RenderContext, type RenderState } from "./markdown-dialect.js";
import { ByteLru, stringBytes } from "./byte-cache.js";
import { loadEmojiData } from "./emoji.js";
import { presentationKey, presentEmoji } from "./glyphs.js";
import { sanitize } from "./sanitize.js";
import { truncate, wrapLine, wrapText } from "./wrap.js";

export type { BodyColors, Paint } from "./body-colors.js";
export type { RenderContext } from "./markdown-dialect.js";

let engine: ((src: string) => string) | undefined;
let loading: Promise<void> | undefined;
let current: RenderState | undefined;

function state(): RenderState {
  if (current === undefined) throw new Error("markdown: render state read outside a render");
  return current;
}

/**
 * Import marked, marked-terminal and the highlighter, and build the renderer (idempotent).
 * Call it after the first frame; `renderMarkdown` works, plainly, before it resolves.
 */
export function loadMarkdown(): Promise<void> {
  loading ??= (async () => {
    const [{ Marked, Lexer, Tokenizer }, { markedTerminal }, highlighter] = await Promise.all([
      import("marked"),
      import("marked-terminal"),
      import("./highlight.js"),
      loadEmojiData(),
    ]);
    engine = createEngine(
      {
        Marked,
        Lexer,
        Tokenizer,
        markedTerminal,
        supportsLanguage: highlighter.supportsLanguage,
        highlight: highlighter.highlight,
      },
      state,
    );
    cache.clear(); // drop the plain renderings made before
  })();
  return loading;
}

export function isMarkdownLoaded(): boolean {
  return engine !== undefined;
}

// ---- cache -------------------------------------------------------------------------------

/** Renderings kept, by their estimated size (keys hold the source too). */
const CACHE_BYTES = 3 * 1024 * 1024;
const cache = new ByteLru<string, string>(CACHE_BYTES);

function cacheKey(src: string, ctx: RenderContext, width: number): string {
  return [ctx.names ?? "", ctx.color ? (ctx.colors?.id ?? 1) : 0, presentationKey(), width, ctx.selfUserId, ctx.timeZone ?? "", ctx.twentyFourHour ?? "", ctx.emptyTopicName, ctx.hyperlinks && ctx.color ? 1 : 0, ctx.openSpoilers ? 1 : 0, ctx.customEmoji?.generation ?? "", src].join("\u0000");
}

// ---- rendering ---------------------------------------------------------------------------

/**
 * Render a message body to at most `width` cells per line, without a trailing newline.
 * SGR codes only when `ctx.color`; with `color: false` the result contains no ESC at all.
 * Never throws: on any failure the plain rendering is returned.
 */
export function renderMarkdown(src: string, ctx: RenderContext, width: number): string {
  const w = Math.max(1, Math.floor(width));
  if (engine === undefined) return renderPlain(src, w);
  const key = cacheKey(src, ctx, w);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  let out: string;
  try {
    out = renderRich(engine, src, ctx, w);
  } catch {
    out = renderPlain(src, w);
  }
  cache.set(key, out, stringBytes(key) + stringBytes(out));
  return out;
}

/** The rendering used before `loadMarkdown()` has finished: sanitized text, word-wrapped. */
export function renderPlain(src: string, width: number): string {
  return wrapText(presentEmoji(sanitize(src, { multiline: true })).replace(/\s+$/, ""), Math.max(1, Math.floor(width)));
}

// eslint-disable-next-line no-control-regex
const ANY_ESCAPE_RE = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b/g;

// Numeric character references marked would decode into a control or bidi character (`&#27;`,
// `&#x9b;`, `&#8238;`…): sanitize runs before marked, so they are disarmed (shown as written).
const CONTROL_REF_RE = /&#(?:[xX]([0-9a-fA-F]{1,8})|(\d{1,10}));/g;
// eslint-disable-next-line no-control-regex
const UNSAFE_CHAR_RE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
// What the renderer never writes itself (it writes only SGR and OSC 8 with BEL): removed from its output.
// eslint-disable-next-line no-control-regex
const UNSAFE_OUT_RE = /[\x00-\x06\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function disarmControlRefs(src: string): string {
  return src.replace(CONTROL_REF_RE, (ref, hex: string | undefined, dec: string | undefined) => {
    const cp = hex !== undefined ? Number.parseInt(hex, 16) : Number(dec);
    return cp === 0 || cp > 0x10ffff || UNSAFE_CHAR_RE.test(String.fromCodePoint(cp)) ? `&amp;${ref.slice(1)}` : ref;
  });
}

function renderRich(run: (src: string) => string, src: string, ctx: RenderContext, width: number): string {
  // Every escape and control character goes before marked sees the text; the private-use
  // marker we use for table rows is taken out too. Emoji become `:name:` here when the
  // terminal shows them as text (the `:name:` already written stay as they are).
  const clean = disarmControlRefs(presentEmoji(sanitize(src, { multiline: true })).replace(/\ue000/g, ""));
  current = { ctx, c: ctx.color ? colorChalk : plainChalk, p: ctx.color ? (ctx.colors ?? BASIC_COLORS) : NO_COLORS, width };
  let out: string;
  try {
    out = run(clean);
  } finally {
    current = undefined;
  }
  out = out.replace(UNSAFE_OUT_RE, "");
  if (!ctx.color) out = out.replace(ANY_ESCAPE_RE, ""); // belt and braces: nothing styled at all
  out = out.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").replace(/^\n+|\s+$/g, "");
  return out
    .split("\n")
    .map((line) => (line.includes(NO_WRAP) ? truncate(line.replace(NO_WRAP, ""), width) : wrapLine(line, width)))
    .join("\n");
}

// ---- /me ---------------------------------------------------------------------------------

/** Whether the message is a `/me` action ("/me waves"); the caller puts the sender's name first. */
export function isMeMessage(src: string): boolean {
  return src.startsWith("/me ") && !src.includes("\n") && src.trim().length > 3;
}

/** The action text of a `/me` message ("waves" for "/me waves"), or undefined. */
export function meMessageText(src: string): string | undefined {
  return isMeMessage(src) ? src.slice(4).trim() : undefined;
}
