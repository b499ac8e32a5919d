// A vendored patch of Ink, applied at bundle time (esbuild plugin). Inside Ink, use termchat's
// modules (src/ui/ink-frame/) in place of four of Ink's own:
// - `Output` and `widest-line`: the same bytes per frame, but the parsing and measuring of
//   unchanged lines is remembered across frames instead of redone every frame;
// - `log-update`: the frame writer, which sends only what changed since the frame on screen;
// - `write-synchronized`: synchronized output only where the terminal said it has it;
// - cli-truncate, as Ink's text wrapping imports it: the ellipsis of the glyphs in use ("..."
//   on a terminal without UTF-8).
// - `string-width`, wherever it is imported (Ink, wrap-ansi, cli-truncate, cli-table3): one
//   width function for the whole bundle, src/render/string-width.ts, with string-width 8.3's
//   results and none of its cost at start;
// - the grapheme segmenters that @alcalzone/ansi-tokenize and slice-ansi make when they load:
//   both use src/render/graphemes.ts instead, which splits plain text by code points and makes
//   ICU's segmenter (~10 ms at start) only for text that needs it;
// - `reconciler`: its two top-level awaits, which run only with DEV=true (React devtools, which
//   the bundle never carries), go, so that the bundle can be a script V8 caches between runs.
// The patch was written against the exact versions in PATCHED_FOR (pinned in package.json):
// the build fails if another version is installed, or if Ink's layout changed so that a swap
// no longer applies. test/unit/ink-frame-patch.test.ts checks the same.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The packages whose internals the patch replaces or imports, at the versions it was written for. */
export const PATCHED_FOR = {
  ink: "6.8.0",
  "@alcalzone/ansi-tokenize": "0.2.5",
  "slice-ansi": "8.0.0",
  "string-width": "8.3.0",
  "cli-truncate": "5.2.0",
};

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The installed version of a package, as the project's own imports find it. */
export function installedVersion(name) {
  try {
    return JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return undefined;
  }
}

/** One line per package whose installed version is not the one the patch was written for. */
export function versionMismatches() {
  return Object.entries(PATCHED_FOR)
    .map(([name, wanted]) => [name, wanted, installedVersion(name)])
    .filter(([, wanted, found]) => found !== wanted)
    .map(([name, wanted, found]) => `${name} ${found ?? "(not found)"} is installed, the patch was written for ${wanted}`);
}

const inkBuild = /[\\/]ink[\\/]build[\\/]/;
const swaps = [
  { name: "Ink's Output", filter: /^\.\/output\.js$/, importer: /[\\/]ink[\\/]build[\\/]renderer\.js$/, to: "../src/ui/ink-frame/output.ts" },
  { name: "Ink's widest-line", filter: /^widest-line$/, importer: /[\\/]ink[\\/]build[\\/][\w-]+\.js$/, to: "../src/ui/ink-frame/widest-line.ts" },
  { name: "Ink's log-update", filter: /^\.\/log-update\.js$/, importer: /[\\/]ink[\\/]build[\\/]ink\.js$/, to: "../src/ui/ink-frame/log-update.ts" },
  { name: "Ink's write-synchronized", filter: /^\.\/write-synchronized\.js$/, importer: /[\\/]ink[\\/]build[\\/]ink\.js$/, to: "../src/ui/ink-frame/write-synchronized.ts" },
];
/** Ink's truncation, swapped in every build (its ellipsis follows the glyphs). */
export const TRUNCATE_SWAP = { name: "Ink's cli-truncate", filter: /^cli-truncate$/, importer: /[\\/]ink[\\/]build[\\/]wrap-text\.js$/, to: "../src/ui/ink-frame/truncate.ts" };

/** The tokenizers' own segmenters, each replaced by ours: [name of the patch, file, the text that makes it]. */
const SEGMENTER_EDITS = [
  ["ansi-tokenize's segmenter", /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/, 'new Intl.Segmenter(undefined, { granularity: "grapheme" })'],
  ["slice-ansi's segmenter", /[\\/]slice-ansi[\\/]tokenize-ansi\.js$/, "new Intl.Segmenter(undefined, {granularity: 'grapheme'})"],
];
const GRAPHEMES = fileURLToPath(new URL("../src/render/graphemes.ts", import.meta.url));
const STRING_WIDTH = fileURLToPath(new URL("../src/render/string-width.ts", import.meta.url));

/** Ink's reconciler without its DEV-only top-level awaits: [text in Ink, what replaces it]. */
const RECONCILER_EDITS = [
  ["await import('./devtools.js');", "void 0; // React devtools are not in the bundle"],
  ["? await loadPackageJson()", "? { name: undefined, version: undefined }"],
];

/**
 * The patch as an esbuild plugin. `frameWriter: false` leaves Ink's own log-update and
 * write-synchronized in place (the benchmark's "before").
 */
export function inkFrame({ frameWriter = true } = {}) {
  const active = [...(frameWriter ? swaps : swaps.slice(0, 2)), TRUNCATE_SWAP];
  return {
  name: "ink-frame",
  setup(build) {
    const applied = new Set();
    // Only a build that contains Ink's renderer needs the swaps (a benchmark of the model does not).
    let hasInk = false;
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]renderer\.js$/ }, () => {
      hasInk = true;
      return undefined;
    });
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      let source = readFileSync(args.path, "utf8");
      for (const [from, to] of RECONCILER_EDITS) {
        if (!source.includes(from)) return undefined; // reported at the end
        source = source.replace(from, to);
      }
      applied.add("Ink's reconciler");
      return { contents: source, loader: "js" };
    });
    build.onResolve({ filter: /^string-width$/ }, () => ({ path: STRING_WIDTH }));
    for (const [name, file, making] of SEGMENTER_EDITS) {
      build.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, "utf8");
        if (!source.includes(making)) return undefined; // reported at the end
        applied.add(name);
        return { contents: `import { graphemeSegmenter as __termchatGraphemes } from ${JSON.stringify(GRAPHEMES)};\n${source.replace(making, "__termchatGraphemes")}`, loader: "js" };
      });
    }
    for (const swap of active) {
      build.onResolve({ filter: swap.filter }, (args) => {
        if (!swap.importer.test(args.importer) || !inkBuild.test(args.importer)) return undefined;
        applied.add(swap.name);
        return { path: fileURLToPath(new URL(swap.to, import.meta.url)) };
      });
    }
    build.onEnd((result) => {
      if (result.errors.length > 0 || !hasInk) return;
      const problems = versionMismatches();
      const missing = [...active.map((s) => s.name), "Ink's reconciler", ...SEGMENTER_EDITS.map(([name]) => name)].filter((name) => !applied.has(name));
      if (missing.length > 0) problems.push(`${missing.join(", ")} not found where expected`);
      if (problems.length > 0) {
        return {
          errors: problems.map((p) => ({
            text: `ink-frame patch: ${p}; review src/ui/ink-frame against the installed packages, then update PATCHED_FOR in scripts/ink-frame-plugin.mjs`,
          })),
        };
      }
    });
  },
  };
}

export const inkFramePlugin = inkFrame();
