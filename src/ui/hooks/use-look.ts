/**
 * The theme and glyphs of the screen (look.ts), followed as the terminal's answers come in:
 * its background colour may arrive after the first frame, and the screen then takes the
 * theme it calls for (unless the user chose one).
 */
import chalk from "chalk";
import { useEffect, useMemo, useState } from "react";
import type { Settings, ThemeName } from "../../config/settings.js";
import { presentationKey } from "../../render/glyphs.js";
import { toHex } from "../contrast.js";
import { applyPresentation, choosePresentation, chosenTheme, terminalBackground } from "../look.js";
import { onTerminalCapabilities, terminalCapabilities } from "../terminal/capabilities.js";
import { resolveTheme, type ColorLevel, type Theme } from "../theme.js";

export interface Look {
  theme: Theme;
  /** Whether the glyphs are the ASCII set. */
  ascii: boolean;
  /** Changes whenever the glyphs or the emoji's presentation change (for caches of drawn text). */
  key: string;
}

export function useLook(settings: Pick<Settings, "theme" | "glyphs" | "emoji">, runtimeTheme: ThemeName | undefined, color: boolean): Look {
  const [caps, setCaps] = useState(terminalCapabilities);
  useEffect(() => {
    setCaps(terminalCapabilities());
    return onTerminalCapabilities(setCaps);
  }, []);
  const background = terminalBackground(caps);
  const name = chosenTheme(settings.theme, runtimeTheme, background);
  // Ink colours through chalk, whose level says what the terminal takes (0 with NO_COLOR).
  const level = (color ? chalk.level : 0) as ColorLevel;
  const bgKey = background ? toHex(background) : "";
  const theme = useMemo(() => resolveTheme(name, background, level), [name, bgKey, level]); // the background by value: a new answer of the same colour changes nothing
  const presentation = choosePresentation(settings, caps);
  // Set while rendering: every component below reads the glyphs as it renders.
  applyPresentation(presentation);
  return { theme, ascii: presentation.ascii, key: presentationKey() };
}
