// The colours of a message body: the roles a theme paints (BodyColors), the 16-colour looks for
// renders given none (with colour, and without any), and highlight.js's token classes mapped to
// them for code blocks.
import { Chalk, type ChalkInstance } from "chalk";

export type Paint = (s: string) => string;

/**
 * The colours of a message body, chosen by the UI's theme for the terminal's background (any
 * role may be the terminal's own foreground). `id` names them in the render cache's key.
 */
export interface BodyColors {
  id: string;
  code: Paint;
  heading: Paint;
  firstHeading: Paint;
  link: Paint;
  channelLink: Paint;
  /** Quote bars, rules and the spoiler arrow: marks, not text. */
  quote: Paint;
  spoiler: Paint;
  /** The organization's custom emoji, drawn as their `:name:`. */
  customEmoji: Paint;
  mentionSelf: Paint;
  mentionWildcard: Paint;
  mention: Paint;
  mentionSilent: Paint;
  keyword: Paint;
  type: Paint;
  number: Paint;
  string: Paint;
  function: Paint;
  comment: Paint;
}

export const colorChalk = new Chalk({ level: 1 });
export const plainChalk = new Chalk({ level: 0 });

/** The 16-colour look of a body, for renders given no colours of a theme (and, with plainChalk, none at all). */
export function basicBodyColors(c: ChalkInstance): BodyColors {
  return {
    id: `basic${c.level}`,
    code: c.yellow,
    heading: c.bold.green,
    firstHeading: c.bold.underline.magenta,
    link: c.blue.underline,
    channelLink: c.bold.blue,
    quote: c.gray,
    spoiler: c.magenta,
    customEmoji: c.magenta,
    mentionSelf: c.inverse.bold.yellow,
    mentionWildcard: c.bold.yellow,
    mention: c.bold.cyan,
    mentionSilent: c.cyan,
    keyword: c.blue,
    type: c.cyan,
    number: c.green,
    string: c.red,
    function: c.yellow,
    comment: c.gray,
  };
}

export const BASIC_COLORS = basicBodyColors(colorChalk);
export const NO_COLORS = basicBodyColors(plainChalk);

const themes = new WeakMap<BodyColors, Record<string, (s: string) => string>>();

/** highlight.js token classes → styles; classes not listed here stay plain. */
export function codeTheme(c: ChalkInstance, p: BodyColors): Record<string, (s: string) => string> {
  let theme = themes.get(p);
  if (theme !== undefined) return theme;
  const plain = (s: string): string => s;
  const styles: Record<string, (s: string) => string> = {
    keyword: p.keyword,
    built_in: p.type,
    type: p.type,
    literal: p.keyword,
    number: p.number,
    regexp: p.string,
    string: p.string,
    class: p.keyword,
    function: p.function,
    comment: p.comment,
    doctag: p.comment,
    meta: p.comment,
    tag: p.comment,
    name: p.keyword,
    attr: p.type,
    attribute: p.type,
    addition: p.number,
    deletion: p.string,
    emphasis: c.italic,
    strong: c.bold,
    link: c.underline,
  };
  // cli-highlight falls back to its own (global chalk) theme for classes a theme lacks.
  theme = new Proxy(styles, { get: (t, k) => (typeof k === "string" ? t[k] : undefined) ?? plain });
  themes.set(p, theme);
  return theme;
}
