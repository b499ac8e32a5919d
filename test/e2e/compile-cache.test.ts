/**
 * The launcher keeps Node's compiled code of the bundle between runs, where
 * Node offers it (22.1 and later): in termchat's cache directory, private to
 * the user, and not with --no-cache. Node 20 has no such cache: nothing is
 * written there.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { BIN, ROOT, ensureBuilt } from "./app.js";
import { nodeBinaries } from "./package.js";

it("fills a private compile cache under the cache directory on Node ≥ 22.1, and none on Node 20 or with --no-cache", async () => {
  ensureBuilt();
  const nodes = nodeBinaries(ROOT);
  expect(nodes.length).toBeGreaterThan(0);
  for (const node of nodes) {
    const dir = await mkdtemp(join(tmpdir(), "termchat-compile-cache-"));
    try {
      const run = (...args: string[]) =>
        execFileSync(node.path, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", HOME: dir, XDG_CACHE_HOME: join(dir, "cache") }, encoding: "utf8", timeout: 30_000 });
      const compiled = join(dir, "cache", "termchat", "compiled");
      expect(run("--version", "--no-cache")).toMatch(/^termchat /);
      expect(existsSync(compiled)).toBe(false);
      expect(run("--version")).toMatch(/^termchat /);
      const [major, minor] = node.version.slice(1).split(".").map(Number) as [number, number];
      if (major > 22 || (major === 22 && minor >= 1)) {
        expect(statSync(compiled).mode & 0o777).toBe(0o700);
        expect(statSync(join(dir, "cache", "termchat")).mode & 0o777).toBe(0o700);
        expect(readdirSync(compiled).length).toBeGreaterThan(0);
      } else {
        expect(existsSync(compiled)).toBe(false);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}, 120_000);
