import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
    env: { IS_REACT_ACT_ENVIRONMENT: "true" },
    // The default console output, plus a machine-readable report that
    // .ci/run reads to print its "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: ".tmp/vitest-report.json" },
  },
});
