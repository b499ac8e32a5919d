/**
 * The launcher runs the bundle as a CommonJS script with V8's code cache: the cache is written
 * when the program says its run was typical, privately; it is read back at the next start,
 * replaced when V8 refuses it or the bundle changes; and a cache that cannot be written or read
 * never stops the program. Each start is a process of its own, as a user's is (within one
 * process V8 reuses what it compiled and never reads the cache).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codeCacheName, runBundle as runHere } from "../../bin/run-bundle.cjs";

const LAUNCHER = new URL("../../bin/run-bundle.cjs", import.meta.url).href;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "termchat-run-bundle-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle as the build writes it (its value the module's function), with some functions to compile; it reports what it was given. */
function writeScript(name: string, answer: number): string {
  const file = join(dir, name);
  const body = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x * ${i} + ${answer}; }`).join("\n");
  const module = `${body}\nexports.answer = f1(0);\nexports.kind = typeof require("node:path").join;\nexports.file = __filename;\nexports.dir = __dirname;\nmodule.exports.sum = () => f49(1);`;
  writeFileSync(file, `(function (exports, require, module, __filename, __dirname) {${module}\n})`);
  return file;
}

type Start = { cache: string; exports: Record<string, unknown> };

/** One start in a new Node.js process; `keep` says the run was typical (the program's call). */
function start(file: string, options: Parameters<typeof runHere>[1] & { keep?: boolean } = {}): Start {
  const { keep = true, ...rest } = options;
  const code = `import { runBundle } from ${JSON.stringify(LAUNCHER)};
    const r = runBundle(${JSON.stringify(file)}, ${JSON.stringify(rest)});
    console.log(JSON.stringify({ cache: r.cache, exports: { ...r.exports, sum: r.exports.sum() } }));
    if (${keep}) r.keepCompiledCode();`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", timeout: 30_000 })) as Start;
}

const cacheFiles = (cacheDir: string) => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith(".v8cache")) : []);

describe("runBundle", () => {
  it("runs the script as a CommonJS module and hands back its exports", () => {
    const file = writeScript("a.cjs", 7);
    const { exports, cache } = runHere(file);
    expect(exports).toMatchObject({ answer: 7, kind: "function", file, dir });
    expect((exports.sum as () => number)()).toBe(56);
    expect(cache).toBe("none");
    expect(start(file).exports).toMatchObject({ answer: 7, sum: 56 });
  });

  it("writes a private cache when the run says so, and the next start reads it back", () => {
    const file = writeScript("a.cjs", 1);
    const cacheDir = join(dir, "cache", "compiled");
    expect(start(file, { cacheDir, keep: false }).cache).toBe("missing");
    expect(cacheFiles(cacheDir)).toEqual([]);
    expect(start(file, { cacheDir }).cache).toBe("missing");
    expect(cacheFiles(cacheDir)).toHaveLength(1);
    expect(statSync(cacheDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDir, cacheFiles(cacheDir)[0]!)).mode & 0o777).toBe(0o600);
    expect(start(file, { cacheDir })).toEqual({ cache: "used", exports: expect.objectContaining({ answer: 1, sum: 50 }) });
    expect(cacheFiles(cacheDir)).toHaveLength(1);
  });

  it("keeps one cache per kind of run, and one made with other V8 flags is not offered", () => {
    const file = writeScript("a.cjs", 1);
    const cacheDir = join(dir, "compiled");
    start(file, { cacheDir, kind: "client" });
    start(file, { cacheDir, kind: "send" });
    expect(cacheFiles(cacheDir)).toHaveLength(2);
    expect(start(file, { cacheDir, kind: "client", flags: ["--liftoff-only"], keep: false }).cache).toBe("missing");
    expect(start(file, { cacheDir, kind: "send" }).cache).toBe("used");
  });

  it("replaces a cache V8 refuses, and still runs", () => {
    const file = writeScript("a.cjs", 3);
    const cacheDir = join(dir, "compiled");
    start(file, { cacheDir });
    const [name] = cacheFiles(cacheDir);
    writeFileSync(join(cacheDir, name!), Buffer.from("not a code cache at all"));
    expect(start(file, { cacheDir })).toMatchObject({ cache: "missing", exports: { answer: 3 } });
    expect(start(file, { cacheDir }).cache).toBe("used");
  });

  it("names a cache by the build on the script's first line, or by a hash of the script", () => {
    const file = writeScript("a.cjs", 1);
    const plain = readFileSync(file, "latin1");
    const a = codeCacheName(file, plain, "client", []).name;
    expect(codeCacheName(file, plain.replace("+ 1;", "+ 2;"), "client", []).name).not.toBe(a); // same size, other contents
    const built = `// termchat build 0123456789abcdef01234567\n${plain}`;
    expect(codeCacheName(file, built, "client", []).name).toContain("-0123456789abcdef01234567-");
    expect(codeCacheName(file, built, "send", []).prefix).toBe("a.cjs.send");
    writeFileSync(file, built);
    expect(start(file)).toMatchObject({ exports: { answer: 1 } });
  });

  it("starts a new cache when the bundle changes, keeps the three newest, and two builds used in turn keep theirs", () => {
    const cacheDir = join(dir, "compiled");
    const builds = [1, 22, 333, 4444].map((answer, i) => {
      mkdirSync(join(dir, `install${i}`));
      return writeScript(`install${i}/termchat.cjs`, answer); // other installs: other contents
    });
    for (const [i, file] of builds.entries()) {
      expect(start(file, { cacheDir })).toMatchObject({ cache: "missing", exports: { answer: [1, 22, 333, 4444][i] } });
      utimesSync(join(cacheDir, codeCacheName(file, readFileSync(file, "latin1"), "client", []).name), new Date(), new Date(Date.now() + i * 1000)); // written in this order
    }
    expect(cacheFiles(cacheDir)).toHaveLength(3);
    expect(start(builds[0]!, { cacheDir, keep: false }).cache).toBe("missing"); // the oldest went
    expect(start(builds[2]!, { cacheDir }).cache).toBe("used");
    expect(start(builds[3]!, { cacheDir }).cache).toBe("used");
    expect(start(builds[2]!, { cacheDir }).cache).toBe("used");
  });

  it("refuses a file that is not a bundle, saying so", () => {
    const file = join(dir, "plain.cjs");
    writeFileSync(file, "var answer = 1;");
    expect(() => runHere(file)).toThrow(/plain\.cjs is not a bundle built by scripts\/build\.mjs/);
  });

  it("runs when the cache directory cannot be made, or the cache is not a file", () => {
    const file = writeScript("a.cjs", 5);
    const blocked = join(dir, "blocked");
    writeFileSync(blocked, "a file where the directory should be");
    expect(start(file, { cacheDir: join(blocked, "compiled") }).exports.answer).toBe(5);
    expect(statSync(blocked).isFile()).toBe(true);
    const odd = join(dir, "odd");
    mkdirSync(join(odd, codeCacheName(file, readFileSync(file, "latin1"), "client", []).name), { recursive: true });
    expect(start(file, { cacheDir: odd })).toMatchObject({ cache: "missing", exports: { answer: 5 } });
  });

  describe("a bundle in two parts", () => {
    /**
     * Two parts as the build writes them: the start part hands the later part its module
     * `shared` (`__startModules`) and asks for the later part's `ui` (`__termchat_later`); the later
     * part takes `shared` (`__termchat_start`), counts its loads in it, and `fail` throws from
     * its own line 3. `laterText` replaces the later part's code.
     */
    function writeTwoParts(name: string, laterText?: string): string {
      const file = join(dir, name);
      const start = `(function (exports, require, module, __filename, __dirname, __termchat_later) {
${Array.from({ length: 30 }, (_, i) => `function s${i}(x) { return x + ${i}; }`).join("\n")}
const shared = { loads: 0 };
exports.__startModules = { "src/shared.ts": () => shared };
exports.shared = shared;
exports.ui = () => __termchat_later("src/ui.ts");
exports.missing = () => __termchat_later("src/nowhere.ts");
exports.answer = s29(1);
})
`;
      const later =
        laterText ??
        `(function (exports, require, module, __filename, __dirname, __termchat_start) {
const shared = __termchat_start("src/shared.ts"); shared.loads++;
function fail() { throw new Error("from the later part"); }
${Array.from({ length: 30 }, (_, i) => `function l${i}(x) { return x * ${i}; }`).join("\n")}
exports.modules = { "src/ui.ts": () => ({ shared, loads: shared.loads, value: l7(6), fail }) };
})`;
      const head = (at: number) => `// termchat build 00112233445566778899aabb later ${String(at).padStart(12, "0")}\n`;
      const at = head(0).length + start.length;
      writeFileSync(file, head(at) + start + later);
      return file;
    }

    type TwoStart = { cache: string; before: string; after: string; value: number; loads: number; same: boolean; stack: string };
    function startTwo(file: string, options: { cacheDir?: string } = {}): TwoStart {
      const code = `import { runBundle } from ${JSON.stringify(LAUNCHER)};
        const r = runBundle(${JSON.stringify(file)}, ${JSON.stringify(options)});
        const before = r.laterCache();
        const ui = r.exports.ui();
        r.exports.ui(); // asked again: the same part, not compiled nor run again
        let stack = "";
        try { ui.fail(); } catch (e) { stack = e.stack; }
        console.log(JSON.stringify({ cache: r.cache, before, after: r.laterCache(), value: ui.value, loads: r.exports.shared.loads, same: ui.shared === r.exports.shared, stack }));
        r.keepCompiledCode();`;
      return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", timeout: 30_000 })) as TwoStart;
    }

    it("runs the later part only when the start part asks for one of its modules, and the two share the start part's", () => {
      const file = writeTwoParts("two.cjs");
      const { exports, laterCache } = runHere(file);
      expect(exports.answer).toBe(30);
      expect(laterCache()).toBe("not loaded");
      const ui = (exports.ui as () => { shared: unknown; loads: number; value: number })();
      expect(ui).toMatchObject({ loads: 1, value: 42 });
      expect(ui.shared).toBe(exports.shared); // one instance of the module, not a copy
      expect(laterCache()).toBe("none");
      expect(() => (exports.missing as () => unknown)()).toThrow(/its later part has no module src\/nowhere\.ts/);
    });

    it("starts even when its later part could not compile, until that part is asked for", () => {
      const file = writeTwoParts("broken.cjs", "(function (exports) { this is not JavaScript })");
      const { exports, laterCache } = runHere(file);
      expect(exports.answer).toBe(30);
      expect(laterCache()).toBe("not loaded");
      expect(() => (exports.ui as () => unknown)()).toThrow(SyntaxError);
    });

    it("keeps a code cache for each part, read back by the next start, and reports the later part's lines as the file's", () => {
      const file = writeTwoParts("two.cjs");
      const cacheDir = join(dir, "compiled");
      const first = startTwo(file, { cacheDir });
      expect(first).toMatchObject({ cache: "missing", before: "not loaded", after: "missing", value: 42, loads: 1, same: true });
      expect(cacheFiles(cacheDir).sort()).toEqual([codeCacheName(file, readFileSync(file, "latin1"), "client", [], "later").name, codeCacheName(file, readFileSync(file, "latin1"), "client", []).name].sort());
      const second = startTwo(file, { cacheDir });
      expect(second).toMatchObject({ cache: "used", before: "not loaded", after: "used", loads: 1 });
      // `fail` is on the later part's third line: the file's line 1 (the build line) + the start part's lines + 3.
      const line = readFileSync(file, "latin1").split("\n").findIndex((l) => l.includes("function fail()")) + 1;
      expect(second.stack).toContain(`${file}:${line}:`);
    });
  });

  describe("a bundle in three parts", () => {
    /**
     * Three parts as the build writes them: the start part asks for the later part's `ui`; the
     * later part's `ui` asks for the rare part's `server` only when called (`__termchat_rare`),
     * and hands it its module `store` (its `modules`); the rare part takes `shared` from the start
     * part and `store` from the later part, and `fail` throws from its own line 2.
     */
    function writeThreeParts(name: string): string {
      const file = join(dir, name);
      const start = `(function (exports, require, module, __filename, __dirname, __termchat_later) {
const shared = { loads: 0 };
exports.__startModules = { "src/shared.ts": () => shared };
exports.shared = shared;
exports.ui = () => __termchat_later("src/ui.ts");
})
`;
      const later = `(function (exports, require, module, __filename, __dirname, __termchat_start, __termchat_rare) {
const shared = __termchat_start("src/shared.ts"); shared.loads++;
const store = { name: "store" };
exports.modules = { "src/ui.ts": () => ({ store, server: () => __termchat_rare("src/server.ts") }), "src/store.ts": () => store };
})
`;
      const rare = `(function (exports, require, module, __filename, __dirname, __termchat_start, __termchat_later) {
function fail() { throw new Error("from the rare part"); }
const shared = __termchat_start("src/shared.ts"); shared.loads++;
exports.modules = { "src/server.ts": () => ({ shared, store: __termchat_later("src/store.ts"), fail }) };
})`;
      const head = (laterAt: number, rareAt: number) => `// termchat build 00112233445566778899aabb later ${String(laterAt).padStart(12, "0")} rare ${String(rareAt).padStart(12, "0")}\n`;
      const laterAt = head(0, 0).length + start.length;
      writeFileSync(file, head(laterAt, laterAt + later.length) + start + later + rare);
      return file;
    }

    type ThreeStart = { cache: string; rareBefore: string; rareAfter: string; loads: number; same: boolean; stack: string };
    function startThree(file: string, options: { cacheDir?: string } = {}): ThreeStart {
      const code = `import { runBundle } from ${JSON.stringify(LAUNCHER)};
        const r = runBundle(${JSON.stringify(file)}, ${JSON.stringify(options)});
        const ui = r.exports.ui();
        const rareBefore = r.rareCache();
        const server = ui.server();
        ui.server(); // asked again: the same part, not compiled nor run again
        let stack = "";
        try { server.fail(); } catch (e) { stack = e.stack; }
        console.log(JSON.stringify({ cache: r.cache, rareBefore, rareAfter: r.rareCache(), loads: r.exports.shared.loads, same: server.shared === r.exports.shared && server.store === ui.store, stack }));
        r.keepCompiledCode();`;
      return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8", timeout: 30_000 })) as ThreeStart;
    }

    it("compiles the rare part only when asked for, shares the earlier parts' modules with it, and keeps its cache", () => {
      const file = writeThreeParts("three.cjs");
      const cacheDir = join(dir, "compiled");
      const first = startThree(file, { cacheDir });
      expect(first).toMatchObject({ cache: "missing", rareBefore: "not loaded", rareAfter: "missing", loads: 2, same: true });
      expect(cacheFiles(cacheDir)).toHaveLength(3);
      expect(cacheFiles(cacheDir)).toContain(codeCacheName(file, readFileSync(file, "latin1"), "client", [], "rare").name);
      const second = startThree(file, { cacheDir });
      expect(second).toMatchObject({ cache: "used", rareBefore: "not loaded", rareAfter: "used", loads: 2, same: true });
      // `fail` is on the rare part's second line: its lines are the file's.
      const line = readFileSync(file, "latin1").split("\n").findIndex((l) => l.includes("function fail()")) + 1;
      expect(second.stack).toContain(`${file}:${line}:`);
    });

    it("a start that never asks for the rare part does not compile it", () => {
      const file = writeThreeParts("three.cjs");
      const { exports, rareCache, laterCache } = runHere(file);
      (exports.ui as () => unknown)();
      expect(laterCache()).toBe("none");
      expect(rareCache()).toBe("not loaded");
    });
  });
});
