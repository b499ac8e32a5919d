/**
 * WebP decoding with libwebp compiled to WebAssembly (@cwasm/webp's
 * webp.wasm). The module's bytes are embedded in the bundle (esbuild's binary
 * loader) and instantiated here once, on the first WebP: nothing is read from
 * disk. The module asks for three WASI calls it never makes on the decode
 * path; they are stubs that fail loudly.
 */
import wasmBytes from "@cwasm/webp/webp.wasm";
import { boxPixels } from "./box-filter.js";
import type { DecodePlan } from "./budget.js";
import type { ImageHeader } from "./header.js";
import { ImageFormatError, type Pixels } from "./pixels.js";

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

/**
 * Decodes with libwebp (the whole image at once: it has no scaled decoding)
 * and boxes the result into the plan's size straight from the module's
 * memory. The budget allows this only for images whose pixels fit it.
 */
export function decodeWebp(bytes: Uint8Array, h: ImageHeader, plan: DecodePlan): Pixels {
  if (h.animated) throw new ImageFormatError("animated WebP is not supported");
  const wasm = exportsOf();
  const input = wasm.malloc(bytes.length);
  const dims = wasm.malloc(8);
  try {
    new Uint8Array(wasm.memory.buffer, input, bytes.length).set(bytes);
    const output = wasm.WebPDecodeRGBA(input, bytes.length, dims, dims + 4);
    if (output === 0) throw new ImageFormatError("the WebP image could not be decoded");
    try {
      const [width = 0, height = 0] = new Uint32Array(wasm.memory.buffer, dims, 2);
      if (width !== h.width || height !== h.height) throw new ImageFormatError("the WebP image is not the size its header says");
      const view = { width, height, data: new Uint8Array(wasm.memory.buffer, output, width * height * 4) };
      // The module's memory is reused: what is returned is always a copy.
      return plan.width === width && plan.height === height ? { ...view, data: view.data.slice() } : boxPixels(view, plan.width, plan.height);
    } finally {
      wasm.free(output);
    }
  } finally {
    wasm.free(input);
    wasm.free(dims);
  }
}
