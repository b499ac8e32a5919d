/**
 * JPEG (baseline, extended and progressive, Huffman-coded, 8-bit), decoded
 * at N pixels per 8-pixel block edge (N = 1, 2, 4, 8: the smallest that
 * still covers the size drawn) straight into the box filter.
 *
 * A baseline image whose one scan holds every component streams: each row
 * of MCUs becomes pixel rows and is let go. Otherwise (progressive images,
 * baseline images in several scans) every scan must be read before any
 * pixel: the coefficients are kept, all 64 per block, or only the DC one
 * (the AC scans then skipped unread) when all 64 would break the budget.
 */
import { BoxFilter } from "./box-filter.js";
import { ImageTooLargeError, WORKING_BYTES, type DecodePlan } from "./budget.js";
import type { ImageHeader } from "./header.js";
import { idctBlock, ZIGZAG } from "./jpeg-idct.js";
import {
  BitReader,
  decodeAcFirst,
  decodeAcRefine,
  decodeBaseline,
  decodeDcFirst,
  decodeDcRefine,
  huffmanTable,
  nextMarker,
  type HuffmanTable,
  type ScanComponent,
  type ScanState,
} from "./jpeg-entropy.js";
import { fitSize, ImageFormatError, type Pixels } from "./pixels.js";

interface Component extends ScanComponent {
  id: number;
  h: number;
  v: number;
  tq: number;
  /** Blocks in the MCU-padded grid. */
  perLine: number;
  perColumn: number;
  /** Blocks a scan of this component alone covers (its own size, not padded to MCUs). */
  ownX: number;
  ownY: number;
  coef?: Int16Array;
  /** One MCU row of samples, and for each output column the sample's column. */
  plane: Uint8Array;
  xs: Int32Array;
}

type Colour = "grey" | "rgb" | "ycc" | "ycck" | "cmyk-inverted" | "cmyk";

const u16 = (d: Uint8Array, i: number) => (d[i]! << 8) | d[i + 1]!;
const clamp = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

export function decodeJpeg(d: Uint8Array, header: ImageHeader, plan: DecodePlan): Pixels {
  if (header.sof !== 0xc0 && header.sof !== 0xc1 && header.sof !== 0xc2) throw new ImageFormatError("this kind of JPEG (lossless, hierarchical or arithmetic-coded) is not supported");
  if (header.bitDepth !== 8) throw new ImageFormatError(`${header.bitDepth}-bit JPEG is not supported`);
  const { width, height } = header;
  const single = header.components!.length === 1;
  const spec = header.components!.map((c) => ({ ...c, h: single ? 1 : c.h, v: single ? 1 : c.v }));
  if (spec.some((c) => c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4)) throw new ImageFormatError("the JPEG's sampling factors are broken");
  if (spec.length !== 1 && spec.length !== 3 && spec.length !== 4) throw new ImageFormatError(`a JPEG of ${spec.length} components is not supported`);
  const hMax = Math.max(...spec.map((c) => c.h));
  const vMax = Math.max(...spec.map((c) => c.v));
  const mcusX = Math.ceil(width / (8 * hMax));
  const mcusY = Math.ceil(height / (8 * vMax));
  const progressive = header.sof === 0xc2;

  const quant: Uint16Array[] = [];
  const dcTables: HuffmanTable[] = [];
  const acTables: HuffmanTable[] = [];
  let restartInterval = 0;
  let adobe: number | undefined;
  let scale: number = plan.jpegScale ?? 8;
  let kept = 64;
  let mode: "stream" | "buffer" | undefined;
  let comps: Component[] = [];
  let box: BoxFilter | undefined;
  let rgba = new Uint8Array(0);
  const freq = new Float64Array(64);
  const tmp = new Float64Array(64);
  const scratch = new Int32Array(64);

  const start = (stream: boolean) => {
    mode = stream ? "stream" : "buffer";
    if (!stream) {
      kept = progressive ? (plan.jpegKept ?? 64) : 64;
      const blocks = mcusX * hMax * mcusY * vMax * spec.length;
      if (kept === 64 && blocks * 128 + plan.bytes > WORKING_BYTES) {
        kept = 1;
        scale = 1;
      }
      if (blocks * 2 * kept > WORKING_BYTES) throw new ImageTooLargeError(width, height);
    }
    if (scale === 1) kept = Math.min(kept, stream ? 64 : 1);
    const scaledW = Math.ceil((width * scale) / 8);
    const scaledH = Math.ceil((height * scale) / 8);
    const t = fitSize(scaledW, scaledH, plan.width, plan.height);
    box = new BoxFilter(scaledW, scaledH, t.width, t.height, "in-order");
    rgba = new Uint8Array(scaledW * 4);
    comps = spec.map((c) => {
      const perLine = mcusX * c.h;
      const perColumn = mcusY * c.v;
      const xs = new Int32Array(scaledW);
      for (let x = 0; x < scaledW; x++) xs[x] = Math.floor((x * c.h) / hMax);
      return {
        ...c,
        pred: 0,
        perLine,
        perColumn,
        ownX: Math.ceil(Math.ceil((width * c.h) / hMax) / 8),
        ownY: Math.ceil(Math.ceil((height * c.v) / vMax) / 8),
        plane: new Uint8Array(perLine * scale * c.v * scale),
        xs,
        ...(!stream && { coef: new Int16Array(perLine * perColumn * kept) }),
      };
    });
  };

  const q = (c: Component) => {
    const table = quant[c.tq];
    if (!table) throw new ImageFormatError("the JPEG lacks a quantization table");
    return table;
  };

  /** IDCTs block (row, col) of a component into its MCU-row plane. */
  const place = (c: Component, coef: Int16Array | Int32Array, o: number, n: number, rowInMcu: number, col: number) => {
    const stride = c.perLine * scale;
    idctBlock(coef, o, n, q(c), scale, c.plane, rowInMcu * scale * stride + col * scale, stride, freq, tmp);
  };

  const colour = (): Colour => {
    if (spec.length === 1) return "grey";
    if (spec.length === 3) return adobe === 0 || (spec[0]!.id === 82 && spec[1]!.id === 71 && spec[2]!.id === 66) ? "rgb" : "ycc";
    return adobe === 2 ? "ycck" : adobe !== undefined ? "cmyk-inverted" : "cmyk";
  };

  /** Turns the planes of MCU row `my` into pixel rows for the box filter. */
  const emit = (my: number) => {
    const kind = colour();
    const rows = vMax * scale;
    const w = box!.srcWidth;
    const [c0, c1, c2, c3] = comps;
    for (let r = 0; r < rows; r++) {
      const y = my * rows + r;
      if (y >= box!.srcHeight) return;
      const line = (c: Component | undefined) => (c ? c.plane.subarray(Math.floor((r * c.v) / vMax) * c.perLine * scale) : rgba);
      const [p0, p1, p2, p3] = [line(c0), line(c1), line(c2), line(c3)];
      const [x0, x1, x2, x3] = [c0!.xs, c1?.xs ?? c0!.xs, c2?.xs ?? c0!.xs, c3?.xs ?? c0!.xs];
      for (let x = 0, o = 0; x < w; x++, o += 4) {
        const s0 = p0[x0[x]!]!;
        rgba[o + 3] = 255;
        if (kind === "grey") {
          rgba[o] = rgba[o + 1] = rgba[o + 2] = s0;
          continue;
        }
        const s1 = p1[x1[x]!]!;
        const s2 = p2[x2[x]!]!;
        if (kind === "rgb") {
          rgba[o] = s0;
          rgba[o + 1] = s1;
          rgba[o + 2] = s2;
          continue;
        }
        let r8 = s0;
        let g8 = s1;
        let b8 = s2;
        if (kind === "ycc" || kind === "ycck") {
          r8 = clamp(s0 + 1.402 * (s2 - 128));
          g8 = clamp(s0 - 0.344136 * (s1 - 128) - 0.714136 * (s2 - 128));
          b8 = clamp(s0 + 1.772 * (s1 - 128));
        }
        if (kind !== "ycc") {
          const k = p3[x3[x]!]!;
          // Adobe writes inks inverted (255: none); YCCK's colour part is the inverse of that.
          if (kind === "ycck") [r8, g8, b8] = [255 - r8, 255 - g8, 255 - b8];
          const ink = (v: number) => (kind === "cmyk" ? Math.round(((255 - v) * (255 - k)) / 255) : Math.round((v * k) / 255));
          [r8, g8, b8] = [ink(r8), ink(g8), ink(b8)];
        }
        rgba[o] = r8;
        rgba[o + 1] = g8;
        rgba[o + 2] = b8;
      }
      box!.addRow(y, rgba);
    }
  };

  /** Reads one scan's entropy-coded data from `pos`; returns where its closing marker is. */
  const scan = (pos: number, members: Component[], s: ScanState): number => {
    const reader = new BitReader(d, pos);
    for (const c of members) c.pred = 0;
    s.eobrun = 0;
    const interleaved = members.length > 1;
    const decoder = mode === "stream" ? undefined : !progressive ? undefined : s.ss === 0 ? (s.ah === 0 ? decodeDcFirst : decodeDcRefine) : s.ah === 0 ? decodeAcFirst : decodeAcRefine;
    const block = (c: Component, row: number, col: number) => {
      if (mode === "stream") {
        scratch.fill(0);
        decodeBaseline(reader, c, scratch, 0, scale === 1 ? 1 : 64);
        place(c, scratch, 0, scale === 1 ? 1 : 64, row % c.v, col);
      } else if (decoder) decoder(reader, c, c.coef!, (row * c.perLine + col) * kept, s);
      else decodeBaseline(reader, c, c.coef!, (row * c.perLine + col) * kept, kept);
    };
    const unitsX = interleaved ? mcusX : members[0]!.ownX;
    const unitsY = interleaved ? mcusY : members[0]!.ownY;
    let unit = 0;
    for (let my = 0; my < unitsY; my++) {
      for (let mx = 0; mx < unitsX; mx++, unit++) {
        if (restartInterval > 0 && unit > 0 && unit % restartInterval === 0) {
          reader.restart();
          for (const c of members) c.pred = 0;
          s.eobrun = 0;
        }
        if (!interleaved) block(members[0]!, my, mx);
        else for (const c of members) for (let v = 0; v < c.v; v++) for (let h = 0; h < c.h; h++) block(c, my * c.v + v, mx * c.h + h);
      }
      if (mode === "stream") emit(my);
    }
    return nextMarker(d, reader.pos);
  };

  let i = 2;
  while (i + 1 < d.length) {
    if (d[i] !== 0xff) throw new ImageFormatError("the JPEG's markers are out of step");
    const m = d[i + 1]!;
    if (m === 0xff || m === 0xd8 || (m >= 0xd0 && m <= 0xd7)) {
      i += m === 0xff ? 1 : 2;
      continue;
    }
    if (m === 0xd9) break;
    if (i + 4 > d.length) break;
    const length = u16(d, i + 2);
    const seg = d.subarray(i + 4, i + 2 + length);
    if (m === 0xdb) {
      for (let p = 0; p < seg.length; ) {
        const wide = seg[p]! >> 4;
        const table = new Uint16Array(64);
        for (let k = 0; k < 64; k++) table[ZIGZAG[k]!] = wide ? u16(seg, p + 1 + 2 * k) : seg[p + 1 + k]!;
        quant[seg[p]! & 3] = table;
        p += 1 + 64 * (wide ? 2 : 1);
      }
    } else if (m === 0xc4) {
      for (let p = 0; p + 17 <= seg.length; ) {
        const counts = seg.subarray(p + 1, p + 17);
        const total = counts.reduce((a, b) => a + b, 0);
        (seg[p]! >> 4 ? acTables : dcTables)[seg[p]! & 3] = huffmanTable(counts, seg.subarray(p + 17, p + 17 + total));
        p += 17 + total;
      }
    } else if (m === 0xdd) {
      restartInterval = u16(seg, 0);
    } else if (m === 0xee && String.fromCharCode(...seg.subarray(0, 5)) === "Adobe" && seg.length >= 12) {
      adobe = seg[11];
    } else if (m === 0xda) {
      const n = seg[0]!;
      const ids = Array.from({ length: n }, (_, k) => ({ id: seg[1 + 2 * k]!, td: seg[2 + 2 * k]! >> 4, ta: seg[2 + 2 * k]! & 15 }));
      const s: ScanState = { ss: seg[1 + 2 * n]!, se: seg[2 + 2 * n]!, ah: seg[3 + 2 * n]! >> 4, al: seg[3 + 2 * n]! & 15, eobrun: 0 };
      if (!mode) start(!progressive && n === spec.length);
      const members = ids.map((x) => {
        const c = comps.find((k) => k.id === x.id);
        if (!c) throw new ImageFormatError("a JPEG scan names a component the frame lacks");
        c.dc = dcTables[x.td];
        c.ac = acTables[x.ta];
        if ((s.ss === 0 && s.ah === 0 && !c.dc) || ((s.ss > 0 || !progressive) && !c.ac)) throw new ImageFormatError("the JPEG lacks a Huffman table");
        return c;
      });
      const dataStart = i + 2 + length;
      // Coefficients past the first are not kept: their scans are skipped unread.
      i = progressive && kept === 1 && s.ss > 0 ? nextMarker(d, dataStart) : scan(dataStart, members, s);
      continue;
    }
    i += 2 + length;
  }
  if (!box) throw new ImageFormatError("the JPEG has no image data");
  if (mode === "buffer") {
    for (let my = 0; my < mcusY; my++) {
      for (const c of comps) {
        for (let v = 0; v < c.v; v++) {
          const row = my * c.v + v;
          for (let col = 0; col < c.perLine; col++) place(c, c.coef!, (row * c.perLine + col) * kept, kept, v, col);
        }
      }
      emit(my);
    }
  }
  return box.finish();
}
