/**
 * The cache file of one account: `$XDG_CACHE_HOME/termchat` (default
 * `~/.cache/termchat`), mode 0700, one gzip'd JSON file per account (site and
 * user), mode 0600, replaced atomically (temp file, fsync, rename). A file that
 * cannot be used (truncated, damaged, another format or account) is reported
 * and left for the next write to replace; it never stops the start.
 *
 * The file's first line names the build that wrote it and carries a digest of the rest (the
 * JSON). Before a write, the data goes through the checks a read from another build makes
 * (cache-snapshot.ts, checkCacheData), in the shape those checks give; so a read by the same
 * build of a file whose digest still matches skips them, and draws that much sooner. Any other
 * file (another build's, one changed since, one with no such line) is checked in full.
 */
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { gzip, constants as zlibConstants } from "node:zlib";
import { removeStaleTemps, type AccountRef } from "./persist.js";
import { cachePath, readCacheBytes, takeReadAhead } from "./cache-ahead.js";
import { CacheRejected, checkCacheData, storeFromCache, trustedCacheData, type CacheData } from "./cache-snapshot.js";
import type { Store } from "../model/store.js";

export { cachePath, defaultCacheDir } from "./cache-ahead.js";

const gzipAsync = promisify(gzip);

declare const __TERMCHAT_BUILD__: string | undefined;
/**
 * The bundle's build (the id on its first line, set by scripts/build.mjs); undefined when run
 * from the sources, where every cache is checked in full.
 */
export const BUILD_ID: string | undefined = typeof __TERMCHAT_BUILD__ === "string" ? __TERMCHAT_BUILD__ : undefined;

const HEAD = "termchat-cache";

/** What writes and reads may be told: the build doing it (tests name one; default BUILD_ID). */
export interface CacheBuild {
  build?: string;
}

const digestOf = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The file's text: its first line (the build and the digest of the JSON), then the JSON. */
function framed(json: string, build: string | undefined): Buffer {
  const body = Buffer.from(json);
  return Buffer.concat([Buffer.from(`${HEAD} ${build ?? "-"} ${digestOf(body)}\n`), body]);
}

/** The JSON of a file's text, and whether this build wrote it and it is unchanged since. */
function unframed(text: Buffer, build: string | undefined): { json: Buffer; trusted: boolean } {
  if (text.subarray(0, HEAD.length + 1).toString("latin1") !== `${HEAD} `) return { json: text, trusted: false };
  const end = text.indexOf(10);
  if (end < 0) throw new CacheRejected("its contents are damaged");
  const [, writer, digest] = text.subarray(0, end).toString("latin1").split(" ");
  const json = text.subarray(end + 1);
  return { json, trusted: build !== undefined && writer === build && digest === digestOf(json) };
}

export type CacheLoad =
  | { kind: "none" }
  | { kind: "loaded"; store: Store; data: CacheData; bytes: number }
  | { kind: "rejected"; reason: string };

/** Reads the account's cache and builds a store from it; never throws. */
export async function loadCache(dir: string, account: AccountRef, o: CacheBuild = {}): Promise<CacheLoad> {
  const path = cachePath(dir, account);
  // Read ahead when the start could (cache-ahead.ts); else now.
  const read = takeReadAhead(path) ?? readCacheBytes(path);
  performance.mark("termchat:cache-read");
  // Temp files a killed write left: removed in the background.
  void removeStaleTemps(path).catch(() => undefined);
  if (read.kind === "unreadable") {
    if (read.error.code === "ENOENT") return { kind: "none" };
    return { kind: "rejected", reason: `could not be read (${read.error.code ?? "error"})` };
  }
  try {
    if (read.kind === "damaged") throw new CacheRejected("it is truncated or damaged");
    const text = read.text;
    const { json, trusted } = unframed(text, o.build ?? BUILD_ID);
    let raw: unknown;
    try {
      raw = JSON.parse(json.toString("utf8"));
    } catch {
      throw new CacheRejected("its contents are damaged");
    }
    performance.mark("termchat:cache-parsed");
    const data = trusted ? trustedCacheData(raw, account) : checkCacheData(raw, account);
    const store = storeFromCache(data);
    performance.mark("termchat:cache-store");
    return { kind: "loaded", store, data, bytes: read.size };
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

/**
 * Checks the data as a read would (throws CacheRejected when it would not be read), then
 * compresses and writes it in the shape the check gave: all or nothing, private to the user.
 * Returns the size on disk.
 */
export async function writeCache(dir: string, account: AccountRef, data: CacheData, o: CacheBuild = {}): Promise<number> {
  const checked = checkCacheData(data, account);
  const body = await gzipAsync(framed(JSON.stringify(checked), o.build ?? BUILD_ID), { level: zlibConstants.Z_BEST_SPEED });
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
  const own = account ? basename(cachePath(dir, account)) : undefined;
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith("cache-")) continue;
    if (own && !name.startsWith(own)) continue;
    await rm(join(dir, name), { force: true });
    if (!name.endsWith(".tmp")) removed++;
  }
  return removed;
}
