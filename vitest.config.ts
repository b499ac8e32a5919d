import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

/** WebAssembly modules load as their bytes, as esbuild's binary loader gives them to the bundle. */
const wasmBytes = {
  name: "wasm-bytes",
  enforce: "pre" as const,
  load(id: string) {
    if (!id.endsWith(".wasm")) return undefined;
    return `export default new Uint8Array(Buffer.from(${JSON.stringify(readFileSync(id).toString("base64"))}, "base64"));`;
  },
};

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
  plugins: [wasmBytes, imageWorker],
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Through the transform pipeline, so that its .wasm goes through the plugin above.
    server: { deps: { inline: [/@cwasm[\\/]webp/] } },
    env: { IS_REACT_ACT_ENVIRONMENT: "true" },
    // The default console output, plus a machine-readable report that
    // .ci/run reads to print its "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: ".tmp/vitest-report.json" },
  },
});
