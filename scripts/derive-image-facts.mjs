#!/usr/bin/env node
// Derives the facts about image previews and thumbnails that the tests check the reference server
// against, from the service's public API changelog, into test/fixtures/reference/image-previews.json:
// for each name (the register's `server_thumbnail_formats`, the preview <img>'s `data-*`
// attributes, the loading placeholder's class) the feature levels whose notes mention it. Only
// names and numbers are kept, no prose. (The shape of `server_thumbnail_formats` itself is in
// api-description.json, derived by derive-reference.mjs.)
//
// Usage: node scripts/derive-image-facts.mjs [PATH/TO/api-changelog.md]
// Without a path it looks for the reference beside the repository (the team's shared folder);
// the derived fixture is committed, so tests never need it.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const source = process.argv[2] ?? join(root, "..", "shared", "reference", "api-changelog.md");
const outFile = join(root, "test", "fixtures", "reference", "image-previews.json");
const NAMES = ["server_thumbnail_formats", "data-original-dimensions", "data-original-content-type", "data-transcoded-image", "image-loading-placeholder"];

if (!existsSync(source)) {
  console.error(`derive-image-facts: ${source} not found; pass the path of api-changelog.md`);
  process.exit(2);
}
const text = readFileSync(source, "utf8");
const levels = Object.fromEntries(NAMES.map((n) => [n, []]));
let level;
for (const line of text.split("\n")) {
  const heading = /^\*\*Feature level (\d+)\*\*/.exec(line.trim());
  if (heading) {
    level = Number(heading[1]);
    continue;
  }
  if (/^## /.test(line)) level = undefined;
  if (level === undefined) continue;
  for (const n of NAMES) if (line.includes(n) && !levels[n].includes(level)) levels[n].push(level);
}
for (const n of NAMES) levels[n].sort((a, b) => a - b);
const derived = { source: { file: "api_docs/changelog.md of the zulip/zulip repository", sha256: createHash("sha256").update(text).digest("hex") }, featureLevels: levels };
writeFileSync(outFile, JSON.stringify(derived, null, 2) + "\n");
console.log(`derive-image-facts: wrote ${outFile}`);
