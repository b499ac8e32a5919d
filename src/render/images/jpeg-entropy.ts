/**
 * The entropy-coded part of a JPEG: Huffman tables, a bit reader over the
 * scan data (0xFF00 stuffing undone; at a marker it reads zeros and stays
 * put), and the block decoders of baseline and progressive scans (DC first
 * and refinement, AC first and refinement, ITU T.81 G.1.2). Coefficients are
 * kept raw (not yet dequantized), in zigzag order, `kept` of them per block:
 * all 64, or only the DC one when the image is decoded at one pixel per block.
 */

export interface HuffmanTable {
  /** Codes of up to 8 bits by their next 8 bits of input: (length << 8) | value, 0 when longer. */
  lookup: Uint16Array;
  maxCode: Int32Array;
  offset: Int32Array;
  values: Uint8Array;
}

/** Builds a table from the 16 code counts of a DHT segment and its values. */
export function huffmanTable(counts: Uint8Array, values: Uint8Array): HuffmanTable {
  const lookup = new Uint16Array(256);
  const maxCode = new Int32Array(18).fill(-1);
  const offset = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    offset[length] = k - code;
    for (let i = 0; i < counts[length - 1]!; i++, k++, code++) {
      if (length <= 8) {
        const first = code << (8 - length);
        lookup.fill((length << 8) | values[k]!, first, first + (1 << (8 - length)));
      }
    }
    if (counts[length - 1]! > 0) maxCode[length] = code - 1;
    code <<= 1;
  }
  maxCode[17] = 0x7fffffff;
  return { lookup, maxCode, offset, values };
}

export class BitReader {
  private buf = 0;
  private count = 0;

  constructor(
    private readonly data: Uint8Array,
    public pos: number,
  ) {}

  private fill(): void {
    while (this.count <= 24) {
      let byte = 0;
      const d = this.data;
      if (this.pos < d.length) {
        byte = d[this.pos]!;
        if (byte === 0xff) {
          const next = d[this.pos + 1];
          if (next === 0x00) this.pos += 2;
          else byte = 0; // a marker: the scan's data ends here
        } else this.pos++;
      }
      this.buf = (this.buf << 8) | byte;
      this.count += 8;
    }
  }

  bits(n: number): number {
    if (n === 0) return 0;
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.buf >>> this.count) & ((1 << n) - 1);
  }

  /** `n` bits as a signed value (the EXTEND procedure). */
  receive(n: number): number {
    const v = this.bits(n);
    return v < 1 << (n - 1) ? v - (1 << n) + 1 : v;
  }

  decode(t: HuffmanTable): number {
    if (this.count < 16) this.fill();
    const look = t.lookup[(this.buf >>> (this.count - 8)) & 0xff]!;
    if (look !== 0) {
      this.count -= look >> 8;
      return look & 0xff;
    }
    for (let length = 9; length <= 16; length++) {
      const code = (this.buf >>> (this.count - length)) & ((1 << length) - 1);
      if (code <= t.maxCode[length]!) {
        this.count -= length;
        return t.values[t.offset[length]! + code] ?? 0;
      }
    }
    this.count -= 16; // no such code: corrupt data, read on as zeros
    return 0;
  }

  /** Drops what is buffered and moves past the restart marker at the read position, if there is one. */
  restart(): void {
    this.buf = 0;
    this.count = 0;
    const d = this.data;
    while (this.pos + 1 < d.length && !(d[this.pos] === 0xff && d[this.pos + 1]! >= 0xd0 && d[this.pos + 1]! <= 0xd7)) {
      if (d[this.pos] === 0xff && d[this.pos + 1] !== 0x00 && d[this.pos + 1] !== 0xff) return; // another marker: no restart here
      this.pos++;
    }
    if (this.pos + 1 < d.length) this.pos += 2;
  }
}

/** Where the marker that ends a scan's data starting at `pos` is. */
export function nextMarker(d: Uint8Array, pos: number): number {
  for (let i = pos; i + 1 < d.length; i++) {
    if (d[i] !== 0xff) continue;
    const m = d[i + 1]!;
    if (m !== 0x00 && m !== 0xff && !(m >= 0xd0 && m <= 0xd7)) return i;
  }
  return d.length;
}

/** What a block decoder needs of its component. */
export interface ScanComponent {
  dc?: HuffmanTable;
  ac?: HuffmanTable;
  /** The DC prediction, reset at the start of a scan and at each restart. */
  pred: number;
}

export interface ScanState {
  ss: number;
  se: number;
  ah: number;
  al: number;
  eobrun: number;
}

/** A baseline block: DC and all AC coefficients; the first `kept` are written at `out[o…]` (zeroed by the caller). */
export function decodeBaseline(r: BitReader, c: ScanComponent, out: Int16Array | Int32Array, o: number, kept: number): void {
  const t = r.decode(c.dc!);
  c.pred += t === 0 ? 0 : r.receive(t);
  out[o] = c.pred;
  const ac = c.ac!;
  for (let k = 1; k < 64; ) {
    const rs = r.decode(ac);
    const s = rs & 15;
    const run = rs >> 4;
    if (s === 0) {
      if (run < 15) return;
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) return;
    const v = r.receive(s);
    if (k < kept) out[o + k] = v;
    k++;
  }
}

export function decodeDcFirst(r: BitReader, c: ScanComponent, out: Int16Array, o: number, s: ScanState): void {
  const t = r.decode(c.dc!);
  c.pred += t === 0 ? 0 : r.receive(t);
  out[o] = c.pred * (1 << s.al);
}

export function decodeDcRefine(r: BitReader, _c: ScanComponent, out: Int16Array, o: number, s: ScanState): void {
  if (r.bits(1)) out[o] = out[o]! | (1 << s.al);
}

export function decodeAcFirst(r: BitReader, c: ScanComponent, out: Int16Array, o: number, s: ScanState): void {
  if (s.eobrun > 0) {
    s.eobrun--;
    return;
  }
  for (let k = s.ss; k <= s.se; ) {
    const rs = r.decode(c.ac!);
    const size = rs & 15;
    const run = rs >> 4;
    if (size === 0) {
      if (run < 15) {
        s.eobrun = (1 << run) - 1 + r.bits(run);
        return;
      }
      k += 16;
      continue;
    }
    k += run;
    if (k > 63) return;
    out[o + k] = r.receive(size) * (1 << s.al);
    k++;
  }
}

/** Refines the band's coefficients by one bit (G.1.2.3): new ones of ±1 and a correction bit for each nonzero one passed. */
export function decodeAcRefine(r: BitReader, c: ScanComponent, out: Int16Array, o: number, s: ScanState): void {
  const p1 = 1 << s.al;
  const m1 = -1 << s.al;
  let k = s.ss;
  const correct = (i: number) => {
    const v = out[i]!;
    if (r.bits(1) && (v & p1) === 0) out[i] = v >= 0 ? v + p1 : v + m1;
  };
  if (s.eobrun === 0) {
    for (; k <= s.se; k++) {
      const rs = r.decode(c.ac!);
      let run = rs >> 4;
      const size = rs & 15;
      let value = 0;
      if (size !== 0) value = r.bits(1) ? p1 : m1;
      else if (run !== 15) {
        s.eobrun = (1 << run) + r.bits(run);
        break;
      }
      // Skip `run` zero coefficients (correcting the nonzero ones passed), then place the new one.
      for (; k <= s.se; k++) {
        const i = o + k;
        if (out[i] !== 0) correct(i);
        else if (run-- === 0) break;
      }
      if (value !== 0 && k <= s.se) out[o + k] = value;
    }
  }
  if (s.eobrun > 0) {
    for (; k <= s.se; k++) if (out[o + k] !== 0) correct(o + k);
    s.eobrun--;
  }
}
