/**
 * The licence notice the build writes next to the bundle: one section per package (name and
 * version) with code in the bundle, its licence field and the text of its licence file(s).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { thirdPartyLicenses } from "../../scripts/third-party-licenses.mjs";

const root = mkdtempSync(join(tmpdir(), "termchat-licences-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function pkg(dir: string, json: Record<string, unknown>, files: Record<string, string> = {}) {
  mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, dir, "package.json"), JSON.stringify(json));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, dir, name), text);
}

pkg("node_modules/alpha", { name: "alpha", version: "1.2.3", license: "MIT" }, { LICENSE: "alpha licence text\n" });
pkg("node_modules/@scope/beta", { name: "@scope/beta", version: "0.1.0", license: "ISC" }, { "LICENSE-MIT.txt": "beta licence text" });
pkg("node_modules/alpha/node_modules/gamma", { name: "gamma", version: "2.0.0", license: "MIT", author: { name: "Gamma Author" } });
pkg("node_modules/delta", { name: "delta", version: "9.9.9", license: "GPL-3.0" }, { LICENSE: "delta licence text" });

const metafile = {
  outputs: {
    "dist/termchat.js": {
      inputs: {
        "src/cli/main.ts": { bytesInOutput: 100 },
        "node_modules/alpha/index.js": { bytesInOutput: 10 },
        "node_modules/alpha/lib/more.js": { bytesInOutput: 5 },
        "node_modules/alpha/node_modules/gamma/index.js": { bytesInOutput: 3 },
        "node_modules/delta/index.js": { bytesInOutput: 0 }, // read, but nothing of it kept
      },
    },
    "dist/chunks/ui.js": { inputs: { "node_modules/@scope/beta/dist/index.js": { bytesInOutput: 7 } } },
  },
};

it("lists each bundled package once, with its licence field and licence text, and nothing that was tree-shaken away", () => {
  const text = thirdPartyLicenses(metafile, root);
  const listed = text.split("\n").filter((l) => /^ {2}\S+@\S+ \(/.test(l));
  expect(listed).toEqual(["  @scope/beta@0.1.0 (ISC)", "  alpha@1.2.3 (MIT)", "  gamma@2.0.0 (MIT)"]);
  expect(text).toContain("alpha@1.2.3\nLicense: MIT\n");
  expect(text).toContain("alpha licence text");
  expect(text).toContain("beta licence text");
  expect(text).not.toContain("delta");
});

it("says so when a package publishes no licence file, naming its author", () => {
  const text = thirdPartyLicenses(metafile, root);
  expect(text).toMatch(/gamma@2\.0\.0\nLicense: MIT\n=+\n\nThe published package contains no licence file\.[^\n]*\nMIT; author: Gamma Author;/);
});
