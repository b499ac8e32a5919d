// The bundle is written in two parts, compiled one after the other by the launcher
// (bin/run-bundle.cjs). The start part is what a start runs before its register is on the wire:
// the command line, the account, the HTTP client (undici) and the register's request. The later
// part is everything else (the UI, the sync, the Markdown engine, the reference server…): about
// 375 KB of the bundle's 2.6 MB against the rest. V8 compiles a script's whole text before it runs any of
// it (~55 ms for the whole bundle with no code cache, the first start after an install; ~20 ms to
// read its cache later), so compiling the start part alone puts the register on the wire that
// much sooner, and the later part compiles while the server answers.
//
// Each source file is in one part only. Every dynamic import made by the start part's modules
// becomes a call to `__termchat_later(key)`, which the launcher answers from the later part (and
// compiles it on the first such call); the later part's modules take any module of the start
// part through `__termchat_start(key)`, answered from the start part's `__startModules`, so a
// module has one instance, and its state and classes are the same for both parts. Both are
// CommonJS-shaped (a `require` of the module, as esbuild gives it), which is how esbuild itself
// turns a dynamic import into a module's namespace: the code of either part sees what it would
// see in one bundle.
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

const LATER = "termchat-later-part";
const START = "termchat-start-part";
const RAW = "termchat-later:";

/** The key of a file in either part: its path from the repository's root. */
const keyOf = (root, path) => relative(root, path).split("\\").join("/");

/**
 * For the start part's build: each dynamic import of a module not named in START_PART_DYNAMIC (nor
 * among `startFiles`, once known) is taken from the later part. `targets` collects them (key →
 * absolute path).
 */
export function laterImportsPlugin(root, targets, startFiles = new Set()) {
  return {
    name: "later-part-imports",
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.path.startsWith("node:") || args.pluginData?.[LATER]) return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { [LATER]: true } });
        if (found.errors.length > 0) return { errors: found.errors };
        if (found.external || found.namespace !== "file" || startFiles.has(found.path)) return found;
        const key = keyOf(root, found.path);
        if (START_PART_DYNAMIC.includes(key)) return found;
        targets.set(key, found.path);
        return { path: key, namespace: LATER };
      });
      // The module's names and its default export, as an ES module: its importer, in an ES module
      // package, would otherwise get the whole module as the default (Node's rule for CommonJS).
      b.onLoad({ filter: /.*/, namespace: LATER }, (args) => ({
        contents: `export * from "${RAW}${args.path}";\nexport { default } from "${RAW}${args.path}";\n`,
        loader: "js",
        resolveDir: root,
      }));
      b.onResolve({ filter: new RegExp(`^${RAW}`) }, (args) => ({ path: args.path.slice(RAW.length), namespace: `${LATER}-raw` }));
      b.onLoad({ filter: /.*/, namespace: `${LATER}-raw` }, (args) => ({ contents: `module.exports = __termchat_later(${JSON.stringify(args.path)});`, loader: "js" }));
    },
  };
}

/**
 * For the later part's build: any module the start part carries (`startFiles`, absolute paths) is
 * taken from it instead of bundled a second time.
 */
export function startImportsPlugin(root, startFiles) {
  return {
    name: "start-part-imports",
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === "entry-point" || args.namespace === START || args.pluginData?.[START]) return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { [START]: true } });
        if (found.errors.length > 0) return { errors: found.errors };
        if (found.external || found.namespace !== "file" || !startFiles.has(found.path)) return found;
        return { path: keyOf(root, found.path), namespace: START };
      });
      b.onLoad({ filter: /.*/, namespace: START }, (args) => ({ contents: `module.exports = __termchat_start(${JSON.stringify(args.path)});`, loader: "js" }));
    },
  };
}


/** The keys of the start part's modules that the later part takes, from the later part's metafile. */
export function takenFromStart(metafile) {
  return Object.keys(metafile.inputs)
    .filter((input) => input.startsWith(`${START}:`))
    .map((input) => input.slice(START.length + 1));
}

/** Whether a metafile's input is one of the two parts' links to the other (no code of a package). */
export const isPartLink = (input) => input.startsWith(`${LATER}:`) || input.startsWith(`${LATER}-raw:`) || input.startsWith(`${START}:`);

/** The start part's files (absolute paths) from its build's metafile: the source files, not the plugins' virtual modules. */
export function startFilesOf(metafile, root) {
  return new Set(Object.keys(metafile.inputs).filter((input) => !/^[\w-]+:/.test(input)).map((input) => resolve(root, input)));
}

/** The start part's entry: the CLI's exports, and each of its modules that the later part takes (`keys`). */
export function startEntry(root, mainFile, keys) {
  const modules = keys.map((key) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(resolve(root, key))}),`);
  return `export * from ${JSON.stringify(mainFile)};\nexport const __startModules = {\n${modules.join("\n")}\n};\n`;
}

/** The later part's entry: each module the start part imports dynamically, evaluated when first asked for. */
export function laterEntry(targets, startFiles) {
  const modules = [...targets]
    .filter(([, file]) => !startFiles.has(file)).map(([key, file]) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(file)}),`);
  return `export const modules = {\n${modules.join("\n")}\n};\n`;
}
