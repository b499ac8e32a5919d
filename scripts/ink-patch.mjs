// The patched Ink, in one place. termchat runs Ink 6.8.0 with some of its modules replaced by
// its own and a few lines of it (and of the text packages under it) changed. This file is the
// one list of those changes; the bundle applies it with esbuild (`inkPatchEsbuild`) and the
// tests with vite (`inkPatchVite`, vitest.config.ts), so screen tests and the shipped bundle run
// the same code. The changes:
// - Ink's `Output` and `widest-line`: the same bytes per frame, with the parsing and measuring of
//   unchanged lines remembered across frames instead of redone every frame (src/ui/ink-frame/);
// - Ink's `log-update`: the frame writer, which sends only what changed since the frame on screen;
// - Ink's `write-synchronized`: synchronized output only where the terminal said it has it;
// - Ink's full-height frames: drawn by the frame writer on the alternate screen, not cleared
//   and redrawn whole; and a frame that answers a key is drawn at once, not at the end of Ink's
//   30-frames-a-second window;
// - Ink's input parser: the terminal's answers to our questions (OSC, DCS, APC strings and CSI
//   reports) are taken out of the key input and handed to the terminal probe, never to keys; an
//   unfinished sequence may wait a little for its end (App.js schedules that wait);
// - Ink's terminal-size (its width when the output stream has none): from the streams and the
//   environment only, without the child processes whose modules loaded at every start;
// - Ink's truncation (cli-truncate, as its text wrapping imports it): the ellipsis of the glyphs
//   in use ("..." on a terminal without UTF-8);
// - `string-width`, wherever it is imported (Ink, wrap-ansi, cli-truncate): one width function
//   for the whole program, src/render/string-width.ts;
// - the grapheme segmenters that @alcalzone/ansi-tokenize and slice-ansi make when they load:
//   both use src/render/graphemes.ts instead; and wrap-ansi breaks long words by its clusters;
// - Ink's text squashing: remembered per text node while its children are unchanged, instead of
//   calling every style's transform and tokenizing the result again every frame;
// - Ink's walk from its DOM to the frame buffer: a node's writes are given again while the node,
//   everything under it and its box are as they were (Ink's DOM functions count the changes);
// - Ink's reconciler: its two top-level awaits, which run only with DEV=true (React devtools),
//   go, so that the bundle can be a script V8 caches between runs;
// - marked-terminal's cli-table3 and cli-highlight: termchat draws tables and highlights code
//   itself (src/render/markdown-table.ts, src/render/highlight.ts); stubs take their place.
// Every change was written against the exact versions in PATCHED_FOR (pinned in package.json):
// a build or a test run fails if another version is installed, or if a change no longer
// applies where it was written to.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const here = (path) => join(root, path);

/** The packages the patch replaces, edits or redirects, at the versions it was written for. */
export const PATCHED_FOR = {
  ink: "6.8.0",
  "@alcalzone/ansi-tokenize": "0.2.5",
  "slice-ansi": "8.0.0",
  "string-width": "8.3.0",
  "wrap-ansi": "9.0.2",
  "cli-truncate": "5.2.0",
  "widest-line": "6.0.0",
  "marked-terminal": "7.3.1",
};

/** Packages the tests must load through the patch too: those above, and those that import Ink. */
export const THROUGH_THE_PATCH = [...Object.keys(PATCHED_FOR).filter((n) => n !== "string-width"), "ink-testing-library"];

/** The installed version of a package, as the project's own imports find it. */
export function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/** The version of `name` that code inside the package at `dir` gets (Node's lookup, upwards). */
export function versionSeenFrom(dir, name) {
  for (let d = dir; d.startsWith(root); d = dirname(d)) {
    const file = join(d, "node_modules", name, "package.json");
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")).version;
  }
  return undefined;
}

/** One line per package whose installed version is not the one the patch was written for. */
export function versionMismatches() {
  const problems = Object.entries(PATCHED_FOR)
    .map(([name, wanted]) => [name, wanted, installedVersion(name)])
    .filter(([, wanted, found]) => found !== wanted)
    .map(([name, wanted, found]) => `${name} ${found ?? "(not found)"} is installed, the patch was written for ${wanted}`);
  // A nested copy of string-width under a patched package would be measured with in its place
  // wherever the redirect does not reach: there must be none of another version.
  for (const name of Object.keys(PATCHED_FOR)) {
    const nested = join(root, "node_modules", name, "node_modules");
    if (!existsSync(nested)) continue;
    for (const dep of readdirSync(nested)) {
      const wanted = PATCHED_FOR[dep];
      const found = versionSeenFrom(join(nested, dep), dep);
      if (wanted && found !== wanted) problems.push(`${name} carries its own ${dep} ${found}, the patch was written for ${wanted} (package.json overrides)`);
    }
  }
  return problems;
}

const file = (...parts) => new RegExp(`[\\\\/]${parts.map((p) => p.replace(/[.+]/g, "\\$&")).join("[\\\\/]")}$`);
const anyInkBuildFile = /[\\/]ink[\\/]build[\\/][\w-]+\.js$/;

/**
 * Modules replaced: an import of `specifier` from a file matching `importer` loads `to` instead.
 * `frameWriter` marks the two that the benchmark's "before" (Ink's own writer) leaves out.
 */
export const SWAPS = [
  { name: "Ink's Output", specifier: "./output.js", importer: file("ink", "build", "renderer.js"), to: "src/ui/ink-frame/output.ts" },
  { name: "Ink's widest-line", specifier: "widest-line", importer: anyInkBuildFile, to: "src/ui/ink-frame/widest-line.ts" },
  { name: "Ink's log-update", specifier: "./log-update.js", importer: file("ink", "build", "ink.js"), to: "src/ui/ink-frame/log-update.ts", frameWriter: true },
  { name: "Ink's write-synchronized", specifier: "./write-synchronized.js", importer: file("ink", "build", "ink.js"), to: "src/ui/ink-frame/write-synchronized.ts", frameWriter: true },
  { name: "Ink's cli-truncate", specifier: "cli-truncate", importer: file("ink", "build", "wrap-text.js"), to: "src/ui/ink-frame/truncate.ts" },
  { name: "Ink's terminal-size", specifier: "terminal-size", importer: file("ink", "build", "ink.js"), to: "src/ui/ink-frame/terminal-size.ts" },
  { name: "Ink's input parser", specifier: "../input-parser.js", importer: file("ink", "build", "components", "App.js"), to: "src/ui/ink-frame/input-parser.ts" },
  { name: "string-width in Ink", specifier: "string-width", importer: file("ink", "build", "output.js"), to: "src/render/string-width.ts" },
  { name: "string-width in wrap-ansi", specifier: "string-width", importer: file("wrap-ansi", "index.js"), to: "src/render/string-width.ts" },
  { name: "string-width in cli-truncate", specifier: "string-width", importer: file("cli-truncate", "index.js"), to: "src/render/string-width.ts" },
  { name: "marked-terminal's cli-table3", specifier: "cli-table3", importer: file("marked-terminal", "index.js"), to: "scripts/cli-table3-stub.mjs" },
  { name: "marked-terminal's cli-highlight", specifier: "cli-highlight", importer: file("marked-terminal", "index.js"), to: "scripts/cli-highlight-stub.mjs" },
];

/** Any other importer of string-width (there is none today) gets ours too, unchecked. */
const STRING_WIDTH = "src/render/string-width.ts";

const GRAPHEMES_IMPORT = `import { graphemeSegmenter as __termchatGraphemes } from ${JSON.stringify(here("src/render/graphemes.ts"))};\n`;

const TOUCH_IMPORT = `import { touchNode as __termchatTouchNode } from ${JSON.stringify(here("src/ui/ink-frame/output-memo.ts"))};\n`;

/** Text changed in place: in the file matching `file`, each `from` (found exactly once) becomes `to`. */
export const EDITS = [
  {
    name: "Ink's reconciler",
    file: file("ink", "build", "reconciler.js"),
    prepend: TOUCH_IMPORT,
    replace: [
      ["await import('./devtools.js');", "void 0; // React devtools are not in the bundle"],
      ["? await loadPackageJson()", "? { name: undefined, version: undefined }"],
      // The changes the DOM functions do not see, counted as theirs are (Ink's node walk below).
      ["                    node.internal_transform = value;", "                    node.internal_transform = value;\n                    __termchatTouchNode(node);"],
      ["        node.yogaNode?.setDisplay(Yoga.DISPLAY_NONE);", "        node.yogaNode?.setDisplay(Yoga.DISPLAY_NONE);\n        __termchatTouchNode(node);"],
      ["        node.yogaNode?.setDisplay(Yoga.DISPLAY_FLEX);", "        node.yogaNode?.setDisplay(Yoga.DISPLAY_FLEX);\n        __termchatTouchNode(node);"],
    ],
  },
  {
    name: "ansi-tokenize's segmenter",
    file: file("@alcalzone", "ansi-tokenize", "build", "tokenize.js"),
    prepend: GRAPHEMES_IMPORT,
    replace: [['new Intl.Segmenter(undefined, { granularity: "grapheme" })', "__termchatGraphemes"]],
  },
  {
    name: "slice-ansi's segmenter",
    file: file("slice-ansi", "tokenize-ansi.js"),
    prepend: GRAPHEMES_IMPORT,
    replace: [["new Intl.Segmenter(undefined, {granularity: 'grapheme'})", "__termchatGraphemes"]],
  },
  {
    // wrap-ansi breaks a word longer than the line character by character, by code point: an
    // emoji with its variation selector (🅰️) was measured as two characters of one and no cells,
    // and a line of them came out half as wide again as asked. It goes by grapheme cluster.
    name: "wrap-ansi's long words",
    file: file("wrap-ansi", "index.js"),
    prepend: GRAPHEMES_IMPORT,
    replace: [["\tconst characters = [...word];", "\tconst characters = Array.from(__termchatGraphemes.segment(word), (s) => s.segment);"]],
  },
  {
    // On the alternate screen the frame writer draws a frame as tall as the terminal by its
    // changes (src/ui/ink-frame/log-update.ts, drawsFullHeight); Ink would clear the screen and
    // its scrollback and redraw every such frame whole. And a frame that answers a key is drawn
    // at once, not at the end of Ink's 30-a-second window (src/ui/ink-frame/key-frames.ts); what
    // the server changes still shares the windows. After such a frame the young generation is
    // emptied once a quarter of it is taken (src/ui/ink-frame/idle-scavenge.ts), so that its collection
    // falls between keys, not in the next one.
    name: "Ink's frames",
    file: file("ink", "build", "ink.js"),
    prepend:
      `import { takeKeyFrame as __termchatTakeKeyFrame } from ${JSON.stringify(here("src/ui/ink-frame/key-frames.ts"))};\n` +
      `import { scavengeAfterKeyFrame as __termchatScavenge } from ${JSON.stringify(here("src/ui/ink-frame/idle-scavenge.ts"))};\n`,
    replace: [
      ["        if (this.lastOutputHeight >= this.options.stdout.rows) {", "        if (this.lastOutputHeight >= this.options.stdout.rows && !this.log.drawsFullHeight) {"],
      [
        ["            this.rootNode.onRender = () => {", "                this.hasPendingThrottledRender = true;", "                throttled();", "            };"].join("\n"),
        [
          "            this.rootNode.onRender = () => {",
          "                this.hasPendingThrottledRender = true;",
          "                if (!__termchatTakeKeyFrame()) return throttled();",
          "                throttled.cancel();",
          "                this.onRender();",
          "                __termchatScavenge();",
          "            };",
        ].join("\n"),
      ],
    ],
  },
  {
    // Every frame squashed every text node on screen again (each style's transform called, the
    // result tokenized): a node's text is kept on it while its children are unchanged
    // (src/ui/ink-frame/squash-memo.ts). The recursion into nested text goes through the kept one too.
    name: "Ink's text squashing",
    file: file("ink", "build", "squash-text-nodes.js"),
    prepend: `import { rememberSquashed as __termchatRememberSquashed } from ${JSON.stringify(here("src/ui/ink-frame/squash-memo.ts"))};\n`,
    replace: [
      ["const squashTextNodes = (node) => {", "const squashTextNodesAfresh = (node) => {"],
      ["export default squashTextNodes;", "const squashTextNodes = __termchatRememberSquashed(squashTextNodesAfresh);\nexport default squashTextNodes;"],
    ],
  },
  {
    // Every change to a node is counted on it and its ancestors (src/ui/ink-frame/output-memo.ts),
    // so that the walk below knows which subtrees are as they were.
    name: "Ink's DOM changes",
    file: file("ink", "build", "dom.js"),
    prepend: TOUCH_IMPORT,
    replace: [
      ["export const appendChildNode = (node, childNode) => {", "export const appendChildNode = (node, childNode) => {\n    __termchatTouchNode(node);"],
      ["export const insertBeforeNode = (node, newChildNode, beforeChildNode) => {", "export const insertBeforeNode = (node, newChildNode, beforeChildNode) => {\n    __termchatTouchNode(node);"],
      ["export const removeChildNode = (node, removeNode) => {", "export const removeChildNode = (node, removeNode) => {\n    __termchatTouchNode(node);"],
      ["export const setAttribute = (node, key, value) => {", "export const setAttribute = (node, key, value) => {\n    __termchatTouchNode(node);"],
      ["export const setStyle = (node, style) => {", "export const setStyle = (node, style) => {\n    __termchatTouchNode(node);"],
      ["export const setTextNodeValue = (node, text) => {", "export const setTextNodeValue = (node, text) => {\n    __termchatTouchNode(node);"],
    ],
  },
  {
    // Every frame Ink walked every node on screen into the frame buffer: a node's writes are kept
    // with what they came from, and given again while that is unchanged (src/ui/ink-frame/output-memo.ts).
    // The recursion into the children goes through the kept walk too.
    name: "Ink's node walk",
    file: file("ink", "build", "render-node-to-output.js"),
    prepend: `import { rememberOutput as __termchatRememberOutput } from ${JSON.stringify(here("src/ui/ink-frame/output-memo.ts"))};\n`,
    replace: [
      ["const renderNodeToOutput = (node, output, options) => {", "const renderNodeToOutputAfresh = (node, output, options) => {"],
      ["export default renderNodeToOutput;", "const renderNodeToOutput = __termchatRememberOutput(renderNodeToOutputAfresh);\nexport default renderNodeToOutput;"],
    ],
  },
  {
    // An unfinished sequence waits as long as the parser says (src/ui/ink-frame/input-parser.ts),
    // not one turn of the event loop, and what it releases may be several keys.
    name: "Ink's pending input",
    file: file("ink", "build", "components", "App.js"),
    replace: [
      ["import { createInputParser } from '../input-parser.js';", "import { createInputParser, scheduleInputFlush, cancelInputFlush } from '../input-parser.js';"],
      ["clearImmediate(pendingInputFlushRef.current);", "cancelInputFlush(pendingInputFlushRef.current);"],
      [
        [
          "        pendingInputFlushRef.current = setImmediate(() => {",
          "            pendingInputFlushRef.current = undefined;",
          "            const pendingEscape = inputParserRef.current.flushPendingEscape();",
          "            if (!pendingEscape) {",
          "                return;",
          "            }",
          "            emitInput(pendingEscape);",
          "        });",
        ].join("\n"),
        [
          "        pendingInputFlushRef.current = scheduleInputFlush(inputParserRef.current, () => {",
          "            pendingInputFlushRef.current = undefined;",
          "            for (const input of inputParserRef.current.flushPending()) emitInput(input);",
          "            if (inputParserRef.current.hasPendingEscape()) schedulePendingInputFlush();",
          "        });",
        ].join("\n"),
      ],
    ],
  },
];

/** The edited text of `source` (from the file at `path`), or a string saying what did not apply. */
export function applyEdit(edit, source) {
  let out = source;
  for (const [from, to] of edit.replace) {
    const at = out.indexOf(from);
    if (at === -1 || out.indexOf(from, at + from.length) !== -1) return { problem: `${edit.name}: ${JSON.stringify(from.slice(0, 60))} is not found exactly once` };
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return { code: (edit.prepend ?? "") + out };
}

function activeSwaps(frameWriter) {
  return SWAPS.filter((s) => frameWriter || !s.frameWriter);
}

/**
 * What a build made of `files` must have applied, by name: each swap whose importer is among
 * them and each edit whose file is (a benchmark of the model contains none of Ink, and needs none).
 */
export function expectedChanges(files, frameWriter = true) {
  const present = (re) => files.some((f) => re.test(f));
  return [...activeSwaps(frameWriter).filter((s) => present(s.importer)).map((s) => s.name), ...EDITS.filter((e) => present(e.file)).map((e) => e.name)];
}

function swapFor(swaps, specifier, importer) {
  if (!importer) return undefined;
  return swaps.find((s) => s.specifier === specifier && s.importer.test(importer));
}

/**
 * The patch as an esbuild plugin (the bundle, the benchmarks). `frameWriter: false` leaves Ink's
 * own log-update and write-synchronized in place (the benchmark's "before").
 */
export function inkPatchEsbuild({ frameWriter = true } = {}) {
  const swaps = activeSwaps(frameWriter);
  return {
    name: "ink-patch",
    setup(build) {
      build.initialOptions.metafile = true; // onEnd reads which files the build contains
      const applied = new Set();
      const problems = [];
      const specifiers = [...new Set(swaps.map((s) => s.specifier))];
      const escaped = specifiers.map((s) => s.replace(/[.+/]/g, "\\$&")).join("|");
      build.onResolve({ filter: new RegExp(`^(?:${escaped})$`) }, (args) => {
        const swap = swapFor(swaps, args.path, args.importer);
        if (swap) {
          applied.add(swap.name);
          return { path: here(swap.to) };
        }
        if (args.path === "string-width") return { path: here(STRING_WIDTH) };
        return undefined;
      });
      for (const edit of EDITS) {
        build.onLoad({ filter: edit.file }, (args) => {
          const result = applyEdit(edit, readFileSync(args.path, "utf8"));
          if (result.problem) {
            problems.push(result.problem);
            return undefined;
          }
          applied.add(edit.name);
          return { contents: result.code, loader: "js" };
        });
      }
      build.onEnd((result) => {
        if (result.errors.length > 0 || !result.metafile) return;
        const files = Object.keys(result.metafile.inputs);
        // A build that contains none of the patched packages has nothing to check.
        if (!files.some((f) => Object.keys(PATCHED_FOR).some((n) => f.includes(`node_modules/${n}/`)))) return;
        const all = [...versionMismatches(), ...problems];
        const missing = expectedChanges(files, frameWriter).filter((name) => !applied.has(name));
        if (missing.length > 0) all.push(`${missing.join(", ")} not applied`);
        if (all.length > 0) return { errors: all.map((p) => ({ text: `ink patch: ${p}; review scripts/ink-patch.mjs against the installed packages` })) };
      });
    },
  };
}

/**
 * The patch as a vite plugin (vitest.config.ts): the same swaps and edits, for the packages the
 * tests load through vite (THROUGH_THE_PATCH, which the config inlines). A version the patch was
 * not written for, or an edit that no longer applies, fails the run.
 */
export function inkPatchVite() {
  const swaps = activeSwaps(true);
  const applied = new Set();
  /** Every file seen importing or being transformed: what the run has loaded, for expectedChanges. */
  const seen = new Set();
  return {
    name: "ink-patch",
    enforce: "pre",
    configResolved() {
      const problems = versionMismatches();
      if (problems.length > 0) throw new Error(`ink patch: ${problems.join("; ")}`);
    },
    resolveId(source, importer) {
      // A test reads which changes this run has applied so far (test/unit/ink-frame-patch.test.ts).
      if (source === APPLIED_MODULE) return `\0${APPLIED_MODULE}`;
      const path = importer?.split("?")[0];
      if (path) seen.add(path);
      const swap = swapFor(swaps, source, path);
      if (swap) {
        applied.add(swap.name);
        return here(swap.to);
      }
      // Inside the packages only: a test may compare our width function with the package's.
      if (source === "string-width" && path && /[\\/]node_modules[\\/]/.test(path)) return here(STRING_WIDTH);
      return undefined;
    },
    load(id) {
      if (id === `\0${APPLIED_MODULE}`) return `export default ${JSON.stringify({ applied: [...applied], expected: expectedChanges([...seen]) })};`;
      // Ink's build points its source maps at sources it does not ship: vite would warn of each.
      const path = id.split("?")[0];
      if (/\.js$/.test(path) && THROUGH_THE_PATCH.some((name) => path.includes(`${sep}node_modules${sep}${name.split("/").join(sep)}${sep}`))) {
        return { code: readFileSync(path, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n"), map: null };
      }
      return undefined;
    },
    transform(code, id) {
      const path = id.split("?")[0];
      seen.add(path);
      const edit = EDITS.find((e) => e.file.test(path));
      if (!edit) return undefined;
      const result = applyEdit(edit, code);
      if (result.problem) throw new Error(`ink patch: ${result.problem}`);
      applied.add(edit.name);
      return { code: result.code, map: null };
    },
  };
}

/** The module through which a test run learns the changes applied (vite only). */
export const APPLIED_MODULE = "virtual:ink-patch-applied";
