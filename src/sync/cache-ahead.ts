/**
 * Where an account's cache file is, and its bytes read ahead. A start from the cache reads the
 * file while the rest of the client's code loads: the start part (scripts/start-part.mjs) names
 * the file once the register is on the wire, and the read and the decompression run on Node's
 * thread pool, so the bytes are in by the time the code that builds a store from them asks
 * (cache-file.ts, loadCache). Small on purpose: it is part of what every start loads first.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { accountStem, type AccountRef } from "./persist.js";

const gunzipAsync = promisify(gunzip);

/** `$XDG_CACHE_HOME/termchat`, else `~/.cache/termchat`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "termchat");
}

export function cachePath(dir: string, account: AccountRef): string {
  return join(dir, `cache-${accountStem(account)}.json.gz`);
}

/** A cache file's contents: decompressed (and its size on disk), or why not (it could not be read, or is not gzip). */
export type CacheBytes = { kind: "bytes"; text: Buffer; size: number } | { kind: "unreadable"; error: NodeJS.ErrnoException } | { kind: "not-gzip" };

/** Reads and decompresses the file at `path`; never rejects. */
export async function readCacheBytes(path: string): Promise<CacheBytes> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (err) {
    return { kind: "unreadable", error: err as NodeJS.ErrnoException };
  }
  return decompressed(buf);
}

async function decompressed(buf: Buffer): Promise<CacheBytes> {
  try {
    return { kind: "bytes", text: await gunzipAsync(buf), size: buf.length };
  } catch {
    return { kind: "not-gzip" };
  }
}

/** Reads begun ahead, by path: each taken once. */
const ahead = new Map<string, Promise<CacheBytes>>();

/**
 * Reads the file at `path` and begins its decompression, for a `takeReadAhead` to come. The read
 * is done at once (a few hundred KB from the page cache: well under a millisecond): an
 * asynchronous one takes several turns of the event loop, which the code loading meanwhile
 * does not give, and would be little further when it was asked for.
 */
export function readAhead(path: string): void {
  if (ahead.has(path)) return;
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    ahead.set(path, Promise.resolve({ kind: "unreadable", error: err as NodeJS.ErrnoException }));
    return;
  }
  ahead.set(path, decompressed(buf));
}

/** The read begun ahead for `path` (and forgets it), or undefined when none was. */
export function takeReadAhead(path: string): Promise<CacheBytes> | undefined {
  const read = ahead.get(path);
  ahead.delete(path);
  return read;
}
