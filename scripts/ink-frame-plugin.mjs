// esbuild plugin: inside Ink, use termchat's frame buffer (src/ui/ink-frame/) in place of Ink's
// own `Output` and `widest-line`. Same bytes on screen, but the parsing and measuring of
// unchanged lines is remembered across frames instead of redone every frame. The build
// fails if Ink's layout changed so that a swap no longer applies (Ink is pinned in package.json).
import { fileURLToPath } from "node:url";

const swaps = [
  { name: "Ink's Output", filter: /^\.\/output\.js$/, importer: /[\\/]ink[\\/]build[\\/]renderer\.js$/, to: "../src/ui/ink-frame/output.ts" },
  { name: "Ink's widest-line", filter: /^widest-line$/, importer: /[\\/]ink[\\/]build[\\/][\w-]+\.js$/, to: "../src/ui/ink-frame/widest-line.ts" },
];

export const inkFramePlugin = {
  name: "ink-frame",
  setup(build) {
    const applied = new Set();
    // Only a build that contains Ink's renderer needs the swaps (a benchmark of the model does not).
    let hasInk = false;
    build.onLoad({ filter: /[\\/]ink[\\/]build[\\/]renderer\.js$/ }, () => {
      hasInk = true;
      return undefined;
    });
    for (const swap of swaps) {
      build.onResolve({ filter: swap.filter }, (args) => {
        if (!swap.importer.test(args.importer)) return undefined;
        applied.add(swap.name);
        return { path: fileURLToPath(new URL(swap.to, import.meta.url)) };
      });
    }
    build.onEnd((result) => {
      if (result.errors.length > 0 || !hasInk) return;
      const missing = swaps.filter((s) => !applied.has(s.name)).map((s) => s.name);
      if (missing.length > 0) {
        return { errors: [{ text: `ink-frame: ${missing.join(", ")} not found where expected; check src/ui/ink-frame against the installed Ink` }] };
      }
    });
  },
};
