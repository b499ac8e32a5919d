// Yoga (Ink's layout engine) ships its WebAssembly as a base64 data URL inside its JavaScript,
// and its loader reads that URL with `fetch` when there is one: in Node that loads Node's own
// fetch implementation and decodes the URL in JavaScript, on the start path, before the first
// frame. This esbuild plugin hands the loader the module's bytes instead (`wasmBinary`, which it
// takes before trying `fetch`): the base64 is decoded natively, and no fetch is involved.
// The same bytes, the same layout engine; only how they reach WebAssembly changes.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const DATA_URL = /data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/;

/** The WebAssembly of the yoga-layout package whose entry is at `entry`, as base64. */
function wasmBase64(entry) {
  const found = DATA_URL.exec(readFileSync(join(dirname(entry), "..", "binaries", "yoga-wasm-base64-esm.js"), "utf8"));
  if (!found) throw new Error("yoga-layout's loader no longer carries its WebAssembly as a data URL: update scripts/yoga-plugin.mjs");
  return found[1];
}

export const yogaPlugin = {
  name: "termchat-yoga-bytes",
  setup(build) {
    const loaderPath = /yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;
    // The loader, with its data URL emptied: the bytes travel once, in the entry below.
    build.onLoad({ filter: loaderPath }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!DATA_URL.test(source)) throw new Error("yoga-layout's loader no longer carries its WebAssembly as a data URL: update scripts/yoga-plugin.mjs");
      return { contents: source.replace(DATA_URL, "data:application/octet-stream;base64,"), loader: "js" };
    });
    // The package's entry, giving the loader the bytes and instantiating them synchronously
    // (Emscripten's `instantiateWasm` hook): the runtime is then ready when the loader returns,
    // so the entry needs no top-level await and the bundle can be a script (CommonJS) that V8
    // caches compiled between runs. A 90 KB module compiles in a few milliseconds on V8's
    // baseline tier (the launcher keeps WebAssembly there).
    build.onLoad({ filter: /yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, (args) => ({
      contents: [
        'import loadYoga from "../binaries/yoga-wasm-base64-esm.js";',
        'import wrapAssembly from "./wrapAssembly.js";',
        'performance.mark("termchat:yoga-start");',
        `const wasmBinary = Buffer.from(${JSON.stringify(wasmBase64(args.path))}, "base64");`,
        "const runtime = {",
        "  wasmBinary,",
        "  instantiateWasm(imports, ready) {",
        "    const instance = new WebAssembly.Instance(new WebAssembly.Module(wasmBinary), imports);",
        "    ready(instance);",
        "    return instance.exports;",
        "  },",
        "};",
        "loadYoga(runtime);",
        'if (typeof runtime.Node !== "function") throw new Error("yoga-layout did not start synchronously: update scripts/yoga-plugin.mjs");',
        "const Yoga = wrapAssembly(runtime);",
        'performance.mark("termchat:yoga");',
        "export default Yoga;",
        'export * from "./generated/YGEnums.js";',
      ].join("\n"),
      loader: "js",
    }));
  },
};
