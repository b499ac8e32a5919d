/**
 * The bundle is written in two parts (scripts/start-part.mjs): a start puts its register on the
 * wire having compiled only the small start part, and the rest of the program (the UI, the sync,
 * the reference server) is compiled while the server answers. Checked on the built bundle: what
 * each part carries, and, through the built binary in tmux against the reference server, the
 * order a start takes; the code cache keeps both parts (test/e2e/compile-cache.test.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withServer, type ServerFixture } from "../fixtures/server.js";
import { ROOT, ensureBuilt, startClientOn } from "./app.js";
import { pollUntil } from "./tmux-support.js";

let ctx: ServerFixture;
beforeAll(async () => {
  ensureBuilt();
  ctx = await withServer({ data: "demo" });
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

interface Output {
  bytes: number;
  inputs: Record<string, { bytesInOutput: number }>;
}

describe("the bundle's two parts", () => {
  it("carry each module once: the start part has the HTTP client and the account, the later part the UI, the sync and the server", () => {
    const meta = JSON.parse(readFileSync(join(ROOT, "dist/meta.json"), "utf8")) as { outputs: Record<string, Output> };
    const start = Object.keys(meta.outputs["dist/termchat.cjs"]!.inputs);
    const later = Object.keys(meta.outputs["dist/termchat.later.cjs"]!.inputs);
    expect(start).toEqual(expect.arrayContaining(["src/cli/main.ts", "src/cli/account.ts", "src/api/http.ts", "src/api/register-request.ts"]));
    expect(start.some((f) => f.startsWith("node_modules/undici/"))).toBe(true);
    // Nor the settings' schema (zod): a single account's start reads the settings after its register.
    for (const prefix of ["src/ui/", "src/sync/update-machine", "src/server/", "node_modules/react", "node_modules/ink/", "node_modules/yoga-layout/", "node_modules/zod/", "src/config/settings.ts"]) {
      expect(start.filter((f) => f.startsWith(prefix))).toEqual([]);
      expect(later.some((f) => f.startsWith(prefix))).toBe(true);
    }
    // A module in both would be two instances of it.
    expect(start.filter((f) => later.includes(f))).toEqual([]);
    // The start part is the small one: what a start compiles before its register leaves.
    const text = readFileSync(join(ROOT, "dist/termchat.cjs"), "latin1");
    const laterAt = Number(/^\/\/ termchat build [0-9a-f]+ later (\d+)\n/.exec(text)?.[1]);
    expect(laterAt).toBeGreaterThan(0);
    expect(text.slice(laterAt)).toMatch(/^\(function \(exports, require, module, __filename, __dirname, __termchat_start\) \{\n/);
    expect(laterAt).toBeLessThan(statSync(join(ROOT, "dist/termchat.cjs")).size / 4);
  });

  it("a start sends its register before the later part is compiled, and draws the organization", async () => {
    const owner = ctx.owner;
    const traceDir = mkdtempSync(join(tmpdir(), "termchat-parts-"));
    const trace = join(traceDir, "trace");
    // The first start after an install: nothing compiled yet (a home of its own).
    const client = await startClientOn(ctx.server.url, { email: owner.email, apiKey: owner.apiKey }, { cols: 100, rows: 30, env: { TERMCHAT_TRACE_STARTUP: trace } });
    try {
      await client.session.waitFor(/connected/, { timeoutMs: 30_000 });
      const written = await pollUntil({ timeoutMs: 20_000 }, async () => existsSync(trace) && readFileSync(trace, "utf8").includes("phases "));
      expect(written).toBe(true);
      const phases = JSON.parse(readFileSync(trace, "utf8").split("\n")[1]!.slice("phases ".length)) as Record<string, number>;
      expect(phases).toHaveProperty("code-cache-missed");
      expect(phases["later-part-compiled"]).toBeGreaterThan(phases["register-sent"]!);
      expect(phases["first-frame"]).toBeGreaterThan(phases["later-part-compiled"]!);
      // Node's own modules come from the code Node carries compiled only while V8's flags are
      // its own: the launcher loads those a start needs before it sets them (bin/v8-flags.cjs).
      expect(phases["v8-flags"]).toBeLessThan(phases["register-sent"]!);
      const late = readFileSync(trace, "utf8").split("\n")[2]!;
      expect(late).toBe("node-modules-after-flags []");
    } finally {
      await client.done();
      rmSync(traceDir, { recursive: true, force: true });
    }
  }, 60_000);
});
