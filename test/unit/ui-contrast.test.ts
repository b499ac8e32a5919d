/**
 * Readable colours: every colour of every theme, and channel colours from the server, keep
 * 4.5:1 contrast against the terminal's background (3:1 for marks), computed with WCAG's
 * relative luminance, on black and on white, in 24-bit, 256 and 16 colours.
 */
import { describe, expect, it } from "vitest";
import { THEMES } from "../../src/config/settings.js";
import { SUBSCRIPTION_COLORS } from "../../src/server/seed/common.js";
import { BLACK, contrast, luminance, nearestNamed, parseHex, readableOn, WHITE, type Rgb } from "../../src/ui/contrast.js";
import { colorRgb, resolveTheme, themeContrasts, type ColorLevel } from "../../src/ui/theme.js";

const BACKGROUNDS: Array<[string, Rgb]> = [
  ["black", BLACK],
  ["white", WHITE],
];
const LEVELS: ColorLevel[] = [3, 2, 1];
const ADVERSARIAL = ["#ffffff", "#000000", "#ffff00", "#00ffff", "#0000ff", "#808080"];

function hue(c: Rgb): number {
  const [r, g, b] = [c.r / 255, c.g / 255, c.b / 255];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe("contrast arithmetic", () => {
  it("follows WCAG 2: black on white is 21:1, a colour on itself 1:1, and xterm's default blue on black fails", () => {
    expect(contrast(BLACK, WHITE)).toBeCloseTo(21, 5);
    expect(contrast(WHITE, WHITE)).toBe(1);
    expect(luminance(parseHex("#808080")!)).toBeCloseTo(0.2159, 3);
    expect(contrast(parseHex("#0000ee")!, BLACK)).toBeLessThan(3);
  });

  it("moves only the lightness, toward readability, and keeps the hue", () => {
    const yellow = parseHex("#ffff00")!;
    const onWhite = readableOn(yellow, WHITE, 4.5);
    expect(contrast(onWhite, WHITE)).toBeGreaterThanOrEqual(4.5);
    expect(Math.abs(hue(onWhite) - hue(yellow))).toBeLessThan(3);
    expect(luminance(onWhite)).toBeLessThan(luminance(yellow));
    const navy = parseHex("#1f4e99")!;
    const onBlack = readableOn(navy, BLACK, 4.5);
    expect(luminance(onBlack)).toBeGreaterThan(luminance(navy));
    expect(Math.abs(hue(onBlack) - hue(navy))).toBeLessThan(3);
    expect(readableOn(navy, WHITE, 4.5)).toEqual(navy); // readable already: unchanged
  });

  it("gives no named colour where none is both readable and near the hue (the terminal's foreground does better)", () => {
    expect(nearestNamed(parseHex("#ffff00")!, WHITE, 4.5)).toBeUndefined(); // every named yellow is too light on white
    expect(nearestNamed(parseHex("#ffff00")!, BLACK, 4.5)).toMatch(/^yellow/);
  });
});

describe("every theme on black and on white", () => {
  for (const name of THEMES) {
    for (const [bgName, bg] of BACKGROUNDS) {
      for (const level of LEVELS) {
        it(`${name} on ${bgName}, ${level === 3 ? "24-bit" : level === 2 ? "256 colours" : "16 colours"}: every role readable`, () => {
          const theme = resolveTheme(name, bg, level);
          const rows = themeContrasts(theme);
          expect(rows).toHaveLength(19);
          for (const r of rows) {
            // undefined: the terminal's own foreground, readable on its own background by definition.
            if (r.ratio === undefined) continue;
            expect(r.ratio, `${r.role} ${r.color}`).toBeGreaterThanOrEqual(r.min);
          }
          // Every role keeps a colour of its own, except in the 16 named colours: on white only red,
          // blue and magenta (and bright blue) are dark enough, and the others take the foreground.
          expect(rows.filter((r) => r.color !== undefined).length).toBeGreaterThanOrEqual(level === 1 || name === "16" ? 6 : 19);
          // A mention of the reader: its text reads on its chip.
          const chip = theme.selfMentionChip;
          if (chip.backgroundColor !== undefined) expect(contrast(colorRgb(chip.color)!, colorRgb(chip.backgroundColor)!)).toBeGreaterThanOrEqual(4.5);
        });
      }
    }
  }

  it("the light theme is designed for white: on white its colours are its own, unadjusted, and differ from the dark theme's", () => {
    const light = resolveTheme("light", WHITE, 3);
    const dark = resolveTheme("dark", WHITE, 3);
    expect(light.accent).toBe("#005f99");
    expect(light.unread).toBe("#a34f00");
    expect(light.accent).not.toBe(dark.accent);
    // With no background known, each theme assumes its own.
    expect(resolveTheme("light", undefined, 3).background).toEqual(WHITE);
    expect(resolveTheme("dark", undefined, 3).background).toEqual(BLACK);
  });
});

describe("channel colours from the server", () => {
  const colours = [...SUBSCRIPTION_COLORS, ...ADVERSARIAL];
  for (const [bgName, bg] of BACKGROUNDS) {
    for (const level of LEVELS) {
      it(`the demo's and adversarial ones stay readable on ${bgName} (level ${level}), as text and as marks`, () => {
        for (const themeName of ["dark", "light"] as const) {
          const theme = resolveTheme(themeName, bg, level);
          for (const hex of colours) {
            const text = colorRgb(theme.channel(hex, "text"));
            const mark = colorRgb(theme.channel(hex, "mark"));
            if (text) expect(contrast(text, bg), `${hex} as text`).toBeGreaterThanOrEqual(4.5);
            if (mark) expect(contrast(mark, bg), `${hex} as a mark`).toBeGreaterThanOrEqual(3);
          }
        }
      });
    }
  }

  it("keeps a channel's hue in 24-bit colour: bright white becomes a dark grey on white, yellow a dark yellow", () => {
    const theme = resolveTheme("light", WHITE, 3);
    const white = colorRgb(theme.channel("#ffffff"))!;
    expect(white.r === white.g && white.g === white.b).toBe(true);
    expect(contrast(white, WHITE)).toBeGreaterThanOrEqual(4.5);
    const yellow = colorRgb(theme.channel("#ffff00"))!;
    expect(Math.abs(hue(yellow) - 60)).toBeLessThan(3);
    // An invalid colour from the server falls back to the accent.
    expect(theme.channel("not a colour")).toBe(theme.accent);
    expect(resolveTheme("16", WHITE, 3).channel("#76ce90")).toBe(resolveTheme("16", WHITE, 3).accent);
  });
});
