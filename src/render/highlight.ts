// Code-block highlighting: highlight.js's core with the languages people paste most, and its HTML
// turned into terminal styles here. Imported by markdown.ts together with the Markdown engine;
// importing every highlight.js language (what a full build does) costs megabytes of heap for
// languages nobody writes in a chat.
/// <reference types="highlight.js" />
import hljs from "highlight.js/lib/core.js";
import bash from "highlight.js/lib/languages/bash.js";
import c from "highlight.js/lib/languages/c.js";
import cpp from "highlight.js/lib/languages/cpp.js";
import csharp from "highlight.js/lib/languages/csharp.js";
import css from "highlight.js/lib/languages/css.js";
import diff from "highlight.js/lib/languages/diff.js";
import dockerfile from "highlight.js/lib/languages/dockerfile.js";
import go from "highlight.js/lib/languages/go.js";
import haskell from "highlight.js/lib/languages/haskell.js";
import http from "highlight.js/lib/languages/http.js";
import ini from "highlight.js/lib/languages/ini.js";
import java from "highlight.js/lib/languages/java.js";
import javascript from "highlight.js/lib/languages/javascript.js";
import json from "highlight.js/lib/languages/json.js";
import kotlin from "highlight.js/lib/languages/kotlin.js";
import lua from "highlight.js/lib/languages/lua.js";
import makefile from "highlight.js/lib/languages/makefile.js";
import markdown from "highlight.js/lib/languages/markdown.js";
import perl from "highlight.js/lib/languages/perl.js";
import php from "highlight.js/lib/languages/php.js";
import plaintext from "highlight.js/lib/languages/plaintext.js";
import python from "highlight.js/lib/languages/python.js";
import ruby from "highlight.js/lib/languages/ruby.js";
import rust from "highlight.js/lib/languages/rust.js";
import scala from "highlight.js/lib/languages/scala.js";
import shell from "highlight.js/lib/languages/shell.js";
import sql from "highlight.js/lib/languages/sql.js";
import swift from "highlight.js/lib/languages/swift.js";
import typescript from "highlight.js/lib/languages/typescript.js";
import xml from "highlight.js/lib/languages/xml.js";
import yaml from "highlight.js/lib/languages/yaml.js";

const LANGUAGES = {
  bash, c, cpp, csharp, css, diff, dockerfile, go, haskell, http, ini, java, javascript, json, kotlin, lua,
  makefile, markdown, perl, php, plaintext, python, ruby, rust, scala, shell, sql, swift, typescript, xml, yaml,
};
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

export type CodeTheme = Record<string, (s: string) => string>;

/** Whether `name` (a language or one of its aliases, e.g. `js`, `py`, `sh`) is highlighted. */
export function supportsLanguage(name: string): boolean {
  return hljs.getLanguage(name) !== undefined;
}

const TAG_RE = /<span class="([^"]*)">|<\/span>|[^<]+/g;
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

function unescapeHtml(s: string): string {
  return s.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);
}

/**
 * `code` highlighted as `language`, each token class styled by `theme` (`keyword`, `string`… —
 * highlight.js's class without its `hljs-` prefix); text in no styled class stays plain.
 * Throws when the language is not known (check `supportsLanguage` first).
 */
export function highlight(code: string, options: { language: string; ignoreIllegals: boolean; theme: CodeTheme }): string {
  const html = hljs.highlight(code, { language: options.language, ignoreIllegals: options.ignoreIllegals }).value;
  const styles: (((s: string) => string) | undefined)[] = [];
  let out = "";
  for (const m of html.matchAll(TAG_RE)) {
    if (m[1] !== undefined) {
      const cls = m[1].split(" ").find((k) => k.startsWith("hljs-"));
      styles.push(cls === undefined ? undefined : options.theme[cls.slice(5)]);
    } else if (m[0] === "</span>") {
      styles.pop();
    } else {
      const text = unescapeHtml(m[0]);
      const style = styles.findLast((s) => s !== undefined);
      // Styled line by line: a style that spans a newline would bleed into the indent.
      out += style === undefined ? text : text.split("\n").map((l) => (l === "" ? l : style(l))).join("\n");
    }
  }
  return out;
}
