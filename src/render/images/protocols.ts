/**
 * Terminal graphics protocols, each fed only pixels we decoded and scaled
 * ourselves: the kitty graphics protocol (raw RGBA, base64, in chunks),
 * iTerm2's inline images (a PNG we encode) and sixel (a palette we choose).
 * No byte of the file from the server is forwarded.
 */
import { PNG } from "pngjs";
import { pixelOver, type Pixels } from "./pixels.js";

const ESC = "\x1b";
const ST = `${ESC}\\`;
const KITTY_CHUNK = 4096;

function kittyChunks(p: Pixels, firstKeys: string): string {
  const payload = Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength).toString("base64");
  const parts: string[] = [];
  for (let i = 0; i < payload.length || i === 0; i += KITTY_CHUNK) {
    const chunk = payload.slice(i, i + KITTY_CHUNK);
    const more = i + KITTY_CHUNK < payload.length ? 1 : 0;
    parts.push(`${ESC}_G${i === 0 ? `${firstKeys},m=${more}` : `m=${more}`};${chunk}${ST}`);
  }
  return parts.join("");
}

/**
 * The kitty graphics protocol: transmit and display (`a=T`) RGBA pixels
 * (`f=32`) over `cols`×`rows` cells, the cursor left where it was (`C=1`),
 * no reply asked (`q=2`). `id` lets a later frame place or delete it.
 */
export function kittyImage(p: Pixels, cols: number, rows: number, id: number): string {
  return kittyChunks(p, `a=T,f=32,s=${p.width},v=${p.height},i=${id},c=${cols},r=${rows},C=1,q=2`);
}

/** Sends the pixels to kitty under `id` without showing them (`a=t`); `kittyPlace` shows them. */
export function kittyTransmit(p: Pixels, id: number): string {
  return kittyChunks(p, `a=t,f=32,s=${p.width},v=${p.height},i=${id},q=2`);
}

/** Shows image `id` at the cursor over `cols`×`rows` cells, the cursor not moved. */
export function kittyPlace(id: number, cols: number, rows: number): string {
  return `${ESC}_Ga=p,i=${id},c=${cols},r=${rows},C=1,q=2${ST}`;
}

/** Removes every kitty image placement on the screen (the pixels stay with the terminal for the ids). */
export function kittyClear(): string {
  return `${ESC}_Ga=d,d=a,q=2${ST}`;
}

/** iTerm2's inline image: a PNG of the pixels, shown over `cols`×`rows` cells, the cursor not moved. */
export function itermImage(p: Pixels, cols: number, rows: number): string {
  const png = new PNG({ width: p.width, height: p.height });
  png.data = Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength);
  const file = PNG.sync.write(png);
  return `${ESC}]1337;File=inline=1;size=${file.length};width=${cols};height=${rows};preserveAspectRatio=0;doNotMoveCursor=1:${file.toString("base64")}\x07`;
}

/** A colour cube of 6×7×6 levels: 252 registers, fixed, so no search is needed per pixel. */
const LEVELS_R = 6;
const LEVELS_G = 7;
const LEVELS_B = 6;

function quantize(v: number, levels: number): number {
  return Math.round((v / 255) * (levels - 1));
}

/**
 * Sixel: the pixels over a fixed 252-colour palette, six pixel rows per
 * band, runs of one colour compressed with `!n`. The image is blended over
 * black first (sixel has no partial transparency).
 */
export function sixelImage(p: Pixels): string {
  const black: readonly [number, number, number] = [0, 0, 0];
  const index = new Uint16Array(p.width * p.height);
  const used = new Set<number>();
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const [r, g, b] = pixelOver(p, x, y, black);
      const c = (quantize(r, LEVELS_R) * LEVELS_G + quantize(g, LEVELS_G)) * LEVELS_B + quantize(b, LEVELS_B);
      index[y * p.width + x] = c;
      used.add(c);
    }
  }
  let out = `${ESC}P0;1;0q"1;1;${p.width};${p.height}`;
  const pct = (q: number, levels: number) => Math.round((q / (levels - 1)) * 100);
  for (const c of [...used].sort((a, b) => a - b)) {
    const rq = Math.floor(c / (LEVELS_G * LEVELS_B));
    const gq = Math.floor(c / LEVELS_B) % LEVELS_G;
    const bq = c % LEVELS_B;
    out += `#${c};2;${pct(rq, LEVELS_R)};${pct(gq, LEVELS_G)};${pct(bq, LEVELS_B)}`;
  }
  const bands: string[] = [];
  for (let band = 0; band < p.height; band += 6) {
    const colours = new Set<number>();
    for (let y = band; y < Math.min(band + 6, p.height); y++) for (let x = 0; x < p.width; x++) colours.add(index[y * p.width + x]!);
    const rowsOut: string[] = [];
    for (const c of colours) {
      let row = `#${c}`;
      let run = 0;
      let prev = -1;
      const flush = () => {
        if (run === 0) return;
        const ch = String.fromCharCode(63 + prev);
        row += run > 3 ? `!${run}${ch}` : ch.repeat(run);
      };
      for (let x = 0; x < p.width; x++) {
        let bits = 0;
        for (let k = 0; k < 6 && band + k < p.height; k++) if (index[(band + k) * p.width + x] === c) bits |= 1 << k;
        if (bits === prev) run++;
        else {
          flush();
          prev = bits;
          run = 1;
        }
      }
      flush();
      rowsOut.push(row);
    }
    bands.push(rowsOut.join("$"));
  }
  // Bands are separated by `-`; none after the last, so the cursor stays on the image's last band.
  return `${out}${bands.join("-")}${ST}`;
}
