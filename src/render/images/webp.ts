/**
 * WebP decoding with libwebp compiled to WebAssembly (@cwasm/webp's
 * webp.wasm). The module's bytes are embedded in the bundle (esbuild's binary
 * loader) and instantiated here once, on the first WebP: nothing is read from
 * disk. The module asks for three WASI calls it never makes on the decode
 * path; they are stubs that fail loudly.
 */
import wasmBytes from "@cwasm/webp/webp.wasm";
import { ImageFormatError, MAX_PIXELS, type Pixels } from "./pixels.js";

interface WebpExports {
  memory: { buffer: ArrayBuffer };
  malloc(size: number): number;
  free(ptr: number): void;
  WebPDecodeRGBA(data: number, size: number, widthPtr: number, heightPtr: number): number;
}

/** The part of the WebAssembly global used here (the project's type library has no DOM types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let instance: WebpExports | undefined;

function exportsOf(): WebpExports {
  if (!instance) {
    const unsupported = (name: string) => () => {
      throw new Error(`webp: system call ${name} is not available`);
    };
    const imports = { wasi_snapshot_preview1: { fd_close: unsupported("fd_close"), fd_seek: unsupported("fd_seek"), fd_write: unsupported("fd_write") } };
    const module = new Wasm.Module(wasmBytes);
    instance = new Wasm.Instance(module, imports).exports as unknown as WebpExports;
  }
  return instance;
}

/** The RIFF container's canvas size, read before decoding (VP8X, VP8L or VP8 chunk). */
export function webpSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes.length < 30) return undefined;
  const tag = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  const at = (i: number) => bytes[i]!;
  if (tag === "VP8X") return { width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)), height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)) };
  if (tag === "VP8L") {
    const b = (at(21) | (at(22) << 8) | (at(23) << 16) | (at(24) << 24)) >>> 0;
    return { width: 1 + (b & 0x3fff), height: 1 + ((b >>> 14) & 0x3fff) };
  }
  if (tag === "VP8 ") return { width: (at(26) | (at(27) << 8)) & 0x3fff, height: (at(28) | (at(29) << 8)) & 0x3fff };
  return undefined;
}

export function decodeWebp(bytes: Uint8Array): Pixels {
  const size = webpSize(bytes);
  if (!size) throw new ImageFormatError("not a WebP image this decoder knows");
  if (size.width * size.height > MAX_PIXELS) throw new ImageFormatError(`image too large (${size.width}×${size.height})`);
  const wasm = exportsOf();
  const input = wasm.malloc(bytes.length);
  const dims = wasm.malloc(8);
  try {
    new Uint8Array(wasm.memory.buffer, input, bytes.length).set(bytes);
    const output = wasm.WebPDecodeRGBA(input, bytes.length, dims, dims + 4);
    if (output === 0) throw new ImageFormatError("the WebP image could not be decoded");
    const [width = 0, height = 0] = new Uint32Array(wasm.memory.buffer, dims, 2);
    const data = new Uint8Array(width * height * 4);
    data.set(new Uint8Array(wasm.memory.buffer, output, data.length));
    wasm.free(output);
    return { width, height, data };
  } finally {
    wasm.free(input);
    wasm.free(dims);
  }
}
