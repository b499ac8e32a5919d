// npm run bench: bundles each benchmark and runs it in a fresh process (clean heap), printing its figures.
// Benchmarks print numbers; they never fail a build on time.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";

const outdir = ".tmp/bench";
mkdirSync(outdir, { recursive: true });
const entries = ["bench/serve.ts", "bench/model.ts"];
await build({
  entryPoints: entries,
  outdir,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  logLevel: "warning",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const data = process.argv[2] ?? "large";
const runs = [{ title: `Model (data set: ${data})`, file: "model.js", args: [data] }];
for (const r of runs) {
  console.log(`\n${r.title}`);
  const res = spawnSync(process.execPath, ["--expose-gc", `${outdir}/${r.file}`, ...r.args], { stdio: "inherit", timeout: 300_000 });
  if (res.status !== 0) console.log(`  (benchmark ended with status ${res.status ?? res.signal})`);
}
