// Bundles the CLI into one file, dist/termchat.cjs, of three scripts (scripts/start-part.mjs: what
// a start runs before its register leaves, the rest of what a client runs, and what it never runs
// at start, such as the reference server), that the launcher (bin/termchat.cjs)
// runs with V8's code cache (bin/run-bundle.cjs): a start then pays for no module resolution and
// for compiling nothing it compiled last time. What is needed only later (the UI after the
// register, the Markdown engine, the reference server, the image decoder's thread) is evaluated
// only when first used: esbuild turns each dynamic import into a deferred initialisation inside
// its script, or (from one part to another) into a call the launcher answers.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { imageWorkerPlugin } from "./image-worker.mjs";
import { inkPatchEsbuild } from "./ink-patch.mjs";
import {
  isPartLink,
  laterEntry,
  laterImportsPlugin,
  laterModulesPlugin,
  RARE_PART_ROOTS,
  rareEntry,
  rareImportsPlugin,
  startEntry,
  sourceFilesOf,
  startImportsPlugin,
  takenFromLater,
  takenFromStart,
} from "./start-part.mjs";
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

/**
 * undici's HTTP/2 client, never used (see the stub), replaced so that http2 and tls do not load at
 * start. `carriesUndici`: the part that has undici's client must have replaced it.
 */
const noHttp2 = (carriesUndici) => ({
  name: "undici-without-http2",
  setup(b) {
    let replaced = false;
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) => {
      if (!/[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)) return undefined;
      replaced = true;
      return { path: new URL("./undici-h2-stub.cjs", import.meta.url).pathname };
    });
    b.onEnd((result) => {
      if (carriesUndici && result.errors.length === 0 && !replaced) return { errors: [{ text: "undici's client no longer imports ./client-h2.js: review scripts/undici-h2-stub.cjs" }] };
    });
  },
});

await rm("dist", { recursive: true, force: true }); // nothing of an earlier build left behind
await mkdir("dist", { recursive: true });
const root = process.cwd();
// The image decoder's thread is bundled apart and carried as text (scripts/image-worker.mjs).
let workerMeta = { inputs: {}, outputs: {} };
/** Where the build's id goes until it is known (24 characters, as the id). */
const BUILD_STAND_IN = "termchat-build-id-000000";
const common = {
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
  // The reference server's WebP decoder's WebAssembly travels inside the bundle (evaluated on its first WebP).
  loader: { ".wasm": "binary" },
  // Ink imports react-devtools-core only when DEV is set (the Ink patch removes that import); we never ship it.
  alias: { "react-devtools-core": "./scripts/devtools-stub.mjs" },
  // The build's id (src/sync/cache-file.ts, BUILD_ID): a stand-in of its length, replaced below.
  define: { "process.env.NODE_ENV": '"production"', __TERMCHAT_BUILD__: JSON.stringify(BUILD_STAND_IN) },
};
const plugins = (start) => [inkPatchEsbuild(), yogaPlugin, builtinImportsAsRequire, noHttp2(start), imageWorkerPlugin((m) => (workerMeta = m))];
// The bundle's three parts (scripts/start-part.mjs). First, which files the start part carries.
const main = resolve("src/cli/main.ts");
const targets = new Map();
const probe = await build({ ...common, entryPoints: [main], outfile: "dist/probe.cjs", write: false, plugins: [laterImportsPlugin(root, targets), ...plugins(true)] });
const startFiles = sourceFilesOf(probe.metafile, root);
// Then which the later part carries, and what it takes from the rare part: the rare part's roots
// the start part asks for go through the later part.
const rareTargets = new Map([...targets].filter(([key]) => RARE_PART_ROOTS.includes(key)));
const laterBuild = (forRare, write) =>
  build({
    ...common,
    stdin: { contents: laterEntry(root, targets, startFiles, forRare), resolveDir: root, sourcefile: "later-part.js", loader: "js" },
    outfile: "dist/termchat.later.cjs",
    write,
    plugins: [startImportsPlugin(root, startFiles), rareImportsPlugin(root, rareTargets), ...plugins(false)],
  });
const laterFiles = sourceFilesOf((await laterBuild([], false)).metafile, root);
// The rare part, which takes from the start and later parts what they carry; then the later
// part, which hands the rare part those of its modules; then the start part, which hands both
// parts its own.
const rarePart = await build({
  ...common,
  stdin: { contents: rareEntry(rareTargets), resolveDir: root, sourcefile: "rare-part.js", loader: "js" },
  outfile: "dist/termchat.rare.cjs",
  plugins: [startImportsPlugin(root, startFiles), laterModulesPlugin(root, laterFiles), ...plugins(false)],
});
const laterPart = await laterBuild(takenFromLater(rarePart.metafile), true);
const startPart = await build({
  ...common,
  stdin: { contents: startEntry(root, main, [...new Set([...takenFromStart(laterPart.metafile), ...takenFromStart(rarePart.metafile)])]), resolveDir: root, sourcefile: "start-part.js", loader: "js" },
  outfile: "dist/termchat.cjs",
  plugins: [laterImportsPlugin(root, new Map(), startFiles), ...plugins(true)],
});
const parts = { "dist/termchat.cjs": startPart.metafile, "dist/termchat.later.cjs": laterPart.metafile, "dist/termchat.rare.cjs": rarePart.metafile };
for (const [file, metafile] of Object.entries(parts)) {
  // A dynamic import left in the script would fail when it runs (no module loader): refuse the build.
  const left = metafile.outputs[file].imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path);
  if (left.length > 0) throw new Error(`build: dynamic imports left in ${file}: ${[...new Set(left)].join(", ")}`);
}
// Every file is in one part only, and the later part is the one its probe found.
const seen = new Map();
for (const [file, metafile] of Object.entries(parts)) for (const source of sourceFilesOf(metafile, root)) seen.set(source, [...(seen.get(source) ?? []), file]);
const twice = [...seen].filter(([, files]) => files.length > 1).map(([source]) => source);
if (twice.length > 0) throw new Error(`build: in two parts: ${twice.join(", ")}`);
if (sourceFilesOf(laterPart.metafile, root).size !== laterFiles.size) throw new Error("build: the later part carries other files than its probe found");
// The launcher reads the script as Latin-1 (no UTF-8 decoding, and V8 keeps it one byte per
// character): esbuild escapes what it can, and the few characters it leaves (inside regular
// expressions and comments) are written as \u escapes, which mean the same there. Each part's
// value is a module's function (the launcher calls it with exports, require, module…): written
// so by the build, the launcher compiles the file's text as it is, with no copy of it made.
// The first line names the build by a hash of its contents (the launcher's code cache is per
// build) and says where the later and rare parts begin.
const ascii = async (file) => (await readFile(file, "utf8")).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
let codes = [await ascii("dist/termchat.cjs"), await ascii("dist/termchat.later.cjs"), await ascii("dist/termchat.rare.cjs")];
const hash = createHash("sha256");
for (const code of codes) hash.update(code);
const id = hash.digest("hex").slice(0, 24);
// The code that asks for the build's id gets this one (as long as the stand-in, so the source maps hold).
if (!codes.some((code) => code.includes(BUILD_STAND_IN))) throw new Error("build: the build id's stand-in is not in the bundle");
codes = codes.map((code) => code.replaceAll(BUILD_STAND_IN, id));
const [startCode, laterCode, rareCode] = codes;
const startText = `(function (exports, require, module, __filename, __dirname, __termchat_later) {\n${startCode}\n})\n`;
const head = (laterAt, rareAt) => `// termchat build ${id} later ${String(laterAt).padStart(12, "0")} rare ${String(rareAt).padStart(12, "0")}\n`;
const laterText = `(function (exports, require, module, __filename, __dirname, __termchat_start, __termchat_rare) {\n${laterCode}\n})\n`;
const rareText = `(function (exports, require, module, __filename, __dirname, __termchat_start, __termchat_later) {\n${rareCode}\n})`;
const laterAt = head(0, 0).length + startText.length;
const rareAt = laterAt + laterText.length;
await writeFile("dist/termchat.cjs", head(laterAt, rareAt) + startText + laterText + rareText);
await rm("dist/termchat.later.cjs");
await rm("dist/termchat.rare.cjs");
// The source maps: each part's lines move down by the lines before its code.
const linesBefore = (text) => text.split("\n").length - 1;
const before = head(laterAt, rareAt) + startText;
for (const [file, lines] of [
  ["dist/termchat.cjs.map", 2],
  ["dist/termchat.later.cjs.map", linesBefore(before) + 1],
  ["dist/termchat.rare.cjs.map", linesBefore(before + laterText) + 1],
]) {
  const map = JSON.parse(await readFile(file, "utf8"));
  map.mappings = `${";".repeat(lines)}${map.mappings}`;
  await writeFile(file, JSON.stringify(map));
}
// One metafile for the three parts, without the parts' links to each other.
const withoutLinks = (record) => Object.fromEntries(Object.entries(record).filter(([input]) => !isPartLink(input)));
const metafile = {
  inputs: withoutLinks({ ...startPart.metafile.inputs, ...laterPart.metafile.inputs, ...rarePart.metafile.inputs }),
  outputs: Object.fromEntries(Object.entries({ ...startPart.metafile.outputs, ...laterPart.metafile.outputs, ...rarePart.metafile.outputs }).map(([file, output]) => [file, { ...output, inputs: withoutLinks(output.inputs) }])),
};
await writeFile("dist/meta.json", JSON.stringify(metafile));
// The package ships the bundle, so it ships the licences of what the bundle carries.
// The decoder thread's code (its WebAssembly among it) is inside the bundle too.
await writeFile("dist/THIRD-PARTY-LICENSES.txt", thirdPartyLicenses({ outputs: { ...metafile.outputs, ...workerMeta.outputs } }));
