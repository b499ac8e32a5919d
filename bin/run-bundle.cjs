// Runs the bundle with V8's code cache: the functions V8 compiled in an earlier run are read back
// instead of compiled again, and no module has to be resolved. Works the same on every Node.js
// from 20 on (Node 20 has no compile cache for ES modules). The bundle is a script whose value
// is a CommonJS module's function, `(function (exports, require, module, __filename, __dirname)
// {…})`, as the build writes it, so that its text is compiled as it was read (a 2 MB copy otherwise). The
// launcher is CommonJS too: loading it through Node's ES module loader cost ~15 ms at start.
// The build writes it in up to three such parts, one after the other (scripts/start-part.mjs):
// the start part is compiled and run first, the later part only when the start part first asks
// for one of its modules, and the rare part (what a client's start never runs: the reference
// server, the image decoder, the settings' writer) only when first asked for; each part with a
// code cache of its own.
//
// The cache is one file per build of the bundle (the build id on its first line, a hash of its
// contents), Node.js version, architecture and kind of run (the client, or a subcommand such as
// `send`), in a private directory (0700; files 0600, written to a temporary name and renamed);
// the three newest of each kind are kept, so two installed versions used in turn keep theirs.
// V8 also checks that a cache matches its own version and flags; a cache it refuses, or a file
// that cannot be read, only makes the start slower and is written again. The program says when
// its compiled code is worth keeping (the client once its first frame is drawn and the start's
// functions compiled; a subcommand when it succeeded): the cache is written then, once, if it
// was missing or refused.
"use strict";
const { closeSync, fstatSync, mkdirSync, openSync, readSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { basename, dirname, join } = require("node:path");
const { Script } = require("node:vm");

const SUFFIX = ".v8cache";
/** Caches kept per kind of run. */
const KEEP = 3;
/**
 * The first line the build writes: `// termchat build <hex>`, and for a bundle in parts
 * (scripts/start-part.mjs) ` later <offset>`, where the later part's text begins, and
 * ` rare <offset>`, where the rare part's does.
 */
const BUILD_LINE = /^\/\/ termchat build ([0-9a-f]{8,64})(?: later (\d{1,12}))?(?: rare (\d{1,12}))?\n/;

/**
 * A file's bytes, in memory V8 maps itself (a WebAssembly memory) rather than the C allocator's:
 * glibc raises its mmap threshold to the largest mapped block freed, so freeing a 2 MB read
 * buffer would make it keep, for good, every later block below 2 MB (src/api/mapped-buffer.ts
 * says the same of response bodies). The memory is unmapped when collected.
 */
function readMapped(path) {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.from(new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(size / 65536)) }).buffer, 0, size);
    for (let at = 0; at < size; ) {
      const n = readSync(fd, bytes, at, size - at, at);
      if (n === 0) throw new Error(`${path} ended early`);
      at += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/** The script's build id: from its first line, or (a script the build did not write) a hash of it. */
function buildId(source) {
  return BUILD_LINE.exec(source)?.[1] ?? require("node:crypto").createHash("sha256").update(source, "latin1").digest("hex").slice(0, 24);
}

/**
 * The cache file's name, and its prefix (the bundle, the kind of run and the part): the name
 * changes whenever the compiled code could, so a stale file is never offered to V8.
 * @param {string} bundle the bundle's path
 * @param {string} source its contents
 * @param {string} kind what this run does ("client", or the subcommand's name)
 * @param {readonly string[]} flags the V8 flags the launcher set
 * @param {string} [part] the part of a bundle in two ("later"); none for the start part or a bundle in one
 */
function codeCacheName(bundle, source, kind, flags, part) {
  const flagSum = [...flags.join(" ")].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7).toString(36);
  const prefix = `${basename(bundle)}.${kind.replace(/[^a-z0-9]/gi, "_").slice(0, 32)}${part ? `.${part}` : ""}`;
  return { prefix, name: `${prefix}.${process.version}-${process.arch}-${buildId(source)}-${flagSum}${SUFFIX}` };
}

/**
 * Compiles one part's text, with its code cache when there is one.
 * @returns {{ script: Script, reuse: boolean, keep: () => void }} `keep` writes the cache once, if it was missing or refused
 */
function compilePart(text, filename, lineOffset, cacheDir, cacheName) {
  const cachePath = cacheDir && cacheName ? join(cacheDir, cacheName.name) : undefined;
  let cachedData;
  if (cachePath) {
    try {
      cachedData = readMapped(cachePath);
    } catch {
      // no cache yet, or unreadable: compiled from source, and the cache written later
    }
  }
  const script = new Script(text, { filename, lineOffset, cachedData });
  const reuse = cachedData !== undefined && !script.cachedDataRejected;
  let kept = reuse || !cachePath;
  const keep = () => {
    if (kept) return;
    kept = true;
    writeCache(cachePath, cacheName.prefix, script.createCachedData());
  };
  return { script, reuse, keep };
}

/** Runs a part's script (its value a CommonJS module's function) and returns the module's exports. */
function runPart(script, bundle, ...links) {
  const moduleFunction = script.runInThisContext();
  if (typeof moduleFunction !== "function") throw new Error(`${bundle} is not a bundle built by scripts/build.mjs (its value is not a function)`);
  const module = { exports: {} };
  moduleFunction(module.exports, createRequire(bundle), module, bundle, dirname(bundle), ...links);
  return module.exports;
}

/** How many lines `text` has before `at`. */
function linesBefore(text, at) {
  let lines = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) lines++;
  return lines;
}

/**
 * Runs `bundle` as a CommonJS module. With `cacheDir`, uses and keeps V8's code cache there. A
 * bundle in parts runs its start part; the later part is compiled and run when the start part
 * first asks for one of its modules (`__termchat_later`), the rare part when the later part first
 * asks for one of its own (`__termchat_rare`); each takes the modules of the parts before it from
 * them (`__termchat_start`, `__termchat_later`), so that a module has one instance.
 * @param {string} bundle absolute path of the script (its value: the module's function)
 * @param {{ cacheDir?: string, kind?: string, flags?: readonly string[] }} [options]
 * @returns {{ exports: Record<string, any>, cache: "none" | "used" | "missing", laterCache: () => PartCache, rareCache: () => PartCache, keepCompiledCode: () => void }}
 *   the bundle's exports; whether V8 read the (start part's) compiled code from the cache, and
 *   the other parts' so far (PartCache: "none" | "used" | "missing" | "not loaded"); and what
 *   writes the caches (each once, if it was missing or refused; nothing otherwise)
 */
function runBundle(bundle, options = {}) {
  const { cacheDir, kind = "client", flags = [] } = options;
  // The build writes the script in ASCII: read as Latin-1, it needs no decoding.
  const source = readMapped(bundle).toString("latin1");
  const line = BUILD_LINE.exec(source);
  const laterAt = Number(line?.[2] ?? source.length);
  const rareAt = Number(line?.[3] ?? source.length);
  const name = (part) => (cacheDir ? codeCacheName(bundle, source, kind, flags, part) : undefined);
  const start = compilePart(laterAt < source.length ? source.slice(0, laterAt) : source, bundle, 0, cacheDir, name());
  // For the start trace (TERMCHAT_TRACE_STARTUP): whether this start read its compiled code.
  if (cacheDir) performance.mark(start.reuse ? "termchat:code-cache-used" : "termchat:code-cache-missed");
  /** A part after the start part (its text from `from` to `to`), compiled and run when one of its modules is first asked for. */
  const onDemand = (which, from, to, links) => {
    let part;
    const module = (key) => {
      if (!part) {
        if (from >= to) throw new Error(`${bundle} has no ${which} part (asked for ${key})`);
        const compiled = compilePart(source.slice(from, to), bundle, linesBefore(source, from), cacheDir, name(which));
        const exports = runPart(compiled.script, bundle, ...links());
        part = { ...compiled, modules: exports.modules };
        // For the start trace: when the part was ready, and whether its compiled code was read.
        performance.mark(compiled.reuse ? `termchat:${which}-part-from-cache` : `termchat:${which}-part-compiled`);
      }
      const get = part.modules?.[key];
      if (typeof get !== "function") throw new Error(`${bundle}: its ${which} part has no module ${key}`);
      return get();
    };
    const cache = () => (!part ? "not loaded" : !cacheDir ? "none" : part.reuse ? "used" : "missing");
    return { module, cache, keep: () => part?.keep() };
  };
  const startModule = (key) => {
    const get = exports.__startModules?.[key];
    if (typeof get !== "function") throw new Error(`${bundle}: its start part has no module ${key}`);
    return get();
  };
  const later = onDemand("later", laterAt, rareAt, () => [startModule, rare.module]);
  const rare = onDemand("rare", rareAt, source.length, () => [startModule, later.module]);
  const keepCompiledCode = () => {
    start.keep();
    later.keep();
    rare.keep();
  };
  const exports = runPart(start.script, bundle, later.module);
  return { exports, cache: !cacheDir ? "none" : start.reuse ? "used" : "missing", laterCache: later.cache, rareCache: rare.cache, keepCompiledCode };
}

/** Writes the cache privately and atomically, and removes this kind's caches of older builds beyond KEEP. */
function writeCache(path, prefix, data) {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, path);
    const others = readdirSync(dir)
      .filter((name) => name.startsWith(`${prefix}.v`) && name.endsWith(SUFFIX))
      .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const old of others.slice(KEEP)) unlinkSync(join(dir, old.name));
  } catch {
    // a full disk or a read-only home: the next start compiles again, nothing else changes
  }
}

module.exports = { codeCacheName, runBundle };
