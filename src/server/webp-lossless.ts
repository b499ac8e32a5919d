// A WebP encoder for the server's thumbnails: lossless (VP8L), with the subtract-green and
// (when it pays) a left-pixel predictor transform, every pixel a literal coded with Huffman codes built from
// the image's own histograms (a code of one symbol costs no bits, so flat images are tiny).
// Still images are a bare VP8L chunk; animations a VP8X container with ANIM and one ANMF
// frame per image. The service's thumbnails are WebP too (lossy, by libvips); any client
// that reads WebP reads these.

class BitWriter {
  private buf = new Uint8Array(1 << 16);
  private len = 0;
  private acc = 0;
  private n = 0;

  /** Writes the low `count` bits of `value`, least significant first (count ≤ 24). */
  put(value: number, count: number): void {
    this.acc |= value << this.n;
    this.n += count;
    while (this.n >= 8) {
      if (this.len === this.buf.length) {
        const bigger = new Uint8Array(this.buf.length * 2);
        bigger.set(this.buf);
        this.buf = bigger;
      }
      this.buf[this.len++] = this.acc & 255;
      this.acc >>>= 8;
      this.n -= 8;
    }
  }

  bytes(): Buffer {
    if (this.n > 0) this.put(0, 8 - this.n);
    return Buffer.from(this.buf.subarray(0, this.len));
  }
}

/** Huffman code lengths for `counts`, none longer than `limit` (rare deep trees are flattened by halving counts). */
function codeLengths(counts: ArrayLike<number>, limit: number): Uint8Array {
  const lengths = new Uint8Array(counts.length);
  let weights = Array.from(counts, (c) => c);
  for (;;) {
    const nodes: Array<{ w: number; symbols: number[] }> = [];
    weights.forEach((w, s) => w > 0 && nodes.push({ w, symbols: [s] }));
    if (nodes.length === 0) return lengths;
    if (nodes.length === 1) {
      lengths[nodes[0]!.symbols[0]!] = 1;
      return lengths;
    }
    lengths.fill(0);
    while (nodes.length > 1) {
      nodes.sort((a, b) => a.w - b.w);
      const [a, b] = nodes.splice(0, 2) as [(typeof nodes)[0], (typeof nodes)[0]];
      for (const s of [...a.symbols, ...b.symbols]) lengths[s]!++;
      nodes.push({ w: a.w + b.w, symbols: [...a.symbols, ...b.symbols] });
    }
    if (Math.max(...lengths) <= limit) return lengths;
    weights = weights.map((w) => (w > 0 ? Math.max(1, w >> 1) : 0));
  }
}

/** Canonical codes for `lengths`, bit-reversed for a writer that sends the least significant bit first. */
function canonicalCodes(lengths: Uint8Array): Uint32Array {
  const codes = new Uint32Array(lengths.length);
  const perLength = new Array<number>(17).fill(0);
  for (const l of lengths) if (l) perLength[l]!++;
  const next = new Array<number>(17).fill(0);
  for (let l = 1, code = 0; l <= 16; l++) {
    code = (code + perLength[l - 1]!) << 1;
    next[l] = code;
  }
  lengths.forEach((l, s) => {
    if (!l) return;
    let code = next[l]!++;
    let reversed = 0;
    for (let i = 0; i < l; i++, code >>= 1) reversed = (reversed << 1) | (code & 1);
    codes[s] = reversed;
  });
  return codes;
}

interface Code {
  lengths: Uint8Array;
  codes: Uint32Array;
  /** A code of one symbol: that symbol costs no bits. */
  single: boolean;
}

const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/** Writes the prefix code for a histogram, and returns it for the symbols to be written with. */
function writeCode(w: BitWriter, counts: Uint32Array): Code {
  const used: number[] = [];
  counts.forEach((c, s) => c > 0 && used.push(s));
  if (used.length === 0) used.push(0);
  if (used.length <= 2 && used.every((s) => s < 256)) {
    // A simple code: one or two 8-bit symbols.
    w.put(1, 1);
    w.put(used.length - 1, 1);
    w.put(1, 1);
    w.put(used[0]!, 8);
    if (used.length === 2) w.put(used[1]!, 8);
    const lengths = new Uint8Array(counts.length);
    for (const s of used) lengths[s] = 1;
    return { lengths, codes: canonicalCodes(lengths), single: used.length === 1 };
  }
  const lengths = codeLengths(counts, 15);
  // The lengths, as code-length symbols: 0–15 themselves, 17 and 18 for runs of zeros.
  const tokens: Array<[number, number]> = [];
  for (let i = 0; i < lengths.length; ) {
    let run = 0;
    while (i + run < lengths.length && lengths[i + run] === 0 && run < 138) run++;
    if (run >= 11) tokens.push([18, run - 11]);
    else if (run >= 3) tokens.push([17, run - 3]);
    else {
      tokens.push([lengths[i]!, 0]);
      run = 1;
    }
    i += run;
  }
  const clCounts = new Uint32Array(19);
  for (const [t] of tokens) clCounts[t]!++;
  const clLengths = codeLengths(clCounts, 7);
  const clCodes = canonicalCodes(clLengths);
  const clSingle = clLengths.filter((l) => l > 0).length === 1;
  let count = 19;
  while (count > 4 && clLengths[CODE_LENGTH_ORDER[count - 1]!] === 0) count--;
  w.put(0, 1);
  w.put(count - 4, 4);
  for (let i = 0; i < count; i++) w.put(clLengths[CODE_LENGTH_ORDER[i]!]!, 3);
  w.put(0, 1); // every symbol of the alphabet has a length
  for (const [t, extra] of tokens) {
    if (!clSingle) w.put(clCodes[t]!, clLengths[t]!);
    if (t === 17) w.put(extra, 3);
    if (t === 18) w.put(extra, 7);
  }
  return { lengths, codes: canonicalCodes(lengths), single: false };
}

const put = (w: BitWriter, code: Code, symbol: number) => {
  if (!code.single) w.put(code.codes[symbol]!, code.lengths[symbol]!);
};

/** Codes ARGB planes as literals: the colour cache bit (off), then five prefix codes and the pixels. */
function writeImage(w: BitWriter, planes: Planes, main: boolean): void {
  const [a, r, g, b] = planes;
  w.put(0, 1); // no colour cache
  if (main) w.put(0, 1); // no meta prefix codes
  const hist = [new Uint32Array(256 + 24), new Uint32Array(256), new Uint32Array(256), new Uint32Array(256), new Uint32Array(40)];
  for (let i = 0; i < g.length; i++) {
    hist[0]![g[i]!]!++;
    hist[1]![r[i]!]!++;
    hist[2]![b[i]!]!++;
    hist[3]![a[i]!]!++;
  }
  const codes = hist.map((h) => writeCode(w, h));
  for (let i = 0; i < g.length; i++) {
    put(w, codes[0]!, g[i]!);
    put(w, codes[1]!, r[i]!);
    put(w, codes[2]!, b[i]!);
    put(w, codes[3]!, a[i]!);
  }
}

/** A VP8L bitstream of RGBA pixels. */
export function vp8l(width: number, height: number, rgba: Uint8Array): Buffer {
  const n = width * height;
  const [a, r, g, b] = [new Uint8Array(n), new Uint8Array(n), new Uint8Array(n), new Uint8Array(n)];
  let alpha = false;
  for (let i = 0; i < n; i++) {
    g[i] = rgba[i * 4 + 1]!;
    // Subtract green: red and blue as differences from green.
    r[i] = (rgba[i * 4]! - g[i]!) & 255;
    b[i] = (rgba[i * 4 + 2]! - g[i]!) & 255;
    a[i] = rgba[i * 4 + 3]!;
    alpha ||= a[i] !== 255;
  }
  // Predictor: each pixel less its left neighbour (the top row too; the left column less the
  // pixel above), kept only when its residuals code in fewer bits than the pixels themselves.
  const planes = [a, r, g, b] as Planes;
  const residual = planes.map((p, c) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const x = i % width;
      const pred = i === 0 ? (c === 0 ? 255 : 0) : x > 0 ? p[i - 1]! : p[i - width]!;
      out[i] = (p[i]! - pred) & 255;
    }
    return out;
  }) as Planes;
  const predict = entropy(residual) < entropy(planes);
  const w = new BitWriter();
  w.put(0x2f, 8);
  w.put(width - 1, 14);
  w.put(height - 1, 14);
  w.put(alpha ? 1 : 0, 1);
  w.put(0, 3);
  w.put(1, 1);
  w.put(2, 2); // subtract green (applied first, so undone last)
  if (predict) {
    w.put(1, 1);
    w.put(0, 2); // predictor, in 512×512 blocks, each block's mode 1 (the left pixel)
    const bits = 7;
    w.put(bits, 3);
    const blocks = Math.ceil(width / (1 << (bits + 2))) * Math.ceil(height / (1 << (bits + 2)));
    writeImage(w, [new Uint8Array(blocks), new Uint8Array(blocks), new Uint8Array(blocks).fill(1), new Uint8Array(blocks)], false);
  }
  w.put(0, 1); // no more transforms
  writeImage(w, predict ? residual : planes, true);
  return w.bytes();
}

type Planes = [Uint8Array, Uint8Array, Uint8Array, Uint8Array];

/** About how many bits the planes take with codes made from their histograms. */
function entropy(planes: Planes): number {
  let bits = 0;
  for (const p of planes) {
    const hist = new Uint32Array(256);
    for (const v of p) hist[v]!++;
    for (const c of hist) if (c > 0 && c < p.length) bits += c * Math.log2(p.length / c);
  }
  return bits;
}

function chunk(tag: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(tag, 0, "latin1");
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

const riff = (chunks: Buffer[]) => {
  const body = Buffer.concat([Buffer.from("WEBP", "latin1"), ...chunks]);
  const head = Buffer.alloc(8);
  head.write("RIFF", 0, "latin1");
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
};

/** A still WebP file (lossless). */
export function encodeWebp(width: number, height: number, rgba: Uint8Array): Buffer {
  return riff([chunk("VP8L", vp8l(width, height, rgba))]);
}

export interface Frame {
  rgba: Uint8Array;
  /** Milliseconds. */
  duration: number;
}

/** An animated WebP of whole frames of one size (each replaces the last; none blended). */
export function encodeAnimatedWebp(width: number, height: number, frames: Frame[], loops: number): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x[0] = 0x02 | 0x10; // animation, alpha
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const anim = Buffer.alloc(6);
  anim.writeUInt16LE(loops, 4);
  const anmf = frames.map((f) => {
    const head = Buffer.alloc(16);
    head.writeUIntLE(width - 1, 6, 3);
    head.writeUIntLE(height - 1, 9, 3);
    head.writeUIntLE(Math.min(0xffffff, Math.max(0, Math.round(f.duration))), 12, 3);
    head[15] = 0x02; // do not blend; no disposal
    return chunk("ANMF", Buffer.concat([head, chunk("VP8L", vp8l(width, height, f.rgba))]));
  });
  return riff([chunk("VP8X", vp8x), chunk("ANIM", anim), ...anmf]);
}
