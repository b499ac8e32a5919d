// The service's Markdown dialect on top of marked + marked-terminal: spoiler/quote/math fences
// and the renderer fixes marked-terminal needs (inline tokens in list items, unknown fence
// languages, links without OSC 8, tables (markdown-table.ts) and rules that know the width); the inline elements
// live in markdown-inline.ts. Built once by `createEngine` when markdown.ts loads marked; the
// per-call state (context, colours, width) is read through `state()` while a render runs.
import type { ChalkInstance } from "chalk";
import type { Lexer, Marked, MarkedExtension, Token, Tokenizer, Tokens, TokenizerAndRendererExtension, RendererThis } from "marked";
import type { TerminalRendererOptions } from "marked-terminal";
import { codeTheme, type BodyColors, type Paint } from "./body-colors.js";
import { glyphs } from "./glyphs.js";
import { inlineExtensions } from "./markdown-inline.js";
import { drawTable } from "./markdown-table.js";
import { safeLinkTarget } from "./terminal.js";

export interface RenderContext {
  selfUserId: number;
  userName(id: number): string | undefined;
  /** Whether a mention by name alone (no id) names the user: it is then drawn as the user's own. */
  isSelfName(name: string): boolean;
  channelName(id: number): string | undefined;
  /** Shown for the empty topic ("general chat"). */
  emptyTopicName: string;
  timeZone?: string;
  twentyFourHour?: boolean;
  color: boolean;
  /** Links as OSC 8 hyperlinks (the terminal supports them, and colour is on); else `text (url)`. */
  hyperlinks?: boolean;
  /** Show the content of spoiler blocks (the reader opened them); else only their headers. */
  openSpoilers?: boolean;
  /** The theme's colours (with `color`); without them, the basic 16-colour look. */
  colors?: BodyColors;
  /**
   * The organization's custom emoji: `:name:` of one of them is drawn as its name in colour (a
   * terminal cell cannot show its picture), apart from an unknown `:name:`, which stays as written.
   * `generation` changes whenever the set does (renderings are cached by it).
   */
  customEmoji?: { has(name: string): boolean; readonly generation: number };
  /**
   * Whose names `userName`, `isSelfName` and `channelName` resolve, and as of when: the account
   * and a count that changes whenever a name may have (a part of the render cache's key, so a
   * renamed person or channel shows the new name at once and accounts never share a rendering).
   */
  names?: string;
}

export interface RenderState {
  ctx: RenderContext;
  c: ChalkInstance;
  /** The colours of this render (none when `ctx.color` is off). */
  p: BodyColors;
  width: number;
}

/** What createEngine needs from the lazily imported packages. */
export interface EngineDeps {
  Marked: typeof Marked;
  Lexer: typeof Lexer;
  Tokenizer: typeof Tokenizer;
  markedTerminal: (options?: TerminalRendererOptions, highlightOptions?: Record<string, unknown>) => MarkedExtension;
  supportsLanguage(name: string): boolean;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean; theme: Record<string, (s: string) => string> }): string;
}

/** Marks a line that must be truncated, not wrapped (table rows). Removed by the caller. */
export const NO_WRAP = "\ue000";

/** Prefix every line of a rendered block with a quote bar. */
function quoteLines(p: BodyColors, body: string): string {
  const bar = p.quote(glyphs().quoteBar);
  return body
    .replace(/\n+$/, "")
    .split("\n")
    .map((l) => (l === "" ? bar : `${bar} ${l}`))
    .join("\n");
}

function indentLines(body: string, indent: string): string {
  return body
    .split("\n")
    .map((l) => (l === "" ? l : indent + l))
    .join("\n");
}

// A fenced block whose info string starts with one of these is ours, not a code block.
const OWN_FENCE_RE = /^ {0,3}(`{3,}|~{3,})[ \t]*(quote|spoiler|math|latex)(?=[ \t\n]|$)[ \t]*([^\n]*)(?:\n|$)/;
const ANY_OPEN_RE = /^ {0,3}(`{3,}|~{3,})[ \t]*[^\s`~]/;
const BARE_FENCE_RE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/**
 * Find where a fence opened with `fence` closes. Fences inside it nest: an opening line with an
 * info string, or a bare fence too short to close ours, opens an inner block that the next
 * long-enough bare fence of the same character closes.
 */
function scanFence(src: string, start: number, fence: string): { body: string; end: number } {
  const inner: string[] = []; // open inner fences, innermost last
  let pos = start;
  while (pos < src.length) {
    const nl = src.indexOf("\n", pos);
    const lineEnd = nl === -1 ? src.length : nl;
    const line = src.slice(pos, lineEnd);
    const next = nl === -1 ? src.length : nl + 1;
    const bare = BARE_FENCE_RE.exec(line)?.[1];
    const top = inner[inner.length - 1];
    if (bare !== undefined) {
      if (top !== undefined) {
        if (bare[0] === top[0] && bare.length >= top.length) inner.pop();
      } else if (bare[0] === fence[0] && bare.length >= fence.length) {
        return { body: src.slice(start, pos).replace(/\n$/, ""), end: next };
      } else {
        inner.push(bare);
      }
    } else if (top === undefined) {
      const opener = ANY_OPEN_RE.exec(line)?.[1];
      if (opener !== undefined) inner.push(opener);
    }
    pos = next;
  }
  return { body: src.slice(start).replace(/\n$/, ""), end: src.length }; // unclosed: runs to the end
}

export function createEngine(deps: EngineDeps, state: () => RenderState): (src: string) => string {
  const S = (): ChalkInstance => state().c;
  const P = (): BodyColors => state().p;
  const style =
    (pick: (c: ChalkInstance) => (s: string) => string) =>
    (s: string): string =>
      pick(S())(s);
  const paint =
    (pick: (p: BodyColors) => Paint) =>
    (s: string): string =>
      pick(P())(s);

  const terminalOptions: TerminalRendererOptions = {
    code: paint((p) => p.code),
    html: (s) => s,
    heading: paint((p) => p.heading),
    firstHeading: paint((p) => p.firstHeading),
    hr: (s) => s,
    listitem: (s) => s,
    table: (s) => s,
    paragraph: (s) => s,
    strong: style((c) => c.bold),
    em: style((c) => c.italic),
    codespan: paint((p) => p.code),
    del: style((c) => c.dim.strikethrough),
    link: (s) => s,
    href: paint((p) => p.link),
    text: (s) => s,
    unescape: true,
    emoji: false, // ours, below: the service's names, not GitHub's
    showSectionPrefix: false,
    reflowText: false, // we wrap afterwards, with string-width
    tab: 2,
  };

  const inline = inlineExtensions(state);
  let inTable = false;

  const fence: TokenizerAndRendererExtension = {
    name: "svcFence",
    level: "block",
    start: (src) => {
      const i = src.search(/^ {0,3}(?:`{3,}|~{3,})[ \t]*(?:quote|spoiler|math|latex)(?=[ \t\n]|$)/m);
      return i === -1 ? undefined : i;
    },
    tokenizer(src) {
      const open = OWN_FENCE_RE.exec(src);
      if (!open) return undefined;
      const [opening, fenceChars = "```", kind = "", header = ""] = open;
      const { body, end } = scanFence(src, opening.length, fenceChars);
      const token: Tokens.Generic = { type: "svcFence", raw: src.slice(0, end), kind, body, tokens: [] };
      if (kind === "quote") token.tokens = this.lexer.blockTokens(body, []);
      if (kind === "spoiler") {
        token["header"] = this.lexer.inline(header.trim(), []);
        token.tokens = this.lexer.blockTokens(body, []);
      }
      return token;
    },
    childTokens: ["header"],
    renderer(this: RendererThis, token) {
      const { c, p } = state();
      const kind = String(token["kind"]);
      if (kind === "quote") return quoteLines(p, this.parser.parse(token.tokens ?? [])) + "\n\n";
      if (kind === "spoiler") {
        const headerTokens = (token["header"] ?? []) as Tokens.Generic[];
        const header = headerTokens.length > 0 ? this.parser.parseInline(headerTokens) : "Spoiler";
        if (!state().ctx.openSpoilers) return `${p.spoiler(glyphs().spoilerClosed)} ${header} ${c.dim("(spoiler)")}\n\n`;
        return `${p.spoiler(glyphs().spoilerOpen)} ${header} ${c.dim("(spoiler)")}\n${quoteLines(p, this.parser.parse(token.tokens ?? []))}\n\n`;
      }
      // math / latex: the TeX source, as a code block
      return indentLines(p.code(String(token["body"])), "  ") + "\n\n";
    },
  };

  /** A link: OSC 8 where the terminal takes it, else the text with the address after it. */
  const linkTo = (href: string, text: string): string => {
    const { p, ctx } = state();
    const plainText = text.replace(/\x1b\[[0-9;]*m/g, ""); // eslint-disable-line no-control-regex
    // OSC 8, terminated by BEL: Ink's line tokenizer and wrap-ansi understand that form (with ST,
    // Ink counts the URL as visible text and cuts into it). Not inside tables (cells are measured
    // and cut by code that only knows SGR).
    const target = ctx.hyperlinks && ctx.color && !inTable ? safeLinkTarget(href) : undefined;
    if (target !== undefined) return `\x1b]8;;${target}\x07${p.link(plainText === "" ? href : text)}\x1b]8;;\x07`;
    if (plainText === "") return p.link(href);
    if (plainText === href || `mailto:${plainText}` === href) return p.link(text); // autolinks
    return `${text} (${p.link(href)})`;
  };

  const renderer: MarkedExtension["renderer"] = {
    // marked ≥13 leaves the inline tokens of tight list items to the text renderer, and
    // marked-terminal prints them raw ("**bold**"): parse them.
    text(token) {
      if ("tokens" in token && token.tokens) return this.parser.parseInline(token.tokens);
      return false;
    },
    code(token) {
      const { c, p } = state();
      const code = token.text.replace(/\n+$/, "");
      const lang = (token.lang ?? "").trim().split(/\s+/)[0]?.toLowerCase() ?? "";
      let out: string;
      // An unknown language makes highlight.js log to the console: only highlight what it knows.
      if (c.level > 0 && lang !== "" && deps.supportsLanguage(lang)) {
        try {
          out = deps.highlight(code, { language: lang, ignoreIllegals: true, theme: codeTheme(c, p) });
        } catch {
          out = p.code(code);
        }
      } else {
        out = p.code(code);
      }
      return indentLines(out, "  ") + "\n\n";
    },
    // marked ≥16 puts a checkbox token into task items and marked-terminal adds its own:
    // keep marked's only (marked-terminal's list calls its own listitem, so it is done here).
    list(token) {
      for (const item of token.items) item.task = false;
      return false;
    },
    checkbox({ checked }) {
      return checked ? "[x] " : "[ ] ";
    },
    blockquote(token) {
      return quoteLines(P(), this.parser.parse(token.tokens)) + "\n\n";
    },
    hr() {
      const { p, width } = state();
      return p.quote(glyphs().rule.repeat(Math.max(3, Math.min(width, 80)))) + "\n\n";
    },
    link(token) {
      return linkTo(token.href, this.parser.parseInline(token.tokens));
    },
    // No pictures in a terminal: an image is a link to it, labelled as one.
    image(token) {
      const { c } = state();
      return linkTo(token.href, `${c.dim("image:")} ${token.text || token.href.split("/").pop() || token.href}`);
    },
    table(token) {
      const { c, width } = state();
      const cell = (cl: Tokens.TableCell): string => this.parser.parseInline(cl.tokens);
      inTable = true;
      try {
        const head = token.header.map((h) => c.bold(cell(h)));
        const rows = token.rows.map((r) => r.map(cell));
        return drawTable(head, rows, token.align, width).map((l) => NO_WRAP + l).join("\n") + "\n\n";
      } finally {
        inTable = false;
      }
    },
    html(token) {
      return token.text; // shown as written, like the service does
    },
  };

  // How many quotes and lists the tokenizer is inside. marked lexes a quote's or list's content
  // through the lexer (where lexBounded counts the levels), but when a quote's lines go on into
  // a quote or list inside it, it tokenizes that one again by calling its own tokenizer: each
  // such line escaped the count, and lines quoted one level deeper each drew 59 levels of bars.
  let containers = 0;
  const counted =
    (original: (this: Tokenizer, src: string) => Tokens.Generic | undefined) =>
    function (this: Tokenizer, src: string) {
      containers++;
      try {
        return original.call(this, src);
      } finally {
        containers--;
      }
    };
  const tokenizer = {
    blockquote: counted(deps.Tokenizer.prototype.blockquote),
    list: counted(deps.Tokenizer.prototype.list),
  } as MarkedExtension["tokenizer"];

  const marked = new deps.Marked(deps.markedTerminal(terminalOptions), {
    gfm: true,
    breaks: true, // the service treats a single newline as a line break
    renderer,
    tokenizer,
    extensions: [fence, ...inline],
    hooks: {
      provideLexer: (block) => (block === false ? deps.Lexer.lexInline : (src, options) => lexBounded(deps.Lexer, src, options, () => containers)),
    },
  });

  return (src) => marked.parse(src, { async: false });
}


/**
 * Blocks nested deeper than this (quotes in quotes, lists in lists, quote and spoiler fences) are
 * shown as the text they hold: each level is lexed again from its start, so a message of 10,000
 * `>` took 0.2 s, and no terminal has room for more levels anyway.
 */
const MAX_DEPTH = 8;

/**
 * marked's lexing, with blocks nested deeper than MAX_DEPTH kept as plain text. The level is
 * that of the lexer's own nesting, or of the quotes and lists the tokenizer is in (`containers`)
 * where that is deeper (see createEngine).
 */
function lexBounded(LexerClass: typeof Lexer, src: string, options: ConstructorParameters<typeof Lexer>[0], containers: () => number): Token[] {
  const lexer = new LexerClass(options);
  const blockTokens = lexer.blockTokens.bind(lexer) as (text: string, tokens?: Token[], clipped?: boolean) => Token[];
  let depth = 0;
  const bounded = (text: string, tokens: Token[] = [], clipped?: boolean): Token[] => {
    if (Math.max(depth, containers()) >= MAX_DEPTH) {
      tokens.push({ type: "paragraph", raw: text, text, tokens: [{ type: "text", raw: text, text, escaped: true }] });
      return tokens;
    }
    depth++;
    try {
      return blockTokens(text, tokens, clipped);
    } finally {
      depth--;
    }
  };
  lexer.blockTokens = bounded as typeof lexer.blockTokens;
  return lexer.lex(src);
}
