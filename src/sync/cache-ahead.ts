/**
 * Where an account's cache file is, and its bytes read ahead. A start from the cache reads and
 * decompresses the file before the rest of the client's code loads: the start part
 * (scripts/start-part.mjs) does it once the register is on the wire, so the bytes are there when
 * the code that builds a store from them asks (cache-file.ts, loadCache). Small on purpose: it is
 * part of what every start loads first.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { accountStem, type AccountRef } from "./persist.js";

/** `$XDG_CACHE_HOME/termchat`, else `~/.cache/termchat`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME && env.XDG_CACHE_HOME.startsWith("/") ? env.XDG_CACHE_HOME : join(homedir(), ".cache");
  return join(base, "termchat");
}

export function cachePath(dir: string, account: AccountRef): string {
  return join(dir, `cache-${accountStem(account)}.json.gz`);
}

/** Bounds on a cache file (a few hundred KB, a few MB decompressed, on a big organization): past them it is damaged. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;
const MAX_TEXT_BYTES = 64 * 1024 * 1024;

/** A cache file's contents: decompressed (and its size on disk), or why not (it could not be read, or is not gzip). */
export type CacheBytes = { kind: "bytes"; text: Buffer; size: number } | { kind: "unreadable"; error: NodeJS.ErrnoException } | { kind: "damaged" };

/**
 * Reads and decompresses the file at `path`, at once: a few milliseconds for a few hundred KB.
 * On the thread pool the read takes several turns of the event loop, and the decompression's
 * result one more; the code loading at start gives none, and the store waited for them.
 */
export function readCacheBytes(path: string): CacheBytes {
  let buf: Buffer;
  try {
    if (statSync(path).size > MAX_FILE_BYTES) return { kind: "damaged" };
    buf = readFileSync(path);
  } catch (err) {
    return { kind: "unreadable", error: err as NodeJS.ErrnoException };
  }
  try {
    return { kind: "bytes", text: gunzipSync(buf, { maxOutputLength: MAX_TEXT_BYTES }), size: buf.length };
  } catch {
    return { kind: "damaged" };
  }
}

/** Reads done ahead, by path: each taken once. */
const ahead = new Map<string, CacheBytes>();

/** Reads the file at `path` now, for a `takeReadAhead` to come, while the main thread would otherwise be compiling. */
export function readAhead(path: string): void {
  if (!ahead.has(path)) ahead.set(path, readCacheBytes(path));
}

/** The read done ahead for `path` (and forgets it), or undefined when none was. */
export function takeReadAhead(path: string): CacheBytes | undefined {
  const read = ahead.get(path);
  ahead.delete(path);
  return read;
}
