// Bundles the CLI into one ESM file so start-up pays for one module load, not thousands.
import { build } from "esbuild";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { inkFramePlugin } from "./ink-frame-plugin.mjs";
import { thirdPartyLicenses } from "./third-party-licenses.mjs";
import { yogaPlugin } from "./yoga-plugin.mjs";

await rm("dist", { recursive: true, force: true }); // no chunks of an earlier build left behind
await mkdir("dist", { recursive: true });
const result = await build({
  entryPoints: { termchat: "src/cli/main.ts" },
  outdir: "dist",
  // What is imported dynamically (the UI, the Markdown engine, the reference server) goes in
  // chunks of its own: the start path compiles only what it needs before the register request
  // leaves, and the UI compiles while the server answers.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  jsx: "automatic",
  minify: true,
  sourcemap: "linked",
  metafile: true,
  logLevel: "warning",
  plugins: [inkFramePlugin, yogaPlugin],
  // The WebP decoder's WebAssembly travels inside the bundle (its own chunk, loaded on the first WebP).
  loader: { ".wasm": "binary" },
  // Ink imports react-devtools-core only when DEV is set; we never ship it. marked-terminal imports
  // cli-highlight for a code renderer we replace (see the stub).
  alias: { "react-devtools-core": "./scripts/devtools-stub.mjs", "cli-highlight": "./scripts/cli-highlight-stub.mjs" },
  define: { "process.env.NODE_ENV": '"production"' },
  // CommonJS dependencies inside an ESM bundle need require/__dirname.
  banner: {
    js: [
      "import { createRequire as __tcCreateRequire } from 'node:module';",
      "import { fileURLToPath as __tcFileURLToPath } from 'node:url';",
      "import { dirname as __tcDirname } from 'node:path';",
      "const require = __tcCreateRequire(import.meta.url);",
      "const __filename = __tcFileURLToPath(import.meta.url);",
      "const __dirname = __tcDirname(__filename);",
    ].join("\n"),
  },
});
await writeFile("dist/meta.json", JSON.stringify(result.metafile));
// The package ships the bundle, so it ships the licences of what the bundle carries.
await writeFile("dist/THIRD-PARTY-LICENSES.txt", thirdPartyLicenses(result.metafile));
