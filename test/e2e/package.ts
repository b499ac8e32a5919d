/**
 * The published package as a user gets it: `npm pack` of the repository, installed from the
 * tarball into an empty prefix with an empty npm cache and no network, and the Node.js
 * binaries to run it with. Shared by the package smoke test and `npm run bench`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

export interface Packed {
  tarball: string;
  /** Size of the .tgz in bytes. */
  bytes: number;
  unpackedBytes: number;
  /** Paths inside the package, as npm lists them. */
  files: string[];
}

/**
 * An environment for npm that reads no user or project settings of the caller and can reach
 * nothing but a closed port on 127.0.0.1, should anything try the registry.
 */
export function npmEnv(home: string): Record<string, string> {
  mkdirSync(home, { recursive: true });
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    npm_config_userconfig: join(home, ".npmrc"),
    npm_config_registry: "http://127.0.0.1:9/",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
}

/** `npm pack` of `root` into `dest`, without the build (the caller has built `dist/`). */
export function packInto(root: string, dest: string, home: string): Packed {
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dest], {
    cwd: root,
    env: npmEnv(home),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  const [info] = JSON.parse(out) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
  if (!info) throw new Error(`npm pack printed no package: ${out}`);
  return { tarball: join(dest, info.filename), bytes: info.size, unpackedBytes: info.unpackedSize, files: info.files.map((f) => f.path) };
}

/**
 * Installs the tarball globally into `prefix` with the empty cache `cache`, offline.
 * Returns the path of the installed `termchat` command.
 */
export function installOffline(tarball: string, prefix: string, cache: string, home: string): string {
  execFileSync("npm", ["install", "--global", "--offline", "--prefix", prefix, "--cache", cache, tarball], {
    env: npmEnv(home),
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  return join(prefix, "bin", "termchat");
}

export interface NodeBinary {
  path: string;
  version: string;
}

/**
 * The Node.js binaries to run the package with: the one running this process, those that
 * `node scripts/fetch-test-nodes.mjs` unpacked under `.tmp/nodes/`, and any listed in
 * TERMCHAT_TEST_NODES (paths separated by ':'); one per version.
 */
export function nodeBinaries(root: string): NodeBinary[] {
  const candidates = [process.execPath];
  const fetched = join(root, ".tmp", "nodes");
  if (existsSync(fetched)) {
    for (const d of readdirSync(fetched).sort()) candidates.push(join(fetched, d, "bin", "node"));
  }
  for (const p of (process.env.TERMCHAT_TEST_NODES ?? "").split(":")) if (p) candidates.push(p);
  const byVersion = new Map<string, NodeBinary>();
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    const version = execFileSync(path, ["--version"], { encoding: "utf8", timeout: 10_000 }).trim();
    if (!byVersion.has(version)) byVersion.set(version, { path, version });
  }
  return [...byVersion.values()];
}
