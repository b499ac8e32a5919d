/**
 * Colour themes. Components ask for roles (accent, unread, mention…), never
 * for raw colours. The 16-colour theme uses only the basic ANSI names, so it
 * looks right on any terminal; NO_COLOR / --no-color turn colour off below
 * this layer (the colour level is 0, every role renders plain).
 */
import { createContext, useContext } from "react";
import type { ThemeName } from "../config/settings.js";

export interface Theme {
  name: ThemeName;
  accent: string;
  selection: string;
  unread: string;
  count: string;
  mention: string;
  selfMention: string;
  recipient: string;
  reactions: string;
  ok: string;
  warn: string;
  error: string;
  /** Whether per-channel colours from the subscription are used. */
  channelColors: boolean;
}

export const THEME_TABLE: Record<ThemeName, Theme> = {
  dark: {
    name: "dark",
    accent: "cyan",
    selection: "cyan",
    unread: "yellow",
    count: "cyan",
    mention: "cyanBright",
    selfMention: "yellowBright",
    recipient: "blueBright",
    reactions: "magenta",
    ok: "green",
    warn: "yellow",
    error: "red",
    channelColors: true,
  },
  light: {
    name: "light",
    accent: "blue",
    selection: "blue",
    unread: "#b35c00",
    count: "blue",
    mention: "blue",
    selfMention: "#b35c00",
    recipient: "#1f4e99",
    reactions: "magenta",
    ok: "green",
    warn: "#b35c00",
    error: "red",
    channelColors: true,
  },
  "16": {
    name: "16",
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
    channelColors: false,
  },
};

export const ThemeContext = createContext<Theme>(THEME_TABLE.dark);

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
