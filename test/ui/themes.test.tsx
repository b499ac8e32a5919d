/**
 * The theme follows the terminal's background: the light one when the terminal says its
 * background is light (OSC 11, which may answer after the first frame, or COLORFGBG), the
 * dark one otherwise; a theme the user chose wins. Drawn in 24-bit colour here, so the frame
 * carries the theme's colours.
 */
import chalk from "chalk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { act } from "react";
import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import { BLACK, parseHex, WHITE } from "../../src/ui/contrast.js";
import { chosenTheme, colorFgBgBackground, terminalBackground } from "../../src/ui/look.js";
import { resetTerminalCapabilities, updateTerminalCapabilities } from "../../src/ui/terminal/capabilities.js";
import { resolveTheme } from "../../src/ui/theme.js";
import { renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
const level = chalk.level;
beforeEach(() => {
  chalk.level = 3;
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  chalk.level = level;
  resetTerminalCapabilities();
});

/** The SGR that sets a 24-bit foreground colour. */
function fg(hex: string | undefined): string {
  const c = parseHex(hex ?? "")!;
  return `\x1b[38;2;${c.r};${c.g};${c.b}m`;
}

describe("the theme and the terminal's background", () => {
  it("starts dark, and takes the light theme when the terminal answers that its background is white", async () => {
    app = await renderApp({ color: true });
    await app.waitFor("connected");
    const darkOk = fg(resolveTheme("dark", undefined, 3).ok);
    const lightOk = fg(resolveTheme("light", WHITE, 3).ok);
    expect(darkOk).not.toBe(lightOk);
    expect(app.frame()).toContain(`${darkOk}● connected`); // the status line in the dark theme's colour
    await act(async () => updateTerminalCapabilities({ background: WHITE })); // the OSC 11 answer, after the first frame
    await app.until(() => app!.frame().includes(`${lightOk}● connected`), "the light theme's colours");
    // A recipient header on screen: its channel's colour, made readable on white.
    const plainFrame = () => app!.frame().replace(/\x1b\[[0-9;]*m/g, "");
    await app.until(() => /#[\w-]+ › /.test(plainFrame()), "the feed's messages");
    const plain = plainFrame();
    const name = /#([\w-]+) › /.exec(plain)?.[1];
    const channel = [...app.machine.store!.channels.values()].find((c) => c.name === name)!;
    expect(app.frame()).toContain(`${fg(resolveTheme("light", WHITE, 3).channel(channel.color))}#${name} ›`);
  });

  it("keeps the theme the user chose, made readable on the background all the same", async () => {
    updateTerminalCapabilities({ background: WHITE });
    app = await renderApp({ color: true, settings: { ...DEFAULT_SETTINGS, startView: "feed", theme: "dark" } });
    await app.waitFor("connected");
    const ok = resolveTheme("dark", WHITE, 3).ok;
    expect(ok).not.toBe(resolveTheme("light", WHITE, 3).ok);
    expect(app.frame()).toContain(`${fg(ok)}● connected`);
  });
});

describe("where the background comes from", () => {
  it("reads COLORFGBG (xterm's and rxvt's forms) when the terminal did not answer, and OSC 11 first", () => {
    expect(colorFgBgBackground({ COLORFGBG: "0;15" })).toEqual(WHITE);
    expect(colorFgBgBackground({ COLORFGBG: "15;default;0" })).toEqual(BLACK);
    expect(colorFgBgBackground({ COLORFGBG: "default;default" })).toBeUndefined();
    expect(colorFgBgBackground({})).toBeUndefined();
    expect(terminalBackground({}, { COLORFGBG: "0;15" })).toEqual(WHITE);
    expect(terminalBackground({ background: BLACK }, { COLORFGBG: "0;15" })).toEqual(BLACK);
  });

  it("picks light for a light background, dark for a dark or unknown one, and the user's choice over both", () => {
    expect(chosenTheme("auto", undefined, WHITE)).toBe("light");
    expect(chosenTheme("auto", undefined, { r: 253, g: 246, b: 227 })).toBe("light"); // Solarized light
    expect(chosenTheme("auto", undefined, { r: 0, g: 43, b: 54 })).toBe("dark"); // Solarized dark
    expect(chosenTheme("auto", undefined, undefined)).toBe("dark");
    expect(chosenTheme("16", undefined, WHITE)).toBe("16");
    expect(chosenTheme("auto", "dark", WHITE)).toBe("dark"); // chosen with T in this run
  });
});
