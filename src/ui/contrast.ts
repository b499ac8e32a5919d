/**
 * Colour arithmetic for readable themes: WCAG 2 relative luminance and contrast ratio, and
 * ways to make a colour readable on a given background while keeping its hue — by moving its
 * HSL lightness (24-bit colour), or by choosing from the palette the terminal can show (the
 * 256-colour cube and grey ramp, or the 16 named colours, judged by xterm's default values
 * since the terminal may have its own). Pure functions; theme.ts decides what to ask for.
 */
import type { Rgb } from "./terminal/capabilities.js";

export type { Rgb };

export const BLACK: Rgb = { r: 0, g: 0, b: 0 };
export const WHITE: Rgb = { r: 255, g: 255, b: 255 };

/** Text needs this much contrast against its background; marks and borders need `MARK`. */
export const TEXT_CONTRAST = 4.5;
export const MARK_CONTRAST = 3;

export function parseHex(hex: string): Rgb | undefined {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return undefined;
  const n = Number.parseInt(m[1]!, 16);
  return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
}

export function toHex(c: Rgb): string {
  return `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;
}

function channel(v: number): number {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

/** WCAG 2 relative luminance, 0 (black) to 1 (white). */
export function luminance(c: Rgb): number {
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

/** WCAG 2 contrast ratio, 1 to 21. */
export function contrast(a: Rgb, b: Rgb): number {
  return luminanceContrast(luminance(a), luminance(b));
}

function luminanceContrast(la: number, lb: number): number {
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Whether the background is light: black text reads better on it than white text. */
export function isLight(bg: Rgb): boolean {
  return contrast(BLACK, bg) > contrast(WHITE, bg);
}

interface Hsl {
  h: number;
  s: number;
  l: number;
}

function toHsl({ r, g, b }: Rgb): Hsl {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === R ? (G - B) / d + (G < B ? 6 : 0) : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  return { h: h * 60, s, l };
}

function fromHsl({ h, s, l }: Hsl): Rgb {
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const hue = (t: number) => {
    const x = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  const k = h / 360;
  return { r: Math.round(hue(k + 1 / 3) * 255), g: Math.round(hue(k) * 255), b: Math.round(hue(k - 1 / 3) * 255) };
}

/**
 * `c` itself when it already has `min` contrast against `bg`; else the same hue and saturation
 * with the lightness moved toward readability (darker on a light background, lighter on a
 * dark one) just as far as needed. Always reachable: black or white has at least 4.58:1
 * against any colour.
 */
export function readableOn(c: Rgb, bg: Rgb, min: number): Rgb {
  if (contrast(c, bg) >= min) return c;
  const hsl = toHsl(c);
  const target = isLight(bg) ? 0 : 1;
  let ok = target; // a lightness known to be readable
  let bad = hsl.l; // one known not to be
  for (let i = 0; i < 24; i++) {
    const mid = (ok + bad) / 2;
    if (contrast(fromHsl({ ...hsl, l: mid }), bg) >= min) ok = mid;
    else bad = mid;
  }
  return fromHsl({ ...hsl, l: ok });
}

// ---- the palettes a terminal may be limited to --------------------------------------------

/** The 16 named colours (chalk's names) with xterm's default values. */
export const NAMED_16: ReadonlyArray<readonly [name: string, rgb: Rgb]> = [
  ["black", { r: 0, g: 0, b: 0 }],
  ["red", { r: 205, g: 0, b: 0 }],
  ["green", { r: 0, g: 205, b: 0 }],
  ["yellow", { r: 205, g: 205, b: 0 }],
  ["blue", { r: 0, g: 0, b: 238 }],
  ["magenta", { r: 205, g: 0, b: 205 }],
  ["cyan", { r: 0, g: 205, b: 205 }],
  ["white", { r: 229, g: 229, b: 229 }],
  ["blackBright", { r: 127, g: 127, b: 127 }],
  ["redBright", { r: 255, g: 0, b: 0 }],
  ["greenBright", { r: 0, g: 255, b: 0 }],
  ["yellowBright", { r: 255, g: 255, b: 0 }],
  ["blueBright", { r: 92, g: 92, b: 255 }],
  ["magentaBright", { r: 255, g: 0, b: 255 }],
  ["cyanBright", { r: 0, g: 255, b: 255 }],
  ["whiteBright", { r: 255, g: 255, b: 255 }],
];

const NAMED_BY_NAME: ReadonlyMap<string, Rgb> = new Map(NAMED_16);

/** xterm's default value of a named colour (chalk's names; `gray`/`grey` are `blackBright`). */
export function namedRgb(name: string): Rgb | undefined {
  return NAMED_BY_NAME.get(name === "gray" || name === "grey" ? "blackBright" : name);
}

const CUBE = [0, 95, 135, 175, 215, 255];

/** The value of a 256-colour index from 16 on (the cube and the grey ramp, the same in every terminal that has them). */
export function ansi256Rgb(n: number): Rgb {
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return { r: v, g: v, b: v };
  }
  const i = n - 16;
  return { r: CUBE[Math.floor(i / 36)]!, g: CUBE[Math.floor(i / 6) % 6]!, b: CUBE[i % 6]! };
}

// Distance weighted by how the eye sees red, green and blue ("redmean").
function distance(a: Rgb, b: Rgb): number {
  const rm = (a.r + b.r) / 2;
  const dr = a.r - b.r;
  const dg = a.g - b.g;
  const db = a.b - b.b;
  return Math.sqrt((2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db);
}

/** The colours from 16 on, with their luminance: a theme looks through them for each of its colours. */
const PALETTE_256: ReadonlyArray<{ rgb: Rgb; luminance: number }> = Array.from({ length: 240 }, (_, i) => {
  const rgb = ansi256Rgb(16 + i);
  return { rgb, luminance: luminance(rgb) };
});

/** The 256-colour index (16–255) nearest to `c` among those with `min` contrast against `bg`. */
export function nearest256(c: Rgb, bg: Rgb, min: number): number {
  const wanted = readableOn(c, bg, min);
  const bgLuminance = luminance(bg);
  let best = isLight(bg) ? 16 : 231;
  let bestDistance = Infinity;
  for (let n = 16; n < 256; n++) {
    const { rgb, luminance: l } = PALETTE_256[n - 16]!;
    if (luminanceContrast(l, bgLuminance) < min) continue;
    const d = distance(rgb, wanted);
    if (d < bestDistance) {
      best = n;
      bestDistance = d;
    }
  }
  return best;
}

function hueGap(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/**
 * The named colour closest in hue to `c` that has `min` contrast against `bg` (judged by
 * xterm's values), or undefined when none is near enough: then the terminal's own foreground
 * is the readable choice. Greys stand in for colours without saturation only.
 */
export function nearestNamed(c: Rgb, bg: Rgb, min: number): string | undefined {
  const want = toHsl(c);
  const grey = want.s < 0.15;
  let best: string | undefined;
  let bestScore = Infinity;
  for (const [name, rgb] of NAMED_16) {
    if (name === "black" || name.startsWith("white")) continue; // the default foreground does their job better
    if (contrast(rgb, bg) < min) continue;
    const hsl = toHsl(rgb);
    if (grey !== hsl.s < 0.15) continue;
    const gap = grey ? Math.abs(hsl.l - want.l) * 100 : hueGap(hsl.h, want.h);
    if (!grey && gap > 45) continue;
    const score = gap + Math.abs(hsl.l - want.l) * 20;
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}
