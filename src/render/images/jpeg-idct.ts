/**
 * The inverse DCT of one 8×8 block at a reduced size: only the N×N lowest
 * frequencies (N = 1, 2, 4 or 8) are used, and the band-limited block is
 * sampled at the centres of an N×N grid, so a block becomes N×N pixels.
 * N = 1 is the block's mean (its DC coefficient / 8); N = 8 is the full IDCT.
 */

/** Natural (row-major) index of each zigzag position. */
export const ZIGZAG = Uint8Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
  30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]);

/** T[x·N + u] = ½·C(u)·cos((2x+1)uπ / 2N), C(0) = 1/√2. */
function cosines(n: number): Float64Array {
  const t = new Float64Array(n * n);
  for (let x = 0; x < n; x++) for (let u = 0; u < n; u++) t[x * n + u] = 0.5 * (u === 0 ? Math.SQRT1_2 : 1) * Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n));
  return t;
}

const TABLES: Readonly<Record<number, Float64Array>> = { 2: cosines(2), 4: cosines(4), 8: cosines(8) };

const clamp = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

/**
 * Writes the N×N samples of a block whose `kept` zigzag coefficients are at
 * `coef[o…]` (raw, dequantized here with `q`, natural order) into `out` at
 * `at`, rows `stride` apart. `freq` and `tmp` are 64-entry scratch arrays.
 */
export function idctBlock(
  coef: Int16Array | Int32Array,
  o: number,
  kept: number,
  q: Uint16Array,
  n: number,
  out: Uint8Array,
  at: number,
  stride: number,
  freq: Float64Array,
  tmp: Float64Array,
): void {
  let ac = false;
  for (let k = 1; k < kept; k++) {
    if (coef[o + k] !== 0) {
      ac = true;
      break;
    }
  }
  if (!ac || n === 1) {
    // Only the mean (or only the mean asked for): a flat block.
    const v = clamp((coef[o]! * q[0]!) / 8 + 128);
    for (let y = 0; y < n; y++) out.fill(v, at + y * stride, at + y * stride + n);
    return;
  }
  freq.fill(0);
  for (let k = 0; k < kept; k++) {
    const c = coef[o + k]!;
    if (c === 0) continue;
    const nat = ZIGZAG[k]!;
    const u = nat & 7;
    const v = nat >> 3;
    if (u < n && v < n) freq[v * 8 + u] = c * q[nat]!;
  }
  const t = TABLES[n]!;
  for (let v = 0; v < n; v++) {
    for (let x = 0; x < n; x++) {
      let s = 0;
      for (let u = 0; u < n; u++) s += t[x * n + u]! * freq[v * 8 + u]!;
      tmp[v * 8 + x] = s;
    }
  }
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      let s = 0;
      for (let v = 0; v < n; v++) s += t[y * n + v]! * tmp[v * 8 + x]!;
      out[at + y * stride + x] = clamp(s + 128);
    }
  }
}
