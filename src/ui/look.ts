/**
 * How the screen should look on this terminal: the theme its background calls for, and the
 * glyphs and emoji it can show. Decided from the terminal's capabilities (terminal/
 * capabilities.ts: the background colour it answered to OSC 11, whether it shows Unicode and
 * emoji), the environment (COLORFGBG, the locale) and the user's settings, which win.
 */
import type { Settings, ThemeName, ThemeSetting } from "../config/settings.js";
import { setPresentation } from "../render/glyphs.js";
import { NAMED_16, type Rgb } from "./contrast.js";
import { updateTerminalCapabilities, type TerminalCapabilities } from "./terminal/capabilities.js";
import { themeForBackground } from "./theme.js";

type Env = Record<string, string | undefined>;

/**
 * Whether the locale's character set is UTF-8. The first of LC_ALL, LC_CTYPE and LANG that is
 * set and not empty decides (POSIX's order); "C" and "POSIX" are ASCII, and a locale without a
 * charset (`en_US`) has its legacy one. Nothing set is the C locale, except on Windows, whose
 * terminals take Unicode.
 */
export function localeIsUtf8(env: Env, platform: NodeJS.Platform = process.platform): boolean {
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((v) => v !== undefined && v !== "");
  if (locale === undefined) return platform === "win32";
  const charset = /\.([^@]+)/.exec(locale)?.[1] ?? "";
  return /^utf-?8$/i.test(charset);
}

/** At start: a locale that is not UTF-8 means the terminal is given no Unicode (LANG=C over SSH, say). */
export function noteLocale(env: Env = process.env): void {
  if (!localeIsUtf8(env)) updateTerminalCapabilities({ unicode: false });
}

/**
 * The background from COLORFGBG ("15;0", rxvt's "15;default;0"): the last field is the
 * background's colour number, taken at xterm's value; "default" says nothing.
 */
export function colorFgBgBackground(env: Env): Rgb | undefined {
  const last = env.COLORFGBG?.split(";").pop()?.trim();
  if (last === undefined || !/^\d{1,2}$/.test(last)) return undefined;
  return NAMED_16[Number(last)]?.[1];
}

/** The terminal's background: what it answered to OSC 11, else what COLORFGBG says, else unknown. */
export function terminalBackground(caps: Pick<TerminalCapabilities, "background">, env: Env = process.env): Rgb | undefined {
  return caps.background ?? colorFgBgBackground(env);
}

/** The theme to draw with: the user's choice (set with T or in the settings), else the one the background calls for. */
export function chosenTheme(setting: ThemeSetting, runtime: ThemeName | undefined, background: Rgb | undefined): ThemeName {
  return runtime ?? (setting === "auto" ? themeForBackground(background) : setting);
}

export interface Presentation {
  ascii: boolean;
  emojiText: boolean;
}

/**
 * ASCII glyphs when the settings say so, or (auto) when the terminal cannot show Unicode (its
 * locale is not UTF-8: see `localeIsUtf8`, which the start applies to the capabilities);
 * emoji as text when the settings say so, or (auto) when the terminal cannot show them, and
 * always with ASCII.
 */
export function choosePresentation(settings: Pick<Settings, "glyphs" | "emoji">, caps: Pick<TerminalCapabilities, "unicode" | "emoji">): Presentation {
  const ascii = settings.glyphs === "ascii" || (settings.glyphs === "auto" && !caps.unicode);
  const emojiText = ascii || settings.emoji === "text" || (settings.emoji === "auto" && !caps.emoji);
  return { ascii, emojiText };
}

/** Makes `p` the glyphs every part of the screen writes (render/glyphs.ts). */
export function applyPresentation(p: Presentation): void {
  setPresentation(p);
}
