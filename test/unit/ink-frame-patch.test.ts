/**
 * The bundle patches Ink (scripts/ink-frame-plugin.mjs): the patch was written for exact
 * versions of Ink and of the packages whose internals it uses. Another version installed must
 * fail here and in the build, not silently draw wrong frames.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { build } from "esbuild";
import { PATCHED_FOR, inkFramePlugin, installedVersion, versionMismatches } from "../../scripts/ink-frame-plugin.mjs";

describe("the Ink patch", () => {
  it("was written for the versions installed, which package.json pins exactly", () => {
    expect(versionMismatches()).toEqual([]);
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { devDependencies: Record<string, string> };
    for (const [name, version] of Object.entries(PATCHED_FOR)) {
      expect(installedVersion(name), name).toBe(version);
      expect(pkg.devDependencies[name], name).toBe(version);
    }
  });

  it("swaps Ink's frame buffer, log-update and synchronized output in a bundle", async () => {
    const result = await build({
      stdin: { contents: 'import { render } from "ink"; export { render };', resolveDir: process.cwd(), loader: "ts" },
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      metafile: true,
      logLevel: "silent",
      plugins: [inkFramePlugin],
      alias: { "react-devtools-core": "./scripts/devtools-stub.mjs" },
    });
    const inputs = Object.keys(result.metafile.inputs);
    for (const file of ["output.ts", "widest-line.ts", "log-update.ts", "write-synchronized.ts", "frame-writer.ts"]) {
      expect(inputs, file).toContain(`src/ui/ink-frame/${file}`);
    }
    expect(inputs).not.toContain("node_modules/ink/build/log-update.js");
    expect(inputs).not.toContain("node_modules/ink/build/write-synchronized.js");
    // The tokenizers split text with our grapheme splitter; the only ICU segmenter left is its own, made lazily.
    expect(inputs).toContain("src/render/graphemes.ts");
    const code = result.outputFiles[0]!.text;
    expect(code.match(/new Intl\.Segmenter\(/g)).toHaveLength(1);
    expect(code).toMatch(/real \?\?= new Intl\.Segmenter\(/);
    // Nothing awaits at the top level any more (the bundle is a script).
    expect(code).not.toMatch(/^\s*(?:const \w+ = )?await /m);
  }, 60_000);
});
