// Runs the bundle (one CommonJS script) with V8's code cache: the functions V8 compiled in an
// earlier run are read back instead of compiled again, and no module has to be resolved. Works
// the same on every Node.js from 20 on (Node 20 has no compile cache for ES modules).
//
// The cache is one file per bundle build, Node.js version, architecture and kind of run (the
// client, or a subcommand such as `send`), in a private directory (0700; files 0600, written to
// a temporary name and renamed). V8 checks that a cache matches the script, its own version and
// its flags; a cache it rejects, or a file that cannot be read, only makes the start slower and
// is written again. The program says when its compiled code is worth keeping (the client once
// its first frame is drawn and the start's functions compiled; a subcommand when it succeeded):
// the cache is written then, once, if it was missing or refused.
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { Script } from "node:vm";

const SUFFIX = ".v8cache";

/**
 * The cache file's name: it changes whenever the compiled code could, so a stale file is never
 * even offered to V8 (which would reject it anyway).
 * @param {string} bundle the bundle's path
 * @param {string} kind what this run does ("client", or the subcommand's name)
 * @param {readonly string[]} flags the V8 flags the launcher set
 */
export function codeCacheName(bundle, kind, flags) {
  const { size, mtimeMs } = statSync(bundle);
  const flagSum = [...flags.join(" ")].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7).toString(36);
  const prefix = `${basename(bundle)}.${kind.replace(/[^a-z0-9]/gi, "_").slice(0, 32)}`;
  return { prefix, name: `${prefix}.${process.version}-${process.arch}-${size}-${Math.trunc(mtimeMs)}-${flagSum}${SUFFIX}` };
}

/**
 * Runs `bundle` as a CommonJS module. With `cacheDir`, uses and keeps V8's code cache there.
 * @param {string} bundle absolute path of the script
 * @param {{ cacheDir?: string, kind?: string, flags?: readonly string[] }} [options]
 * @returns {{ exports: Record<string, any>, cache: "none" | "used" | "missing", keepCompiledCode: () => void }}
 *   the bundle's exports; whether V8 read the compiled code from the cache; and what writes the
 *   cache (once, if it was missing or refused; nothing otherwise)
 */
export function runBundle(bundle, options = {}) {
  const { cacheDir, kind = "client", flags = [] } = options;
  // The build writes the script in ASCII: read as Latin-1, it needs no decoding.
  const source = readFileSync(bundle, "latin1");
  const cacheName = cacheDir ? codeCacheName(bundle, kind, flags) : undefined;
  const cachePath = cacheDir && cacheName ? join(cacheDir, cacheName.name) : undefined;
  let cachedData;
  if (cachePath) {
    try {
      cachedData = readFileSync(cachePath);
    } catch {
      // no cache yet, or unreadable: compiled from source, and the cache written later
    }
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    cachedData,
  });
  const reuse = cachedData !== undefined && !script.cachedDataRejected;
  // For the start trace (TERMCHAT_TRACE_STARTUP): whether this start read its compiled code.
  if (cachePath) performance.mark(reuse ? "termchat:code-cache-used" : "termchat:code-cache-missed");
  const cache = !cachePath ? "none" : reuse ? "used" : "missing";
  let kept = reuse || !cachePath;
  const keepCompiledCode = () => {
    if (kept) return;
    kept = true;
    writeCache(cachePath, cacheName.prefix, script.createCachedData());
  };
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return { exports: module.exports, cache, keepCompiledCode };
}

/** Writes the cache privately and atomically, and removes this kind's caches of other builds. */
function writeCache(path, prefix, data) {
  const dir = dirname(path);
  const name = basename(path);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, path);
    for (const other of readdirSync(dir)) {
      if (other !== name && other.startsWith(`${prefix}.v`) && other.endsWith(SUFFIX)) unlinkSync(join(dir, other));
    }
  } catch {
    // a full disk or a read-only home: the next start compiles again, nothing else changes
  }
}
