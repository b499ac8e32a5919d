import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
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

/** Ink's truncation with the glyphs' ellipsis, as the bundle has it (scripts/ink-frame-plugin.mjs): Ink goes through the transform pipeline for it. */
const inkTruncate = {
  name: "ink-truncate",
  enforce: "pre" as const,
  resolveId(source: string, importer: string | undefined) {
    if (source !== "cli-truncate" || !importer || !/[\\/]ink[\\/]build[\\/]wrap-text\.js$/.test(importer)) return undefined;
    return fileURLToPath(new URL("./src/ui/ink-frame/truncate.ts", import.meta.url));
  },
  // Ink's source maps point to sources it does not ship: without them, no warning per file.
  load(id: string) {
    if (!/[\\/]node_modules[\\/]ink(-testing-library)?[\\/]build[\\/].*\.js$/.test(id)) return undefined;
    return readFileSync(id, "utf8").replace(/^\/\/# sourceMappingURL=.*$/m, "");
  },
};

export default defineConfig({
  plugins: [wasmBytes, inkTruncate],
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Through the transform pipeline, so that its .wasm goes through the plugin above.
    server: { deps: { inline: [/@cwasm[\\/]webp/, /[\\/]node_modules[\\/]ink(-testing-library)?[\\/]/] } },
    env: { IS_REACT_ACT_ENVIRONMENT: "true" },
    // The default console output, plus a machine-readable report that
    // .ci/run reads to print its "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: ".tmp/vitest-report.json" },
  },
});
