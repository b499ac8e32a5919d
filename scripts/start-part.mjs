// The bundle is written in three parts, compiled one after the other by the launcher
// (bin/run-bundle.cjs). The start part is what a start runs before its register is on the wire:
// the command line, the account, the HTTP client (undici) and the register's request. The later
// part is the rest of what a client runs (the UI, the sync, the Markdown engine…), and the rare
// part what a client's start never runs (RARE_PART_ROOTS: the reference server, the image
// decoder, the settings' writer). V8 compiles a script's whole text before it runs any of it
// (~55 ms for the whole bundle with no code cache, the first start after an install; ~20 ms to
// read its cache later), so compiling the start part alone puts the register on the wire that
// much sooner, and the later part compiles while the server answers. With no code cache, the
// compile also takes about five times a part's size in memory, which the C heap keeps: the rare
// part is compiled only by a run that uses it, and its code is in no other run's cache.
//
// Each source file is in one part only. Every dynamic import made by the start part's modules
// becomes a call to `__termchat_later(key)`, which the launcher answers from the later part (and
// compiles it on the first such call), and every dynamic import of a rare part's root a call to
// `__termchat_rare(key)`; a part's modules take any module of a part before it through
// `__termchat_start(key)` or `__termchat_later(key)`, answered from that part's exports, so a
// module has one instance, and its state and classes are the same for every part. All are
// CommonJS-shaped (a `require` of the module, as esbuild gives it), which is how esbuild itself
// turns a dynamic import into a module's namespace: the code of any part sees what it would see
// in one bundle.
import { relative, resolve } from "node:path";

/**
 * Modules the start imports dynamically but needs before its register is sent: they stay in the
 * start part (each with what it imports). Paths from the repository's root.
 */
export const START_PART_DYNAMIC = [
  "src/cli/account.ts",
  "src/cli/run-several.ts",
  // The proxy's agent (src/api/dispatcher.ts), loaded only when a proxy is set.
  "node_modules/undici/lib/dispatcher/env-http-proxy-agent.js",
  "node_modules/undici/lib/dispatcher/dispatcher.js",
  "node_modules/undici/lib/api/api-connect.js",
];

/**
 * Modules a client's start never runs, imported dynamically: they, and what only they import,
 * make a third part, compiled on first use. The reference server (`--demo`, `termchat server`),
 * the image decoder's host (with its thread's code and the WebP decoder), the settings' writer
 * (conf, with its schema checker). Paths from the repository's root.
 */
export const RARE_PART_ROOTS = ["src/server/index.ts", "src/render/images/worker-host.ts", "node_modules/conf/dist/source/index.js"];

const LATER = "termchat-later-part";
const RARE = "termchat-rare-part";
const START = "termchat-start-part";
const FROM_LATER = "termchat-from-later";

/** The key of a file in any part: its path from the repository's root. */
const keyOf = (root, path) => relative(root, path).split("\\").join("/");

/**
 * Each dynamic import of a module that `takes(key, path)` becomes a call to `call(key)`, which the
 * launcher answers from another part; `targets` collects them (key → absolute path).
 */
function partLinks(namespace, call, root, targets, takes) {
  const raw = `${namespace}-raw`;
  return {
    name: namespace,
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.path.startsWith("node:") || args.pluginData?.[namespace]) return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { ...args.pluginData, [namespace]: true } });
        if (found.errors.length > 0) return { errors: found.errors };
        if (found.external || found.namespace !== "file") return found;
        const key = keyOf(root, found.path);
        if (!takes(key, found.path)) return found;
        targets.set(key, found.path);
        return { path: key, namespace };
      });
      // The module's names and its default export, as an ES module: its importer, in an ES module
      // package, would otherwise get the whole module as the default (Node's rule for CommonJS).
      b.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents: `export * from "${raw}:${args.path}";\nexport { default } from "${raw}:${args.path}";\n`,
        loader: "js",
        resolveDir: root,
      }));
      b.onResolve({ filter: new RegExp(`^${raw}:`) }, (args) => ({ path: args.path.slice(raw.length + 1), namespace: raw }));
      b.onLoad({ filter: /.*/, namespace: raw }, (args) => ({ contents: `module.exports = ${call}(${JSON.stringify(args.path)});`, loader: "js" }));
    },
  };
}

/** Any module among `files` (absolute paths), however imported, becomes a call to `call(key)`: taken from the part that carries it. */
function takenFrom(namespace, call, root, files) {
  return {
    name: namespace,
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === "entry-point" || args.namespace === namespace || args.pluginData?.[namespace]) return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { ...args.pluginData, [namespace]: true } });
        if (found.errors.length > 0) return { errors: found.errors };
        if (found.external || found.namespace !== "file" || !files.has(found.path)) return found;
        return { path: keyOf(root, found.path), namespace };
      });
      b.onLoad({ filter: /.*/, namespace }, (args) => ({ contents: `module.exports = ${call}(${JSON.stringify(args.path)});`, loader: "js" }));
    },
  };
}

/**
 * For the start part's build: each dynamic import of a module not named in START_PART_DYNAMIC (nor
 * among `startFiles`, once known) is taken from the later part. `targets` collects them (key →
 * absolute path).
 */
export function laterImportsPlugin(root, targets, startFiles = new Set()) {
  return partLinks(LATER, "__termchat_later", root, targets, (key, path) => !startFiles.has(path) && !START_PART_DYNAMIC.includes(key));
}

/** For the later part's build: each dynamic import of one of RARE_PART_ROOTS is taken from the rare part (`targets` collects them). */
export function rareImportsPlugin(root, targets) {
  return partLinks(RARE, "__termchat_rare", root, targets, (key) => RARE_PART_ROOTS.includes(key));
}

/**
 * For the later part's build, and the rare part's: any module the start part carries (`startFiles`,
 * absolute paths) is taken from it instead of bundled a second time.
 */
export function startImportsPlugin(root, startFiles) {
  return takenFrom(START, "__termchat_start", root, startFiles);
}

/** For the rare part's build: any module the later part carries (`laterFiles`) is taken from it. */
export function laterModulesPlugin(root, laterFiles) {
  return takenFrom(FROM_LATER, "__termchat_later", root, laterFiles);
}

/** The keys of the modules a part takes from `namespace`'s part, from its build's metafile. */
const takenBy = (namespace) => (metafile) =>
  Object.keys(metafile.inputs)
    .filter((input) => input.startsWith(`${namespace}:`))
    .map((input) => input.slice(namespace.length + 1));

/** The keys of the start part's modules that a later part takes, from that part's metafile. */
export const takenFromStart = takenBy(START);

/** The keys of the later part's modules that the rare part takes, from its metafile. */
export const takenFromLater = takenBy(FROM_LATER);

/** Whether a metafile's input is one of the parts' links to another (no code of a package). */
export const isPartLink = (input) => [LATER, `${LATER}-raw`, RARE, `${RARE}-raw`, START, FROM_LATER].some((namespace) => input.startsWith(`${namespace}:`));

/** A part's files (absolute paths) from its build's metafile: the source files, not the plugins' virtual modules. */
export function sourceFilesOf(metafile, root) {
  return new Set(Object.keys(metafile.inputs).filter((input) => !/^[\w-]+:/.test(input)).map((input) => resolve(root, input)));
}

/** The start part's entry: the CLI's exports, and each of its modules that the later part takes (`keys`). */
export function startEntry(root, mainFile, keys) {
  const modules = keys.map((key) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(resolve(root, key))}),`);
  return `export * from ${JSON.stringify(mainFile)};\nexport const __startModules = {\n${modules.join("\n")}\n};\n`;
}

/**
 * The later part's entry: each module the start part imports dynamically (those of the rare part
 * taken from it), and each of its own that the rare part takes (`forRare`, keys), evaluated when
 * first asked for.
 */
export function laterEntry(root, targets, startFiles, forRare = []) {
  const modules = [...targets]
    .filter(([, file]) => !startFiles.has(file))
    .map(([key, file]) => `  ${JSON.stringify(key)}: () => ${RARE_PART_ROOTS.includes(key) ? `__termchat_rare(${JSON.stringify(key)})` : `require(${JSON.stringify(file)})`},`);
  for (const key of forRare) if (!targets.has(key)) modules.push(`  ${JSON.stringify(key)}: () => require(${JSON.stringify(resolve(root, key))}),`);
  return `export const modules = {\n${modules.join("\n")}\n};\n`;
}

/** The rare part's entry: its modules that the other parts import dynamically (`targets`, key → path). */
export function rareEntry(targets) {
  const modules = [...targets].map(([key, file]) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(file)}),`);
  return `export const modules = {\n${modules.join("\n")}\n};\n`;
}
