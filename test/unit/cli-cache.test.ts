/** `--no-cache` and `termchat cache clear`: parsing, and what is removed. */
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { UsageError, parseCliArgs } from "../../src/cli/args.js";
import { runCacheCommand } from "../../src/cli/cache-command.js";
import { cachePath, writeCache } from "../../src/sync/cache-file.js";
import { takeSnapshot, type CacheData } from "../../src/sync/cache-snapshot.js";
import { Store } from "../../src/model/store.js";
import { registerResponse } from "../fixtures/example.js";

let root: string;
let saved: string | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "termchat-cli-cache-"));
  saved = process.env.XDG_CACHE_HOME;
  process.env.XDG_CACHE_HOME = join(root, "cache");
});
afterEach(async () => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
  await rm(root, { recursive: true, force: true });
});

const data = (site: string, email: string): CacheData => takeSnapshot(new Store(registerResponse()), { site, email, base: {}, maxMessageId: 0, now: 0 });

it("parses --no-cache, and the cache command with clear", () => {
  expect(parseCliArgs(["--no-cache"])).toMatchObject({ command: "client", noCache: true });
  expect(parseCliArgs([])).toMatchObject({ command: "client", noCache: false });
  expect(parseCliArgs(["cache", "clear"])).toEqual({ command: "cache", action: "clear", account: undefined, config: undefined });
  expect(parseCliArgs(["cache", "clear", "--account", "work"])).toMatchObject({ account: "work" });
  expect(() => parseCliArgs(["cache"])).toThrow(UsageError);
  expect(() => parseCliArgs(["cache", "drop"])).toThrow(/unknown cache action "drop"/);
  expect(() => parseCliArgs(["cache", "clear", "--everything"])).toThrow(UsageError);
});

it("clears every account's cache, or only the one a zuliprc names", async () => {
  const dir = join(root, "cache", "termchat");
  const mine = { site: "https://chat.example.test/", email: "me@example.test" };
  const other = { site: "https://other.example.test/", email: "you@other.example.test" };
  await writeCache(dir, mine, data(mine.site, mine.email));
  await writeCache(dir, other, data(other.site, other.email));
  const rc = join(root, "zuliprc");
  await writeFile(rc, `[api]\nemail=${mine.email}\nkey=${"k".repeat(32)}\nsite=https://chat.example.test\n`, { mode: 0o600 });
  const out: string[] = [];
  await runCacheCommand({ command: "cache", action: "clear", config: rc }, (l) => out.push(l));
  expect(out).toEqual(["Removed the cache of me@example.test."]);
  expect(await readdir(dir)).toEqual([cachePath(dir, other).split("/").pop()]);
  await runCacheCommand({ command: "cache", action: "clear" }, (l) => out.push(l));
  expect(out[1]).toBe(`Removed 1 cache file from ${dir}.`);
  expect(await readdir(dir)).toEqual([]);
});

it("without an account, removes termchat's compiled code too; with one, leaves it", async () => {
  const dir = join(root, "cache", "termchat");
  const compiled = join(dir, "compiled");
  await mkdir(compiled, { recursive: true });
  await writeFile(join(compiled, "termchat.cjs.client.v20.0.0-x64-abc-1.v8cache"), "compiled code");
  const mine = { site: "https://chat.example.test/", email: "me@example.test" };
  await writeCache(dir, mine, data(mine.site, mine.email));
  const rc = join(root, "zuliprc");
  await writeFile(rc, `[api]\nemail=${mine.email}\nkey=${"k".repeat(32)}\nsite=https://chat.example.test\n`, { mode: 0o600 });
  const out: string[] = [];
  await runCacheCommand({ command: "cache", action: "clear", config: rc }, (l) => out.push(l));
  expect(await readdir(compiled)).toHaveLength(1);
  await runCacheCommand({ command: "cache", action: "clear" }, (l) => out.push(l));
  expect(out[1]).toBe(`Removed 0 cache files from ${dir}, and termchat's compiled code.`);
  expect(await readdir(dir)).toEqual([]);
});
