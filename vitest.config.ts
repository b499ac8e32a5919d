import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { THROUGH_THE_PATCH, inkPatchVite } from "./scripts/ink-patch.mjs";

/** WebAssembly modules load as their bytes, as esbuild's binary loader gives them to the bundle. */
const wasmBytes = {
  name: "wasm-bytes",
  enforce: "pre" as const,
  load(id: string) {
    if (!id.endsWith(".wasm")) return undefined;
    return `export default new Uint8Array(Buffer.from(${JSON.stringify(readFileSync(id).toString("base64"))}, "base64"));`;
  },
};

/** A package's files under node_modules, whatever the path separator. */
const packageFiles = (name: string) => new RegExp(`[\\\\/]node_modules[\\\\/]${name.replace(/[.+/]/g, (c) => (c === "/" ? "[\\\\/]" : `\\${c}`))}[\\\\/]`);

/** `termchat:image-decoder`: the decoder thread's code, built as the bundle carries it (scripts/image-worker.mjs). */
const imageWorker = {
  name: "image-worker",
  resolveId(id: string) {
    return id === "termchat:image-decoder" ? "\0termchat:image-decoder" : undefined;
  },
  async load(id: string) {
    if (id !== "\0termchat:image-decoder") return undefined;
    const { buildImageWorker } = await import("./scripts/image-worker.mjs");
    const { code } = await buildImageWorker();
    return `export default ${JSON.stringify(code)};`;
  },
};

export default defineConfig({
  // The patched Ink (scripts/ink-patch.mjs), as the bundle has it: screen tests run what ships.
  plugins: [wasmBytes, inkPatchVite(), imageWorker],
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    server: {
      deps: {
        // Through the transform pipeline: the WebP decoder (its .wasm goes through the plugin
        // above), and every package the Ink patch changes or that imports Ink (else Node would
        // load a second, unpatched Ink for it).
        inline: [/@cwasm[\\/]webp/, ...THROUGH_THE_PATCH.map(packageFiles)],
      },
    },
    env: { IS_REACT_ACT_ENVIRONMENT: "true" },
    // The default console output, plus a machine-readable report that
    // .ci/run reads to print its "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: ".tmp/vitest-report.json" },
  },
});
