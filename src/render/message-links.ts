/**
 * The links of a message's Markdown source: `[text](url)`, `<url>` and bare
 * web addresses, in order of appearance, each once. A link to the
 * organization's `/user_uploads/…` is an attachment (the account's
 * credentials read it); the others are plain web links. Code spans and
 * fenced code blocks hold no links.
 */

export interface MessageLink {
  /** As written (relative for uploads: `/user_uploads/2/ab/x/name.png`). */
  url: string;
  /** The link's text, or the file name of an attachment, or the URL. */
  label: string;
  /** A file uploaded to the organization. */
  upload: boolean;
}

const FENCE_RE = /^(\s{0,3})(`{3,}|~{3,})[^\n]*\n[^]*?(?:\n\1?\2[`~]*[ \t]*(?=\n|$)|$)/gm;
const CODE_SPAN_RE = /(`+)[^`][^]*?\1/g;
const MARKDOWN_LINK_RE = /!?\[((?:[^\][\n]|\[[^\]\n]*\])*)\]\(\s*<?([^()\s<>]+(?:\([^()\s]*\)[^()\s<>]*)*)>?(?:\s+"[^"\n]*")?\s*\)/g;
const AUTOLINK_RE = /<((?:https?:\/\/)[^\s<>]+)>/g;
// eslint-disable-next-line no-control-regex
const BARE_RE = /\bhttps?:\/\/[^\s<>()[\]\u0000-\u001f\u007f-\u009f]+(?:\([^\s<>()\u0000-\u001f]*\)[^\s<>()[\]\u0000-\u001f\u007f-\u009f]*)*/g;

function isUpload(url: string): boolean {
  return /^\/user_uploads\/\d+\//.test(url) || /^https?:\/\/[^/]+\/user_uploads\/\d+\//.test(url);
}

function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0]!.split("/").pop() ?? url;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** Drops the punctuation that ends a sentence rather than the address. */
function trimBare(url: string): string {
  return url.replace(/[.,;:!?'"*_~]+$/, "");
}

export function messageLinks(markdown: string, realmUrl = ""): MessageLink[] {
  const text = markdown.replace(FENCE_RE, " ").replace(CODE_SPAN_RE, " ");
  const found: Array<{ at: number; url: string; label: string }> = [];
  const taken: Array<[number, number]> = [];
  for (const m of text.matchAll(MARKDOWN_LINK_RE)) {
    found.push({ at: m.index, url: m[2]!, label: m[1]!.trim() });
    taken.push([m.index, m.index + m[0].length]);
  }
  const inside = (i: number) => taken.some(([a, b]) => i >= a && i < b);
  for (const m of text.matchAll(AUTOLINK_RE)) {
    if (inside(m.index)) continue;
    found.push({ at: m.index, url: m[1]!, label: "" });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(BARE_RE)) {
    if (inside(m.index)) continue;
    found.push({ at: m.index, url: trimBare(m[0]), label: "" });
  }
  const base = realmUrl.replace(/\/+$/, "");
  const seen = new Set<string>();
  const out: MessageLink[] = [];
  for (const f of found.sort((a, b) => a.at - b.at)) {
    // An absolute link to this organization's uploads is the same file as the relative one.
    const url = base && f.url.startsWith(`${base}/user_uploads/`) ? f.url.slice(base.length) : f.url;
    if (!/^(https?:\/\/|\/user_uploads\/)/i.test(url) || seen.has(url)) continue;
    seen.add(url);
    const upload = isUpload(url);
    out.push({ url, upload, label: f.label || (upload ? fileNameOf(url) : url) });
  }
  return out;
}
