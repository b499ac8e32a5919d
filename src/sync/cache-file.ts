/**
 * The cache file of one account: `$XDG_CACHE_HOME/termchat` (default
 * `~/.cache/termchat`), mode 0700, one gzip'd JSON file per account (site and
 * user), mode 0600, replaced atomically (temp file, fsync, rename). A file that
 * cannot be used (truncated, damaged, another format or account) is reported
 * and left for the next write to replace; it never stops the start.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzip, gzip, constants as zlibConstants } from "node:zlib";
import { accountStem, removeStaleTemps, type AccountRef } from "./persist.js";
import { CacheRejected, checkCacheData, storeFromCache, type CacheData } from "./cache-snapshot.js";
import type { Store } from "../model/store.js";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** `$XDG_CACHE_HOME/termchat`, else `~/.cache/termchat`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "termchat");
}

export function cachePath(dir: string, account: AccountRef): string {
  return join(dir, `cache-${accountStem(account)}.json.gz`);
}

export type CacheLoad =
  | { kind: "none" }
  | { kind: "loaded"; store: Store; data: CacheData; bytes: number }
  | { kind: "rejected"; reason: string };

/** Reads the account's cache and builds a store from it; never throws. */
export async function loadCache(dir: string, account: AccountRef): Promise<CacheLoad> {
  const path = cachePath(dir, account);
  let buf: Buffer;
  try {
    await removeStaleTemps(path);
    buf = await readFile(path);
    performance.mark("termchat:cache-read");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "none" };
    return { kind: "rejected", reason: `could not be read (${(err as NodeJS.ErrnoException).code ?? "error"})` };
  }
  try {
    let text: string;
    try {
      text = (await gunzipAsync(buf)).toString("utf8");
    } catch {
      throw new CacheRejected("it is truncated or damaged");
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new CacheRejected("its contents are damaged");
    }
    performance.mark("termchat:cache-parsed");
    const data = checkCacheData(raw, account);
    const store = storeFromCache(data);
    performance.mark("termchat:cache-store");
    return { kind: "loaded", store, data, bytes: buf.length };
  } catch (err) {
    return { kind: "rejected", reason: err instanceof CacheRejected ? err.message : "its contents are damaged" };
  }
}

/** The directory, created private (and made private if it was not). */
async function ensureDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const s = await stat(dir);
  if ((s.mode & 0o777) !== 0o700) await chmod(dir, 0o700);
}

/** Compresses and writes the data: all or nothing, private to the user. Returns the size on disk. */
export async function writeCache(dir: string, account: AccountRef, data: CacheData): Promise<number> {
  const body = await gzipAsync(Buffer.from(JSON.stringify(data)), { level: zlibConstants.Z_BEST_SPEED });
  await ensureDir(dir);
  const path = cachePath(dir, account);
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fh = await open(tmp, "w", 0o600);
  try {
    await fh.writeFile(body);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return body.length;
}

/** Removes cache files: one account's, or every one. Returns how many were removed. */
export async function clearCache(dir: string, account?: AccountRef): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const own = account ? `cache-${accountStem(account)}.json.gz` : undefined;
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith("cache-")) continue;
    if (own && !name.startsWith(own)) continue;
    await rm(join(dir, name), { force: true });
    if (!name.endsWith(".tmp")) removed++;
  }
  return removed;
}
