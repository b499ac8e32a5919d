// npm run bench: bundles each benchmark and runs it in a fresh process (clean heap), printing its figures.
// Benchmarks print numbers; they never fail a build on time.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { imageWorkerPlugin } from "../scripts/image-worker.mjs";
import { inkPatchEsbuild } from "../scripts/ink-patch.mjs";

const outdir = ".tmp/bench";
mkdirSync(outdir, { recursive: true });
const entries = ["bench/images.tsx", "bench/image-decode.ts", "bench/image-files.ts", "bench/serve.ts", "bench/model.ts", "bench/finder.ts", "bench/finder-ui.tsx", "bench/floor.ts", "bench/startup.ts", "bench/link.ts", "bench/latency.tsx", "bench/pack.ts", "bench/wire.ts", "bench/memory.ts", "bench/files.ts", "bench/cache.ts", "bench/memory-day.ts", "bench/contrast.ts", "bench/compose.ts", "bench/peer-keys.ts", "bench/hostile.tsx", "bench/hostile-serve.ts", "bench/orgs.ts"];
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  logLevel: "warning",
  alias: { "react-devtools-core": "./scripts/devtools-stub.mjs" },
  define: { "process.env.NODE_ENV": '"production"' },
  // The WebP decoder's WebAssembly goes into the bundle as bytes, as in the real build.
  loader: { ".wasm": "binary" },
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
};
// Bytes per keystroke, with the frame writer and (for comparison) with Ink's own writer.
await build({ ...common, entryPoints: { "frame-bytes": "bench/frame-bytes.tsx" }, outdir, plugins: [inkPatchEsbuild(), imageWorkerPlugin()] });
await build({ ...common, entryPoints: { "frame-bytes-ink": "bench/frame-bytes.tsx" }, outdir, plugins: [inkPatchEsbuild({ frameWriter: false }), imageWorkerPlugin()] });
await build({ ...common, entryPoints: entries, outdir, plugins: [inkPatchEsbuild(), imageWorkerPlugin()] });
const data = process.argv[2] ?? "large";
const runs = [
  { title: `Model (data set: ${data})`, file: "model.js", args: [data] },
  { title: `Jump finder: index build and keystroke to ranked results (data set: ${data})`, file: "finder.js", args: [data], env: { BENCH_RATE_LIMIT: "off" } },
  { title: `Jump finder through the UI: keystroke to the Finder's list drawn by Ink on a fake 120×40 TTY (data set: ${data})`, file: "finder-ui.js", args: [data], env: { BENCH_RATE_LIMIT: "off" } },
  { title: `The register on the wire, uncompressed and gzipped (data set: ${data})`, file: "wire.js", args: [data] },
  { title: `Memory: heap by step and the client's RSS (data set: ${data})`, file: "memory.js", args: [data] },
  { title: "Memory: the same on the demo organization", file: "memory.js", args: ["demo"] },
  { title: `Memory over a working day: 100,000 events while narrows are opened and left (data set: ${data})`, file: "memory-day.js", args: [data] },
  { title: `Start-up of the built binary in a terminal (data set: ${data})`, file: "startup.js", args: [data, process.env.BENCH_IDLE_SECONDS ?? "30"] },
  { title: "Several organizations: first frame and RSS with 1, 3 and 5, each a demo reference server on 127.0.0.1", file: "orgs.js", args: [] },
  { title: `Start-up over a simulated network link (data set: ${data})`, file: "link.js", args: [data, process.env.BENCH_LINK_RUNS ?? "3"] },
  { title: "Keystroke to frame, the real App on a fake 120×40 TTY, 10,000 messages in the open topic (data set: demo)", file: "latency.js", args: ["10000", "120", "40"] },
  { title: "Keystroke to frame, the same on 80×24 (the cost follows the screen's area, not the message count)", file: "latency.js", args: ["10000", "80", "24"] },
  { title: `Keystroke to frame, the real App on a fake 120×40 TTY, the combined feed (data set: ${data})`, file: "latency.js", args: ["feed", "120", "40", data] },
  { title: "Compose box: soft wrap of a 10,000-character message, 86 columns", file: "compose.js", args: [] },
  { title: "Bytes written per keystroke, Ink's own writer (before), 80×24", file: "frame-bytes-ink.js", args: ["80", "24", "before"] },
  { title: "Bytes written per keystroke, the frame writer (after), 80×24", file: "frame-bytes.js", args: ["80", "24", "after"] },
  { title: "Bytes written per keystroke, Ink's own writer (before), 120×40", file: "frame-bytes-ink.js", args: ["120", "40", "before"] },
  { title: "Bytes written per keystroke, the frame writer (after), 120×40", file: "frame-bytes.js", args: ["120", "40", "after"] },
  { title: "Bytes written per keystroke on the alternate screen at the terminal's full height, Ink's own writer (it clears and redraws such frames), 120×40", file: "frame-bytes-ink.js", args: ["120", "40", "alternate, Ink"], env: { BENCH_ALTERNATE_SCREEN: "1" } },
  { title: "Bytes written per keystroke on the alternate screen at the terminal's full height, the frame writer, 120×40", file: "frame-bytes.js", args: ["120", "40", "alternate"], env: { BENCH_ALTERNATE_SCREEN: "1" } },
  { title: "Files: a 20 MiB upload streamed from disk and its authenticated download (reference server on 127.0.0.1)", file: "files.js", args: ["20", "3"] },
  { title: `Local cache: first frame with the register held 3 s, size, writes (data set: ${data})`, file: "cache.js", args: [data] },
  { title: "Local cache: the same on the demo organization", file: "cache.js", args: ["demo"] },
  { title: "The package (npm pack of the build, installed from the tarball)", file: "pack.js", args: [] },
  { title: `Keys in tmux, termchat and the existing terminal client side by side, 120×40, combined feed (data set: ${data})`, file: "peer-keys.js", args: [data] },
  { title: "Contrast of the themes' colours on black and white backgrounds (WCAG 2 ratios)", file: "contrast.js", args: [] },
  { title: "Images: each large image decoded alone on the decoder thread (no app in the process)", file: "image-decode.js", args: [] },
  { title: "Images: a 64×64 PNG arriving in the open conversation (what any picture costs)", file: "images.js", args: ["small"], env: { BENCH_SERVER_THUMBNAILS: "off" } },
  ...["png", "jpeg", "gif"].flatMap((kind) => [
    { title: `Images: a large ${kind.toUpperCase()} arriving in the open conversation, decoded from the file (a server without thumbnails)`, file: "images.js", args: [kind], env: { BENCH_SERVER_THUMBNAILS: "off" } },
    { title: `Images: the same ${kind.toUpperCase()} from a server that makes thumbnails`, file: "images.js", args: [kind] },
  ]),
  ...[
    ["idle", "Hostile content: the real App on a fake 120×40 TTY, k/G every 100 ms; neighbours at rest"],
    ["markdown", "Hostile content: pathological Markdown arriving in the open feed"],
    ["reactions", "Hostile content: 1,000 reactions arriving on a message"],
    ["poll", "Hostile content: a poll of 5,000 options and votes arriving"],
    ["names", "Hostile content: names and a topic at the longest the service allows"],
    ["bomb", "Hostile content: a compression bomb as an events answer"],
    ["batch", "Hostile content: an events answer of 100,000 events"],
    ["trickle", "Hostile content: an events answer trickling in a byte a second"],
    ["busy", "Hostile content: a busy organization, 50 messages a second for a minute across four channels"],
  ].map(([name, title]) => ({ title, file: "hostile.js", args: [name] })),
];
const only = process.env.BENCH_ONLY;
for (const r of runs) {
  if (only && !r.file.startsWith(only)) continue;
  console.log(`\n${r.title}`);
  // Ink draws nothing until exit when it thinks it runs in CI (a CI variable set at all, even
  // empty): the benchmarks that render in-process measure frames, so they are told otherwise.
  const res = spawnSync(process.execPath, ["--expose-gc", `${outdir}/${r.file}`, ...r.args], { stdio: "inherit", timeout: 300_000, env: { ...process.env, CI: "false", ...r.env } });
  if (res.status !== 0) console.log(`  (benchmark ended with status ${res.status ?? res.signal})`);
}
