/**
 * The launcher keeps V8's compiled code of the bundle between runs, on every Node.js at hand:
 * in termchat's cache directory, private to the user, written once a client run has drawn its
 * first frame and settled (not by `--version`, not with --no-cache), and read back by the next
 * start. The next start must really read it: a cache made under V8 settings that changed during
 * the run (the collection after the first frame needs one) would be refused every time.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, ROOT, ensureBuilt } from "./app.js";
import { nodeBinaries } from "./package.js";
import { pollUntil } from "./tmux-support.js";
import { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.kill();
  session = undefined;
});

/** Waits (bounded) for a condition on files. */
async function until(what: string, check: () => boolean): Promise<void> {
  if (!(await pollUntil({ timeoutMs: 20_000 }, async () => check()))) throw new Error(`not within 20 s: ${what}`);
}

const caches = (compiled: string) => (existsSync(compiled) ? readdirSync(compiled).filter((f) => f.endsWith(".v8cache")) : []);

describe.each(nodeBinaries(ROOT).map((n) => [n.version, n.path] as const))("the code cache on Node.js %s", (_version, node) => {
  it("is written privately after a client run's first frame, not by --version or with --no-cache, and read by the next start", async () => {
    ensureBuilt();
    const dir = await mkdtemp(join(tmpdir(), "termchat-code-cache-"));
    try {
      const env = { HOME: dir, XDG_CACHE_HOME: join(dir, "cache"), XDG_STATE_HOME: join(dir, "state"), XDG_CONFIG_HOME: join(dir, "config") };
      const compiled = join(dir, "cache", "termchat", "compiled");
      const version = (...args: string[]) => execFileSync(node, [BIN, ...args], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8", timeout: 30_000 });
      expect(version("--version", "--no-cache")).toMatch(/^termchat /);
      expect(version("--version")).toMatch(/^termchat /);
      expect(caches(compiled)).toEqual([]);

      // A client run: the cache appears a few seconds after the first frame.
      session = await TmuxSession.start([node, BIN, "--demo"], { cols: 100, rows: 30, cwd: ROOT, env });
      await session.waitFor(/Inbox {2}\d+ unread/, { timeoutMs: 20_000 });
      await until("the code cache written", () => caches(compiled).length === 3);
      // The demo's own (it runs the reference server too): a client run on an account keeps another.
      // One for each of the bundle's three parts (scripts/start-part.mjs): the demo runs the rare one too.
      expect(caches(compiled).sort()).toEqual([
        expect.stringMatching(/^termchat\.cjs\.demo\.later\.v\d+/),
        expect.stringMatching(/^termchat\.cjs\.demo\.rare\.v\d+/),
        expect.stringMatching(/^termchat\.cjs\.demo\.v\d+/),
      ]);
      expect(statSync(compiled).mode & 0o777).toBe(0o700);
      for (const name of caches(compiled)) expect(statSync(join(compiled, name)).mode & 0o777).toBe(0o600);
      await session.sendKeys("Q");
      expect(await session.waitForExit({ timeoutMs: 10_000 })).toBe(0);
      session = undefined;

      // The next start reads it (the start trace says so), and writes no other.
      const trace = join(dir, "trace");
      session = await TmuxSession.start([node, BIN, "--demo"], { cols: 100, rows: 30, cwd: ROOT, env: { ...env, TERMCHAT_TRACE_STARTUP: trace } });
      await session.waitFor(/Inbox {2}\d+ unread/, { timeoutMs: 20_000 });
      await until("the start trace", () => existsSync(trace) && readFileSync(trace, "utf8").endsWith("\n") && readFileSync(trace, "utf8").includes("phases "));
      const phases = JSON.parse(readFileSync(trace, "utf8").split("\n")[1]!.slice("phases ".length)) as Record<string, number>;
      expect(Object.keys(phases)).toEqual(expect.arrayContaining(["code-cache-used", "later-part-from-cache", "rare-part-from-cache"]));
      await session.sendKeys("Q");
      expect(await session.waitForExit({ timeoutMs: 10_000 })).toBe(0);
      expect(caches(compiled)).toHaveLength(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
