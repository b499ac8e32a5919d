/**
 * Colour themes. Components ask for roles (accent, unread, mention…), never for raw colours.
 * A theme is a design (a colour per role) made readable on the terminal's actual background:
 * every role keeps 4.5:1 contrast against it (contrast.ts), keeping its hue, in the colours
 * the terminal can show — 24-bit, the 256-colour cube and greys, or the 16 named colours
 * (judged by xterm's defaults; a role with no readable named colour near its hue takes the
 * terminal's own foreground). Channel colours from the server are made readable the same way.
 *
 * dark and light are designed for a black and a white background, and assume one when the
 * terminal did not say; "16" uses only the named colours and no channel colours. NO_COLOR /
 * --no-color turn colour off below this layer (the colour level is 0, every role renders
 * plain).
 */
import { Chalk } from "chalk";
import { createContext, useContext } from "react";
import type { ThemeName } from "../config/settings.js";
import type { BodyColors, Paint } from "../render/markdown.js";
import {
  ansi256Rgb,
  BLACK,
  contrast,
  isLight,
  MARK_CONTRAST,
  namedRgb,
  nearest256,
  nearestNamed,
  parseHex,
  readableOn,
  TEXT_CONTRAST,
  toHex,
  WHITE,
  type Rgb,
} from "./contrast.js";

/** How many colours the terminal takes: chalk's levels (0 none, 1: 16, 2: 256, 3: 24-bit). */
export type ColorLevel = 0 | 1 | 2 | 3;

export const ROLES = [
  "accent",
  "selection",
  "unread",
  "count",
  "mention",
  "selfMention",
  "recipient",
  "reactions",
  "ok",
  "warn",
  "error",
  "code",
  "link",
  "muted",
  "keyword",
  "type",
  "number",
  "string",
  "function",
] as const;
export type Role = (typeof ROLES)[number];

/** A role's colour for Ink: `#rrggbb`, `ansi256(n)`, a named colour, or undefined (the terminal's own foreground). */
export type Theme = Record<Role, string | undefined> & {
  name: ThemeName;
  /** The background the colours were made readable on (the terminal's, or the one the theme assumes). */
  background: Rgb;
  level: ColorLevel;
  /** Whether per-channel colours from the subscription are used. */
  channelColors: boolean;
  /** A mention of the reader in a message: text and background that read well together. */
  selfMentionChip: { color?: string; backgroundColor?: string };
  /** A channel's colour (`#rrggbb` from the server) made readable: for text (headers) or marks (sidebar `#`). Falls back to the accent. */
  channel(hex: string | undefined, use?: "text" | "mark"): string | undefined;
  /** The colours of message bodies (Markdown). */
  body: BodyColors;
};

type Design = Record<Role, string>;

const DARK: Design = {
  accent: "#4fc1e9",
  selection: "#4fc1e9",
  unread: "#f0c040",
  count: "#4fc1e9",
  mention: "#6fd3ff",
  selfMention: "#ffd75f",
  recipient: "#82a8ff",
  reactions: "#d787d7",
  ok: "#5fd75f",
  warn: "#f0c040",
  error: "#ff6b6b",
  code: "#e5c07b",
  link: "#6cb6ff",
  muted: "#8c8c8c",
  keyword: "#82a8ff",
  type: "#4fc1e9",
  number: "#98c379",
  string: "#ef8f8f",
  function: "#e5c07b",
};

const LIGHT: Design = {
  accent: "#005f99",
  selection: "#005f99",
  unread: "#a34f00",
  count: "#005f99",
  mention: "#0055aa",
  selfMention: "#a34f00",
  recipient: "#1f4e99",
  reactions: "#7e2f8e",
  ok: "#1a7f37",
  warn: "#9a5b00",
  error: "#c4161c",
  code: "#8a4600",
  link: "#0550ae",
  muted: "#5f6368",
  keyword: "#0550ae",
  type: "#005f99",
  number: "#1a7f37",
  string: "#a3161c",
  function: "#6f42c1",
};

const SIXTEEN: Design = {
  accent: "cyan",
  selection: "cyan",
  unread: "yellow",
  count: "cyan",
  mention: "cyan",
  selfMention: "yellow",
  recipient: "blue",
  reactions: "magenta",
  ok: "green",
  warn: "yellow",
  error: "red",
  code: "yellow",
  link: "blue",
  muted: "gray",
  keyword: "blue",
  type: "cyan",
  number: "green",
  string: "red",
  function: "yellow",
};

const DESIGNS: Record<ThemeName, Design> = { dark: DARK, light: LIGHT, "16": SIXTEEN };

/** Marks (the cursor's bar) need 3:1; everything else is read as text. */
const MARK_ROLES: ReadonlySet<Role> = new Set<Role>(["selection"]);

/** The theme for a terminal background: light on a light one, dark otherwise (and when unknown). */
export function themeForBackground(bg: Rgb | undefined): ThemeName {
  return bg !== undefined && isLight(bg) ? "light" : "dark";
}

/** The background a theme assumes when the terminal did not say. */
function assumedBackground(name: ThemeName): Rgb {
  return name === "light" ? WHITE : BLACK;
}

function designRgb(value: string): Rgb {
  return parseHex(value) ?? namedRgb(value) ?? BLACK;
}

/** One colour for Ink at the terminal's level, readable (`min`) on `bg`; undefined: the terminal's foreground. */
function pick(rgb: Rgb, bg: Rgb, min: number, level: ColorLevel, namedOnly: boolean): string | undefined {
  if (namedOnly || level === 1) return nearestNamed(rgb, bg, min);
  if (level === 2) return `ansi256(${nearest256(rgb, bg, min)})`;
  return toHex(readableOn(rgb, bg, min));
}

/** The RGB value a colour for Ink stands for (xterm's for named colours); undefined for the terminal's foreground. */
export function colorRgb(color: string | undefined): Rgb | undefined {
  if (color === undefined) return undefined;
  const n = /^ansi256\((\d+)\)$/.exec(color);
  if (n) return ansi256Rgb(Number(n[1]));
  return parseHex(color) ?? namedRgb(color);
}

/** Makes the theme `name` readable on `background` (the theme's own assumption when undefined) at colour `level`. */
export function resolveTheme(name: ThemeName, background: Rgb | undefined, level: ColorLevel): Theme {
  const design = DESIGNS[name];
  const bg = background ?? assumedBackground(name);
  const namedOnly = name === "16";
  const roles = {} as Record<Role, string | undefined>;
  for (const role of ROLES) roles[role] = pick(designRgb(design[role]), bg, MARK_ROLES.has(role) ? MARK_CONTRAST : TEXT_CONTRAST, level, namedOnly);

  // The chip's text is black or white, whichever reads better on the chip's own colour.
  const chipBg = pick(designRgb(design.selfMention), bg, 1, level, namedOnly);
  const chipRgb = colorRgb(chipBg);
  const chipFg = chipRgb === undefined ? undefined : contrast(BLACK, chipRgb) >= contrast(WHITE, chipRgb) ? "black" : "white";
  const selfMentionChip = chipBg === undefined ? {} : { color: level >= 2 && !namedOnly ? (chipFg === "black" ? "#000000" : "#ffffff") : chipFg, backgroundColor: chipBg };

  const channels = new Map<string, string | undefined>();
  const channel = (hex: string | undefined, use: "text" | "mark" = "text"): string | undefined => {
    const rgb = hex === undefined || namedOnly ? undefined : parseHex(hex);
    if (rgb === undefined) return roles.accent;
    const key = `${hex}:${use}`;
    if (!channels.has(key)) channels.set(key, pick(rgb, bg, use === "mark" ? MARK_CONTRAST : TEXT_CONTRAST, level, false) ?? roles.accent);
    return channels.get(key);
  };

  return { ...roles, name, background: bg, level, channelColors: !namedOnly, selfMentionChip, channel, body: bodyColors(name, bg, level, roles, selfMentionChip) };
}

function bodyColors(name: ThemeName, bg: Rgb, level: ColorLevel, roles: Record<Role, string | undefined>, chip: Theme["selfMentionChip"]): BodyColors {
  const c = new Chalk({ level });
  const fg = (color: string | undefined) => {
    if (color === undefined) return c;
    const n = /^ansi256\((\d+)\)$/.exec(color);
    if (n) return c.ansi256(Number(n[1]));
    if (color.startsWith("#")) return c.hex(color);
    return (c as unknown as Record<string, typeof c>)[color] ?? c;
  };
  const paint = (role: Role): Paint => fg(roles[role]);
  const chipPaint: Paint =
    chip.backgroundColor === undefined
      ? c.inverse.bold
      : (() => {
          const text = fg(chip.color).bold;
          const b = chip.backgroundColor;
          const n = /^ansi256\((\d+)\)$/.exec(b);
          const withBg = n ? text.bgAnsi256(Number(n[1])) : b.startsWith("#") ? text.bgHex(b) : ((text as unknown as Record<string, typeof c>)[`bg${b[0]!.toUpperCase()}${b.slice(1)}`] ?? text.inverse);
          return withBg;
        })();
  return {
    id: `${name}:${toHex(bg)}:${level}`,
    code: paint("code"),
    heading: fg(roles.ok).bold,
    firstHeading: fg(roles.reactions).bold.underline,
    link: fg(roles.link).underline,
    channelLink: fg(roles.link).bold,
    quote: paint("muted"),
    spoiler: paint("reactions"),
    customEmoji: paint("reactions"),
    mentionSelf: chipPaint,
    mentionWildcard: fg(roles.selfMention).bold,
    mention: fg(roles.mention).bold,
    mentionSilent: paint("mention"),
    keyword: paint("keyword"),
    type: paint("type"),
    number: paint("number"),
    string: paint("string"),
    function: paint("function"),
    comment: paint("muted"),
  };
}

/** Each role's contrast against the theme's background (undefined: the terminal's own foreground), with the ratio it must reach. */
export function themeContrasts(theme: Theme): Array<{ role: Role; color: string | undefined; ratio: number | undefined; min: number }> {
  return ROLES.map((role) => {
    const rgb = colorRgb(theme[role]);
    return { role, color: theme[role], ratio: rgb && contrast(rgb, theme.background), min: MARK_ROLES.has(role) ? MARK_CONTRAST : TEXT_CONTRAST };
  });
}

export const ThemeContext = createContext<Theme>(resolveTheme("dark", undefined, 3));

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
