/**
 * termchat runs a patched Ink (scripts/ink-patch.mjs): one list of changes, applied by esbuild to
 * the bundle and by vite to the tests, so that what ships is what is tested. Here: the versions
 * the patch was written for are the ones installed and pinned; a screen test really renders
 * through the patched Ink (its frame writer, its input parser, its width function in tables);
 * and the bundle carries the same modules.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { EventEmitter } from "node:events";
import { PerformanceObserver, constants as perfConstants } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import { createElement } from "react";
import { act } from "react";
import { describe, expect, it } from "vitest";
import { build } from "esbuild";
import { APPLIED_MODULE, EDITS, PATCHED_FOR, SWAPS, expectedChanges, inkPatchEsbuild, installedVersion, versionMismatches } from "../../scripts/ink-patch.mjs";

// Ink reads CI when it loads (and then draws nothing but the last frame): decide before loading it.
process.env.CI = "false";
const ink = await import("ink");
const { render: renderForTest } = await import("ink-testing-library");
const { loadMarkdown, renderMarkdown } = await import("../../src/render/markdown.js");
const { noteKey } = await import("../../src/ui/ink-frame/key-frames.js");

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { devDependencies: Record<string, string>; overrides: Record<string, unknown> };

describe("the Ink patch's versions", () => {
  it("are the installed ones, pinned exactly (overrides for those Ink brings), with no other copy of string-width under them", () => {
    expect(versionMismatches()).toEqual([]);
    for (const [name, version] of Object.entries(PATCHED_FOR)) {
      expect(installedVersion(name), name).toBe(version);
      expect(pkg.devDependencies[name] ?? pkg.overrides[name], name).toBe(version);
    }
    expect(pkg.overrides["wrap-ansi@9"]).toMatchObject({ "string-width": PATCHED_FOR["string-width"] });
  });

  it("pins react and undici exactly, both being reached into", () => {
    for (const name of ["react", "undici"]) {
      expect(pkg.devDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(installedVersion(name), name).toBe(pkg.devDependencies[name]);
    }
  });
});

const TABLE = "| name | role |\n|---|---|\n| 漢字 | **lead** |\n\nand **bold** text";
const CTX = { selfUserId: 1, userName: () => undefined, isSelfName: () => false, channelName: () => undefined, emptyTopicName: "general chat", color: true };

class FakeTty extends EventEmitter {
  isTTY = true;
  columns = 40;
  rows = 10;
  writes: string[] = [];
  write(s: string): boolean {
    this.writes.push(s);
    return true;
  }
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  setEncoding() {}
  setRawMode() {}
  ref() {}
  unref() {}
  read(): null {
    return null;
  }
}

describe("a screen test renders through the patched Ink", () => {
  it("draws a changed frame with the frame writer: only the changed cells, no erased lines", async () => {
    const stdout = new FakeTty();
    const view = (n: number) => createElement(ink.Box, { flexDirection: "column" }, createElement(ink.Text, null, "a line that stays"), createElement(ink.Text, null, `count ${n}`));
    let app!: ReturnType<typeof ink.render>;
    await act(async () => {
      app = ink.render(view(1), { stdout: stdout as unknown as NodeJS.WriteStream, stdin: new FakeStdin() as unknown as NodeJS.ReadStream, patchConsole: false, exitOnCtrlC: false });
    });
    const before = stdout.writes.length;
    await act(async () => {
      app.rerender(view(2));
      await new Promise((r) => setTimeout(r, 50)); // Ink's throttle
    });
    const diff = stdout.writes.slice(before).join("");
    app.unmount();
    expect(diff).toContain("2");
    expect(diff).not.toContain("a line that stays"); // Ink's own writer erases and rewrites every line
    expect(diff).not.toContain("count");
    expect(diff).not.toContain("\x1b[2K");
  });

  it("writes a frame that answers a key at once; another change within Ink's frame window waits for its end", async () => {
    const stdout = new FakeTty();
    const view = (n: number) => createElement(ink.Text, null, `state ${"ABC"[n - 1]}`);
    let app!: ReturnType<typeof ink.render>;
    await act(async () => {
      app = ink.render(view(1), { stdout: stdout as unknown as NodeJS.WriteStream, stdin: new FakeStdin() as unknown as NodeJS.ReadStream, patchConsole: false, exitOnCtrlC: false });
    });
    const frames = () => stdout.writes.join("");
    // Right after the first frame: a change from elsewhere is held for the window's end…
    await act(async () => app.rerender(view(2)));
    expect(frames()).not.toContain("B");
    // …and one that answers a key goes out with its commit, before that.
    noteKey();
    await act(async () => app.rerender(view(3)));
    expect(frames()).toContain("C");
    app.unmount();
  });

  it("empties the young generation after a frame that answers a key, once a quarter of it is taken", async () => {
    const young = () => getHeapSpaceStatistics().find((x) => x.space_name === "new_space")!;
    const collections: number[] = [];
    const observer = new PerformanceObserver((list) => {
      // A full collection, which V8 may run at any time in a long test process, empties the young
      // generation too (and leaves the idle one nothing to do): either counts.
      const emptying = [perfConstants.NODE_PERFORMANCE_GC_MINOR, perfConstants.NODE_PERFORMANCE_GC_MAJOR];
      for (const e of list.getEntries()) if (emptying.includes((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? -1)) collections.push(e.startTime);
    });
    observer.observe({ entryTypes: ["gc"] });
    const stdout = new FakeTty();
    let app!: ReturnType<typeof ink.render>;
    await act(async () => {
      app = ink.render(createElement(ink.Text, null, "before"), { stdout: stdout as unknown as NodeJS.WriteStream, stdin: new FakeStdin() as unknown as NodeJS.ReadStream, patchConsole: false, exitOnCtrlC: false });
    });
    // Short-lived objects until more than a quarter of the young generation is taken (as a key's work leaves it).
    let garbage: unknown[] = [];
    for (let i = 0; i < 10_000 && young().space_used_size * 3 < young().space_available_size; i++) garbage = [garbage.length, new Array(1024).fill(i)];
    expect(young().space_used_size * 3).toBeGreaterThanOrEqual(young().space_available_size);
    const framed = performance.now();
    noteKey();
    await act(async () => app.rerender(createElement(ink.Text, null, "after")));
    expect(stdout.writes.join("")).toContain("after");
    for (let i = 0; i < 100 && !collections.some((t) => t >= framed); i++) await new Promise((r) => setTimeout(r, 10));
    observer.disconnect();
    app.unmount();
    expect(collections.filter((t) => t >= framed).length).toBeGreaterThan(0);
    expect(garbage.length).toBe(2);
  });

  it("takes the terminal's answers out of the keys, with the keys typed around them in order", async () => {
    const keys: string[] = [];
    function Keys() {
      ink.useInput((input) => {
        keys.push(input);
      });
      return createElement(ink.Text, null, "ready");
    }
    let r!: ReturnType<typeof renderForTest>;
    await act(async () => {
      r = renderForTest(createElement(Keys));
    });
    for (const chunk of ["j", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\", "k\x1bP>|XTerm(390)\x1b\\l", "\x1b_Gi=31;OK\x1b\\\x1b[?64;1;2;4c", "m"]) {
      await act(async () => {
        r.stdin.write(chunk);
      });
    }
    r.unmount();
    expect(keys.join("")).toBe("jklm");
  });

  it("draws a Markdown table as a table, measured with termchat's width function", async () => {
    await loadMarkdown();
    const body = renderMarkdown(TABLE, CTX, 40);
    let r!: ReturnType<typeof renderForTest>;
    await act(async () => {
      r = renderForTest(createElement(ink.Text, null, body));
    });
    const screen = (r.lastFrame() ?? "").replace(/\x1b\[[\d;]*m/g, "").split("\n");
    r.unmount();
    expect(screen.slice(0, 5)).toEqual(["┌──────┬──────┐", "│ name │ role │", "├──────┼──────┤", "│ 漢字 │ lead │", "└──────┴──────┘"]);
    expect(screen.at(-1)).toBe("and bold text");
  });

  it("has applied every change whose package this run loaded: the same list as the bundle's", async () => {
    const { applied, expected } = ((await import(/* @vite-ignore */ APPLIED_MODULE)) as { default: { applied: string[]; expected: string[] } }).default;
    // This file loaded Ink, ink-testing-library, the tokenizers and marked-terminal.
    for (const name of ["Ink's Output", "Ink's widest-line", "Ink's log-update", "Ink's write-synchronized", "Ink's input parser", "string-width in wrap-ansi", "string-width in cli-truncate", "marked-terminal's cli-table3", "marked-terminal's cli-highlight", ...EDITS.map((e) => e.name)]) {
      expect(expected, name).toContain(name);
    }
    expect(applied.toSorted()).toEqual(expected.toSorted());
  });
});

describe("the bundle", () => {
  it("carries the same patched modules, and none of those they replace", async () => {
    const result = await build({
      stdin: { contents: 'import { render } from "ink"; import { markedTerminal } from "marked-terminal"; export { render, markedTerminal };', resolveDir: process.cwd(), loader: "ts" },
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      metafile: true,
      logLevel: "silent",
      plugins: [inkPatchEsbuild()],
      alias: { "react-devtools-core": "./scripts/devtools-stub.mjs" },
    });
    const inputs = Object.keys(result.metafile.inputs);
    for (const swap of SWAPS.filter((s) => s.name !== "string-width in Ink")) expect(inputs, swap.name).toContain(swap.to);
    expect(inputs).toContain("src/ui/ink-frame/frame-writer.ts");
    for (const replaced of ["ink/build/output.js", "ink/build/log-update.js", "ink/build/write-synchronized.js", "ink/build/input-parser.js", "string-width/", "widest-line/", "cli-table3/", "cli-highlight/"]) {
      expect(inputs.filter((f) => f.includes(`node_modules/${replaced}`)), replaced).toEqual([]);
    }
    expect(expectedChanges(inputs).toSorted()).toEqual([...SWAPS.filter((s) => s.name !== "string-width in Ink").map((s) => s.name), ...EDITS.map((e) => e.name)].toSorted());
    // The tokenizers split text with our grapheme splitter; the only ICU segmenter left is its own, made lazily.
    expect(inputs).toContain("src/render/graphemes.ts");
    const code = result.outputFiles[0]!.text;
    expect(code.match(/new Intl\.Segmenter\(/g)).toHaveLength(1);
    expect(code).toMatch(/real \?\?= new Intl\.Segmenter\(/);
    // Nothing awaits at the top level any more (the bundle is a script).
    expect(code).not.toMatch(/^\s*(?:const \w+ = )?await /m);
  }, 60_000);

  it("renders a Markdown table exactly as the tests do (it once showed the message's source)", async () => {
    const out = join(".tmp", "ink-patch-markdown.mjs");
    await build({
      entryPoints: ["src/render/markdown.ts"],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      logLevel: "silent",
      plugins: [inkPatchEsbuild()],
      banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    });
    const bundled = (await import(/* @vite-ignore */ pathToFileURL(resolve(out)).href)) as typeof import("../../src/render/markdown.js");
    await bundled.loadMarkdown();
    await loadMarkdown();
    const shipped = bundled.renderMarkdown(TABLE, CTX, 40);
    expect(shipped).toContain("┌──────┬──────┐");
    expect(shipped).toBe(renderMarkdown(TABLE, CTX, 40));
  }, 60_000);
});
