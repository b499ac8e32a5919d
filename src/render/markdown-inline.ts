// Inline elements of the service's Markdown dialect, as marked extensions: user, group and
// wildcard mentions, channel/topic links, :emoji:, <time:…> and $$inline math$$.
import type { Tokens, TokenizerAndRendererExtension } from "marked";
import { emojiByName } from "./emoji.js";
import { emojiAsText } from "./glyphs.js";
import type { BodyColors } from "./body-colors.js";
import type { RenderState } from "./markdown-dialect.js";
import { sanitizeInline } from "./sanitize.js";
import { formatDateTime } from "./time.js";

const WILDCARDS = new Set(["all", "everyone", "channel", "stream", "topic"]);

type MentionKind = "self" | "wildcard" | "user" | "group" | "silent";

function mentionStyle(p: BodyColors, kind: MentionKind): (s: string) => string {
  switch (kind) {
    case "self":
      return p.mentionSelf;
    case "wildcard":
      return p.mentionWildcard;
    case "user":
    case "group":
      return p.mention;
    case "silent":
      return p.mentionSilent;
  }
}

/** The inline extensions, in the order marked tries them; renderers read the current render state. */
export function inlineExtensions(state: () => RenderState): TokenizerAndRendererExtension[] {
  const mention: TokenizerAndRendererExtension = {
    name: "svcMention",
    level: "inline",
    tokenizer(src) {
      const user = /^@(_?)\*\*([^*\n]+?)\*\*/.exec(src);
      if (user) {
        const [raw, silent, inner = ""] = user;
        const bar = inner.lastIndexOf("|");
        const idText = bar === -1 ? "" : inner.slice(bar + 1);
        const id = /^\d+$/.test(idText) ? Number(idText) : undefined;
        const name = id === undefined ? inner : inner.slice(0, bar);
        return { type: "svcMention", raw, silent: silent === "_", name, id, group: false };
      }
      const group = /^@(_?)\*([^*\n]+?)\*/.exec(src);
      if (group) {
        const [raw, silent, name = ""] = group;
        return { type: "svcMention", raw, silent: silent === "_", name, group: true };
      }
      return undefined;
    },
    renderer(token) {
      const { ctx, p } = state();
      const t = token as Tokens.Generic & { silent: boolean; name: string; id?: number; group: boolean };
      let display = t.name;
      let kind: MentionKind;
      if (t.group) {
        kind = t.silent ? "silent" : "group";
      } else if (!t.silent && t.id === undefined && WILDCARDS.has(t.name.toLowerCase())) {
        kind = "wildcard";
      } else {
        if (t.id !== undefined) display = ctx.userName(t.id) ?? t.name;
        const self = t.id !== undefined ? t.id === ctx.selfUserId : ctx.isSelfName(t.name);
        kind = t.silent ? "silent" : self ? "self" : "user";
      }
      return mentionStyle(p, kind)(`@${sanitizeInline(display)}`);
    },
  };

  const channelLink: TokenizerAndRendererExtension = {
    name: "svcChannelLink",
    level: "inline",
    tokenizer(src) {
      const m = /^#\*\*([^*\n]+?)\*\*/.exec(src);
      if (!m) return undefined;
      const inner = m[1] ?? "";
      const gt = inner.indexOf(">");
      const channel = gt === -1 ? inner : inner.slice(0, gt);
      const topic = gt === -1 ? undefined : inner.slice(gt + 1).replace(/@\d+$/, ""); // `>topic@msgid`
      return { type: "svcChannelLink", raw: m[0], channel, topic };
    },
    renderer(token) {
      const { ctx, p } = state();
      const t = token as Tokens.Generic & { channel: string; topic?: string };
      let text = `#${sanitizeInline(t.channel)}`;
      if (t.topic !== undefined) text += ` > ${t.topic === "" ? ctx.emptyTopicName : sanitizeInline(t.topic)}`;
      return p.channelLink(text);
    },
  };

  const emoji: TokenizerAndRendererExtension = {
    name: "svcEmoji",
    level: "inline",
    tokenizer(src) {
      const m = /^:([\w+-]+):/.exec(src);
      if (!m) return undefined;
      const name = m[1] ?? "";
      // The organization's own emoji come first, as on the service (one may shadow a Unicode name).
      if (state().ctx.customEmoji?.has(name)) return { type: "svcEmoji", raw: m[0], custom: name };
      if (emojiAsText()) return undefined; // shown as written when the font has no emoji
      const char = emojiByName(name);
      return char === undefined ? undefined : { type: "svcEmoji", raw: m[0], char };
    },
    renderer(token) {
      const custom = token["custom"] as string | undefined;
      return custom === undefined ? String(token["char"]) : state().p.customEmoji(`:${sanitizeInline(custom)}:`);
    },
  };

  const time: TokenizerAndRendererExtension = {
    name: "svcTime",
    level: "inline",
    tokenizer(src) {
      const m = /^<time:([^>\n]+)>/.exec(src);
      if (!m) return undefined;
      const value = (m[1] ?? "").trim();
      const ms = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value);
      if (!Number.isFinite(ms)) return { type: "text", raw: m[0], text: m[0] };
      return { type: "svcTime", raw: m[0], seconds: ms / 1000 };
    },
    renderer(token) {
      const { ctx, c } = state();
      const text = formatDateTime(Number(token["seconds"]), {
        ...(ctx.timeZone !== undefined && { timeZone: ctx.timeZone }),
        ...(ctx.twentyFourHour !== undefined && { twentyFourHour: ctx.twentyFourHour }),
      });
      return c.underline(text);
    },
  };

  const inlineMath: TokenizerAndRendererExtension = {
    name: "svcInlineMath",
    level: "inline",
    tokenizer(src) {
      const m = /^\$\$([^\n]+?)\$\$/.exec(src);
      return m ? { type: "svcInlineMath", raw: m[0], text: m[0] } : undefined;
    },
    renderer: (token) => state().p.code(String(token["text"])),
  };

  // One start for all of them (marked asks every extension's start before each run of text).
  mention.start = nextInlineStart;
  return [mention, channelLink, time, inlineMath, emoji];
}

/** The characters our inline elements begin with (`@`, `#**`, `<time:`, `$$`, `:name:`). */
const OPENERS_RE = /[@#<$:]/;
/** How far ahead one call looks. */
const LOOKAHEAD = 256;

/**
 * Where in `src` one of our inline elements may begin, for marked to end its run of text there.
 * marked asks this before every run of plain text with all the rest of the paragraph: a search
 * of the whole rest each time made pathological text (`*a*a*a…`, `<<<<…`) quadratic, 0.4 s for
 * 10,000 characters. So it looks at most LOOKAHEAD characters ahead; with no opener there, the run
 * ends after the window's last space (a word's start, where any element may begin), and marked
 * asks again from there. An early end is harmless: the run goes on as the next one.
 */
function nextInlineStart(src: string): number | undefined {
  const window = src.length > LOOKAHEAD ? src.slice(0, LOOKAHEAD) : src;
  const at = window.search(OPENERS_RE);
  if (at !== -1) return at;
  if (window === src) return undefined;
  const space = window.search(/\s\S*$/);
  return space > 0 ? space : LOOKAHEAD;
}
