/**
 * The launcher (bin/termchat.cjs) sets V8 up before the bundle loads: on every Node.js at hand it
 * starts without a word from V8, and the settings do what they are there for.
 */
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, ensureBuilt } from "./app.js";
import { nodeBinaries } from "./package.js";

const run = (node: string, args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(node, args, { cwd: ROOT, timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err ? (err.code as number | null) : 0, stdout, stderr }));
  });

describe.each(nodeBinaries(ROOT).map((n) => [n.version, n.path] as const))("the launcher on Node.js %s", (_version, node) => {
  it("starts with V8 accepting every setting: nothing on stderr, the usual exit codes", async () => {
    ensureBuilt();
    const ok = await run(node, [BIN, "--version"]);
    expect(ok).toMatchObject({ code: 0, stderr: "" });
    expect(ok.stdout).toMatch(/^termchat \d+\.\d+\.\d+\n$/);
    const bad = await run(node, [BIN, "--no-such-option"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^termchat: .*--no-such-option/);
  }, 30_000);

  it("keeps the young generation at its initial size while the heap fills", async () => {
    // 40 MB of objects that survive: V8 would grow the young generation to its maximum.
    const fill = `const keep = []; for (let i = 0; i < 400_000; i++) keep.push({ i, s: "x" + i, a: [i, i] });
      const v8 = await import("node:v8");
      console.log(v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").physical_space_size);`;
    const withFlags = `const v8 = await import("node:v8"); const { V8_FLAGS } = await import(${JSON.stringify(BIN.replace(/termchat\.cjs$/, "v8-flags.cjs"))});
      for (const f of V8_FLAGS) v8.setFlagsFromString(f); ${fill}`;
    const plain = Number((await run(node, ["--input-type=module", "-e", fill])).stdout);
    const launched = Number((await run(node, ["--input-type=module", "-e", withFlags])).stdout);
    expect(plain).toBeGreaterThan(4 * 1048576);
    expect(launched).toBeLessThanOrEqual(2 * 1048576 + 65536);
  }, 30_000);
});
