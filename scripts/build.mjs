// Bundles the CLI into one script, dist/termchat.cjs, that the launcher (bin/termchat.cjs) runs
// with V8's code cache (bin/run-bundle.cjs): a start then pays for no module resolution and for
// compiling nothing it compiled last time. What is needed only later (the UI after the register,
// the Markdown engine, the reference server, the image decoder's thread) is evaluated only when first
// used: esbuild turns each dynamic import into a deferred initialisation inside the script.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { imageWorkerPlugin } from "./image-worker.mjs";
import { inkPatchEsbuild } from "./ink-patch.mjs";
import { thirdPartyLicenses } from "./third-party-licenses.mjs";
import { yogaPlugin } from "./yoga-plugin.mjs";

/**
 * A script runs without a module loader: `import("node:zlib")`, which esbuild keeps as it is for
 * Node's own modules, would throw there. This plugin makes each such import a `require` of the
 * module, evaluated when the import runs, as esbuild does for the bundle's own modules.
 */
const builtinImportsAsRequire = {
  name: "builtin-imports-as-require",
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === "dynamic-import" ? { path: args.path, namespace: "builtin-require" } : undefined));
    b.onLoad({ filter: /.*/, namespace: "builtin-require" }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
  },
};

/** undici's HTTP/2 client, never used (see the stub), replaced so that http2 and tls do not load at start. */
const noHttp2 = {
  name: "undici-without-http2",
  setup(b) {
    let replaced = false;
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) => {
      if (!/[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)) return undefined;
      replaced = true;
      return { path: new URL("./undici-h2-stub.cjs", import.meta.url).pathname };
    });
    b.onEnd((result) => {
      if (result.errors.length === 0 && !replaced) return { errors: [{ text: "undici's client no longer imports ./client-h2.js: review scripts/undici-h2-stub.cjs" }] };
    });
  },
};

await rm("dist", { recursive: true, force: true }); // nothing of an earlier build left behind
await mkdir("dist", { recursive: true });
// The image decoder's thread is bundled apart and carried as text (scripts/image-worker.mjs).
let workerMeta = { inputs: {}, outputs: {} };
const result = await build({
  entryPoints: { termchat: "src/cli/main.ts" },
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  platform: "node",
  target: "node20",
  // A script, not a module: V8 caches a script's compiled code (vm.Script's cachedData) on every
  // Node.js from 20 on, and Node 20 has no such cache for ES modules. Nothing in the bundle awaits
  // at its top level (the Ink and yoga plugins remove the two places that did).
  format: "cjs",
  jsx: "automatic",
  minify: !process.env.TERMCHAT_BUILD_READABLE,
  sourcemap: "linked",
  metafile: true,
  logLevel: "warning",
  plugins: [inkPatchEsbuild(), yogaPlugin, builtinImportsAsRequire, noHttp2, imageWorkerPlugin((m) => (workerMeta = m))],
  // The reference server's WebP decoder's WebAssembly travels inside the bundle (evaluated on its first WebP).
  loader: { ".wasm": "binary" },
  // Ink imports react-devtools-core only when DEV is set (the Ink patch removes that import); we never ship it.
  alias: { "react-devtools-core": "./scripts/devtools-stub.mjs" },
  define: { "process.env.NODE_ENV": '"production"' },
});
// A dynamic import left in the script would fail when it runs (no module loader): refuse the build.
const left = result.metafile.outputs["dist/termchat.cjs"].imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path);
if (left.length > 0) throw new Error(`build: dynamic imports left in dist/termchat.cjs: ${[...new Set(left)].join(", ")}`);
// The launcher reads the script as Latin-1 (no UTF-8 decoding, and V8 keeps it one byte per
// character): esbuild escapes what it can, and the few characters it leaves (inside regular
// expressions and comments) are written as \u escapes, which mean the same there. The script's
// value is the module's function (the launcher calls it with exports, require, module…): written
// so by the build, the launcher compiles the file's text as it is, with no copy of it made.
// Its first line names the build by a hash of its contents: the launcher's code cache is per build.
const script = await readFile("dist/termchat.cjs", "utf8");
const ascii = script.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const id = createHash("sha256").update(ascii).digest("hex").slice(0, 24);
await writeFile("dist/termchat.cjs", `// termchat build ${id}\n(function (exports, require, module, __filename, __dirname) {\n${ascii}\n})`);
// The two lines put before the code: the source map's lines move down by two.
const map = JSON.parse(await readFile("dist/termchat.cjs.map", "utf8"));
map.mappings = `;;${map.mappings}`;
await writeFile("dist/termchat.cjs.map", JSON.stringify(map));
await writeFile("dist/meta.json", JSON.stringify(result.metafile));
// The package ships the bundle, so it ships the licences of what the bundle carries.
// The decoder thread's code (its WebAssembly among it) is inside the bundle too.
await writeFile("dist/THIRD-PARTY-LICENSES.txt", thirdPartyLicenses({ outputs: { ...result.metafile.outputs, ...workerMeta.outputs } }));
