/**
 * The bundle is written in three parts (scripts/start-part.mjs): a start puts its register on the
 * wire having compiled only the small start part, the rest of what a client runs (the UI, the
 * sync) is compiled while the server answers, and what a client's start never runs (the reference
 * server, the image decoder, the settings' writer) only by a run that uses it. Checked on the
 * built bundle: what each part carries, and, through the built binary in tmux against the
 * reference server, the order a start takes and which parts it compiles; the code cache keeps
 * each part (test/e2e/compile-cache.test.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withServer, type ServerFixture } from "../fixtures/server.js";
import { ROOT, ensureBuilt, startApp, startClientOn } from "./app.js";
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

describe("the bundle's three parts", () => {
  it("carry each module once: the start part has the HTTP client and the account, the later part the UI and the sync, the rare part the server", () => {
    const meta = JSON.parse(readFileSync(join(ROOT, "dist/meta.json"), "utf8")) as { outputs: Record<string, Output> };
    const start = Object.keys(meta.outputs["dist/termchat.cjs"]!.inputs);
    const later = Object.keys(meta.outputs["dist/termchat.later.cjs"]!.inputs);
    const rare = Object.keys(meta.outputs["dist/termchat.rare.cjs"]!.inputs);
    expect(start).toEqual(expect.arrayContaining(["src/cli/main.ts", "src/cli/account.ts", "src/api/http.ts", "src/api/register-request.ts"]));
    expect(start.some((f) => f.startsWith("node_modules/undici/"))).toBe(true);
    // Nor the settings' schema (zod): a single account's start reads the settings after its register.
    for (const prefix of ["src/ui/", "src/sync/update-machine", "node_modules/react", "node_modules/ink/", "node_modules/yoga-layout/", "node_modules/zod/", "src/config/settings.ts"]) {
      expect(start.filter((f) => f.startsWith(prefix))).toEqual([]);
      expect(later.some((f) => f.startsWith(prefix))).toBe(true);
    }
    for (const prefix of ["src/server/", "src/render/images/worker-host.ts", "node_modules/@cwasm/webp/", "node_modules/conf/", "node_modules/ajv/"]) {
      expect([...start, ...later].filter((f) => f.startsWith(prefix))).toEqual([]);
      expect(rare.some((f) => f.startsWith(prefix))).toBe(true);
    }
    // A module in two would be two instances of it.
    expect(start.filter((f) => later.includes(f) || rare.includes(f))).toEqual([]);
    expect(later.filter((f) => rare.includes(f))).toEqual([]);
    // The start part is the small one: what a start compiles before its register leaves.
    const text = readFileSync(join(ROOT, "dist/termchat.cjs"), "latin1");
    const [, laterAt, rareAt] = (/^\/\/ termchat build [0-9a-f]+ later (\d+) rare (\d+)\n/.exec(text) ?? []).map(Number);
    expect(laterAt).toBeGreaterThan(0);
    expect(rareAt).toBeGreaterThan(laterAt!);
    expect(text.slice(laterAt)).toMatch(/^\(function \(exports, require, module, __filename, __dirname, __termchat_start, __termchat_rare\) \{\n/);
    expect(text.slice(rareAt)).toMatch(/^\(function \(exports, require, module, __filename, __dirname, __termchat_start, __termchat_later\) \{\n/);
    expect(laterAt).toBeLessThan(statSync(join(ROOT, "dist/termchat.cjs")).size / 4);
  });

  it("a start sends its register before the later part is compiled, draws the organization, and never compiles the rare part", async () => {
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
      expect(Object.keys(phases).filter((p) => p.startsWith("rare-part"))).toEqual([]);
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

  it("the demo, which runs the reference server, compiles the rare part before its first frame", async () => {
    const home = mkdtempSync(join(tmpdir(), "termchat-parts-"));
    const trace = join(home, "trace");
    const demo = await startApp(["--demo"], { cols: 100, rows: 30, env: { HOME: home, XDG_CACHE_HOME: join(home, "cache"), XDG_CONFIG_HOME: join(home, "config"), TERMCHAT_TRACE_STARTUP: trace } });
    try {
      await demo.waitFor(/connected/, { timeoutMs: 30_000 });
      const written = await pollUntil({ timeoutMs: 20_000 }, async () => existsSync(trace) && readFileSync(trace, "utf8").includes("phases "));
      expect(written).toBe(true);
      const phases = JSON.parse(readFileSync(trace, "utf8").split("\n")[1]!.slice("phases ".length)) as Record<string, number>;
      expect(phases["rare-part-compiled"]).toBeGreaterThan(phases["later-part-compiled"]!);
      expect(phases["first-frame"]).toBeGreaterThan(phases["rare-part-compiled"]!);
    } finally {
      await demo.kill();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
