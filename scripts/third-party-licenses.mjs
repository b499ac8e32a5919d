// Writes the licence texts of every package whose code ended up in the bundle, read from
// esbuild's metafile: a package counts when at least one byte of it is in some output file.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const MARK = "node_modules/";
const LICENSE_FILE = /^(licen[cs]e|copying)([-.][\w.-]*)?$/i;

/** The package directories (relative to `cwd`) with code in the bundle. */
export function bundledPackageDirs(metafile, cwd = process.cwd()) {
  const dirs = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (!bytesInOutput) continue;
      const at = input.lastIndexOf(MARK);
      if (at < 0) continue;
      const parts = input.slice(at + MARK.length).split("/");
      const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
      dirs.add(relative(cwd, resolve(cwd, input.slice(0, at + MARK.length) + name)));
    }
  }
  return [...dirs];
}

function licenseOf(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const field = typeof pkg.license === "string" ? pkg.license : (pkg.license?.type ?? "(none given)");
  const files = readdirSync(dir).filter((f) => LICENSE_FILE.test(f)).sort();
  let text = files.map((f) => readFileSync(join(dir, f), "utf8").trim()).join("\n\n");
  if (!text) {
    // A few packages publish no licence file; say so and name who to ask.
    const author = typeof pkg.author === "string" ? pkg.author : (pkg.author?.name ?? "(no author given)");
    const repo = typeof pkg.repository === "string" ? pkg.repository : (pkg.repository?.url ?? "(no repository given)");
    text = `The published package contains no licence file. Its package.json declares the licence\n${field}; author: ${author}; repository: ${repo}.`;
  }
  return { name: pkg.name, version: pkg.version, license: field, text };
}

/**
 * Works compiled into a package's files rather than published as packages of their own: the
 * WebP decoder's WebAssembly is libwebp, under its own licence (the text kept in scripts/licenses).
 */
const EMBEDDED = {
  "@cwasm/webp": [{ name: "libwebp (compiled to WebAssembly in @cwasm/webp's webp.wasm)", version: "", license: "BSD-3-Clause", file: "libwebp.txt" }],
};

function embeddedIn(name) {
  return (EMBEDDED[name] ?? []).map((e) => ({ ...e, text: readFileSync(new URL(`./licenses/${e.file}`, import.meta.url), "utf8").trim() }));
}

const label = (e) => (e.version ? `${e.name}@${e.version}` : e.name);

/** The notice file's text: one section per package name and version, sorted by name. */
export function thirdPartyLicenses(metafile, cwd = process.cwd()) {
  const seen = new Map();
  for (const dir of bundledPackageDirs(metafile, cwd)) {
    const l = licenseOf(resolve(cwd, dir));
    seen.set(`${l.name}@${l.version}`, l);
    for (const e of embeddedIn(l.name)) seen.set(e.name, e);
  }
  const entries = [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
  const head = [
    "termchat bundles code from the following packages into dist/.",
    "Their licences follow, one section per package.",
    "",
    ...entries.map((e) => `  ${label(e)} (${e.license})`),
  ].join("\n");
  const rule = "=".repeat(78);
  const sections = entries.map((e) => `${rule}\n${label(e)}\nLicense: ${e.license}\n${rule}\n\n${e.text}\n`);
  return `${head}\n\n${sections.join("\n")}`;
}
