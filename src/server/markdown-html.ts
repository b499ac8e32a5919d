// Renders the service's Markdown dialect to HTML with marked, for clients that
// ask for apply_markdown=true. Raw HTML in the source is escaped, never passed
// through. Dialect additions: user/group/wildcard mentions, channel and topic
// links, :emoji: shortcodes, ```quote / ```spoiler fences, <time:…> and /me.
// Rendered HTML is cached per source text (bounded, least recently used out).

import { Marked, type Tokens, type TokenizerAndRendererExtension } from "marked";
import { UNICODE_EMOJI } from "./emoji.js";
import { resolveMentionName } from "./mentions.js";
import type { ThumbnailFormat } from "./image-thumbnails.js";
import { inlineImageAttributes } from "./inline-images.js";
import type { State } from "./state.js";
import { escapeHtml } from "./escape-html.js";

const CHANNEL_WILDCARDS = new Set(["all", "everyone", "channel", "stream"]);

function channelHref(id: number, name: string, topic?: string): string {
  const enc = (s: string) => encodeURIComponent(s.replace(/ /g, "-"));
  const base = `/#narrow/channel/${id}-${enc(name)}`;
  return topic === undefined ? base : `${base}/topic/${enc(topic)}`;
}

function extensions(state: State): TokenizerAndRendererExtension[] {
  const mention: TokenizerAndRendererExtension = {
    name: "mention",
    level: "inline",
    start: (src: string) => src.indexOf("@"),
    tokenizer(src: string) {
      const m = /^@(_?)\*\*([^*\n]+?)\*\*/.exec(src);
      if (!m) return undefined;
      return { type: "mention", raw: m[0], silent: m[1] === "_", name: m[2]!.trim() };
    },
    renderer(token: Tokens.Generic) {
      const name = String(token["name"]);
      const silent = token["silent"] === true;
      const at = silent ? "" : "@";
      if (CHANNEL_WILDCARDS.has(name)) {
        return `<span class="user-mention channel-wildcard-mention${silent ? " silent" : ""}" data-user-id="*">${at}${escapeHtml(name)}</span>`;
      }
      if (name === "topic") return `<span class="topic-mention${silent ? " silent" : ""}">${at}topic</span>`;
      const user = resolveMentionName(state, name);
      if (!user) return escapeHtml(token.raw);
      return `<span class="user-mention${silent ? " silent" : ""}" data-user-id="${user.id}">${at}${escapeHtml(user.fullName)}</span>`;
    },
  };
  const groupMention: TokenizerAndRendererExtension = {
    name: "groupMention",
    level: "inline",
    start: (src: string) => src.indexOf("@"),
    tokenizer(src: string) {
      const m = /^@(_?)\*(?!\*)([^*\n]+?)\*/.exec(src);
      if (!m) return undefined;
      return { type: "groupMention", raw: m[0], silent: m[1] === "_", name: m[2]!.trim() };
    },
    renderer(token: Tokens.Generic) {
      const name = String(token["name"]).toLowerCase();
      const group = [...state.groups.values()].find((g) => g.name.toLowerCase() === name);
      if (!group) return escapeHtml(token.raw);
      const silent = token["silent"] === true;
      return `<span class="user-group-mention${silent ? " silent" : ""}" data-user-group-id="${group.id}">${silent ? "" : "@"}${escapeHtml(group.name)}</span>`;
    },
  };
  const channelLink: TokenizerAndRendererExtension = {
    name: "channelLink",
    level: "inline",
    start: (src: string) => src.indexOf("#**"),
    tokenizer(src: string) {
      const m = /^#\*\*([^*>\n]+)(?:>([^*\n]*))?\*\*/.exec(src);
      if (!m) return undefined;
      return { type: "channelLink", raw: m[0], channel: m[1]!, topic: m[2] };
    },
    renderer(token: Tokens.Generic) {
      const channel = state.channelByName(String(token["channel"]));
      if (!channel) return escapeHtml(token.raw);
      const topic = token["topic"] as string | undefined;
      if (topic === undefined) {
        return `<a class="stream" data-stream-id="${channel.id}" href="${channelHref(channel.id, channel.name)}">#${escapeHtml(channel.name)}</a>`;
      }
      return `<a class="stream-topic" data-stream-id="${channel.id}" href="${channelHref(channel.id, channel.name, topic)}">#${escapeHtml(channel.name)} &gt; ${escapeHtml(topic)}</a>`;
    },
  };
  const emoji: TokenizerAndRendererExtension = {
    name: "emoji",
    level: "inline",
    start: (src: string) => src.indexOf(":"),
    tokenizer(src: string) {
      const m = /^:([a-z0-9_+-]+):/.exec(src);
      if (!m) return undefined;
      const name = m[1]!;
      const custom = [...state.realmEmoji.values()].find((e) => e.name === name && !e.deactivated);
      if (!UNICODE_EMOJI[name] && !custom) return undefined;
      return { type: "emoji", raw: m[0], name };
    },
    renderer(token: Tokens.Generic) {
      const name = String(token["name"]);
      const code = UNICODE_EMOJI[name];
      if (code) {
        return `<span aria-label="${escapeHtml(name.replace(/_/g, " "))}" class="emoji emoji-${code}" role="img" title="${escapeHtml(name.replace(/_/g, " "))}">:${escapeHtml(name)}:</span>`;
      }
      const custom = [...state.realmEmoji.values()].find((e) => e.name === name);
      return `<img alt=":${escapeHtml(name)}:" class="emoji" src="${escapeHtml(custom?.sourceUrl ?? "")}" title="${escapeHtml(name)}">`;
    },
  };
  const time: TokenizerAndRendererExtension = {
    name: "globalTime",
    level: "inline",
    start: (src: string) => src.indexOf("<time:"),
    tokenizer(src: string) {
      const m = /^<time:([^>\n]+)>/.exec(src);
      if (!m) return undefined;
      return { type: "globalTime", raw: m[0], text: m[1]! };
    },
    renderer(token: Tokens.Generic) {
      const text = String(token["text"]);
      const ms = Date.parse(text);
      if (Number.isNaN(ms)) return `<span class="timestamp-error">Invalid time format: ${escapeHtml(text)}</span>`;
      return `<time datetime="${new Date(ms).toISOString().replace(/\.000Z$/, "Z")}">${escapeHtml(text)}</time>`;
    },
  };
  return [mention, groupMention, channelLink, emoji, time];
}

export class MarkdownRenderer {
  private readonly marked: Marked;
  private readonly cache = new Map<string, string>();

  private readonly imageAttributes: (href: string) => string;

  /** `thumbnailFormats`: what uploaded images' previews name as their source (none: the files themselves). */
  constructor(state: State, thumbnailFormats: readonly ThumbnailFormat[] = []) {
    this.imageAttributes = (href) => inlineImageAttributes(state, thumbnailFormats, href);
    const marked = new Marked({ gfm: true, breaks: true, async: false });
    const inner = (text: string) => marked.parse(text, { async: false });
    marked.use({
      extensions: extensions(state),
      renderer: {
        html: ({ text }) => escapeHtml(text),
        code: ({ text, lang }) => {
          const info = (lang ?? "").trim();
          const [kind = "", ...rest] = info.split(/\s+/);
          if (kind === "quote") return `<blockquote>\n${inner(text)}</blockquote>\n`;
          if (kind === "spoiler") {
            const header = rest.length > 0 ? inner(rest.join(" ")) : "";
            return `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div><div class="spoiler-content" aria-hidden="true">\n${inner(text)}</div></div>\n`;
          }
          const langAttr = kind ? ` data-code-language="${escapeHtml(kind)}"` : "";
          return `<div class="codehilite"${langAttr}><pre><span></span><code>${escapeHtml(text)}\n</code></pre></div>\n`;
        },
        link(token) {
          const safe = /^(https?:|mailto:|\/|#)/i.test(token.href) ? token.href : "";
          return `<a href="${escapeHtml(safe)}">${this.parser.parseInline(token.tokens)}</a>`;
        },
        image({ href, text }) {
          const safe = /^(https?:|\/)/i.test(href) ? href : "";
          return `<a href="${escapeHtml(safe)}">${escapeHtml(text)}</a>`;
        },
      },
    });
    this.marked = marked;
  }

  /** Renders with a bounded cache (least recently used entries are dropped first). */
  render(content: string): string {
    let html = this.cache.get(content);
    if (html !== undefined) {
      this.cache.delete(content);
    } else {
      html = withInlineImages(this.marked.parse(content, { async: false }).trim(), this.imageAttributes);
      if (this.cache.size >= MarkdownRenderer.CACHE_SIZE) {
        const oldest = this.cache.keys().next();
        if (!oldest.done) this.cache.delete(oldest.value);
      }
    }
    this.cache.set(content, html);
    return html;
  }

  static readonly CACHE_SIZE = 5000;
}

/**
 * After each paragraph linking uploaded images, the service adds a preview
 * block per image: `<div class="message_inline_image"><a href title><img …></a></div>`
 * (the <img>'s attributes from inline-images.ts).
 */
function withInlineImages(html: string, imageAttributes: (href: string) => string): string {
  if (!html.includes("/user_uploads/")) return html;
  return html.replace(/<p>([\s\S]*?)<\/p>/g, (para: string, inner: string) => {
    const previews: string[] = [];
    for (const m of inner.matchAll(/<a href="(\/user_uploads\/[^"]+\.(?:png|jpe?g|gif|webp))">([\s\S]*?)<\/a>/gi)) {
      const title = m[2]!.replace(/<[^>]*>/g, "");
      previews.push(`<div class="message_inline_image"><a href="${m[1]}" title="${title.replace(/"/g, "&quot;")}"><img ${imageAttributes(m[1]!)}></a></div>`);
    }
    return previews.length === 0 ? para : `${para}\n${previews.join("\n")}`;
  });
}
