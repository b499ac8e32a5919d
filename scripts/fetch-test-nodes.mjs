// Fetches plain Node.js binaries from the npm registry (node-<platform>-<arch>, which ship the
// binary itself and run no install script) into .tmp/nodes/vMAJOR/bin/node, for the package
// smoke test to run the installed package with each of them. They are about 50 MB to fetch
// and 120 MB on disk each, so they are not devDependencies: run this once when you want the
// smoke test to cover more than the Node.js running the tests.
//   node scripts/fetch-test-nodes.mjs [MAJOR ...]      (default: 20 22 24)
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const majors = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["20", "22", "24"];
const own = process.versions.node.split(".")[0];
const pkg = `node-${process.platform}-${process.arch}`;
const root = join(".tmp", "nodes");
mkdirSync(root, { recursive: true });
for (const major of majors) {
  if (!/^\d+$/.test(major)) {
    console.error(`fetch-test-nodes: not a major version: ${major}`);
    process.exit(2);
  }
  const dir = join(root, `v${major}`);
  if (major === own) {
    console.log(`v${major}: the Node.js running this script, nothing to fetch`);
    continue;
  }
  if (existsSync(join(dir, "bin", "node"))) {
    console.log(`v${major}: already in ${dir}`);
    continue;
  }
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", root, `${pkg}@${major}`], { encoding: "utf8" });
  const tarball = join(root, JSON.parse(out)[0].filename);
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1", "package/bin/node"]);
  rmSync(tarball);
  console.log(`v${major}: ${execFileSync(join(dir, "bin", "node"), ["--version"], { encoding: "utf8" }).trim()} in ${dir}`);
}
