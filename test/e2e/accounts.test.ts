/**
 * Several accounts with the built binary: `termchat server --zuliprc-dir`
 * writes a zuliprc per demo account; two of them go into a fresh HOME's
 * ~/.config/termchat/accounts. In tmux, --account NAME opens that account,
 * and with no --account both connect, each a section of the sidebar. Outside a
 * terminal, and for unknown names, the error lists the known names.
 */
import { execFile, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, ensureBuilt, freePort, spawnServer, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let server: ChildProcessWithoutNullStreams | undefined;
let home: string;
let zuliprcDir: string;
let session: TmuxSession | undefined;

beforeAll(async () => {
  ensureBuilt();
  home = await mkdtemp(join(tmpdir(), "termchat-accounts-home-"));
  zuliprcDir = join(home, "server-zuliprcs");
  const port = await freePort();
  server = await spawnServer(["--port", String(port), "--zuliprc-dir", zuliprcDir], /Wrote \d+ zuliprc files/);
  const accounts = join(home, ".config", "termchat", "accounts");
  await mkdir(accounts, { recursive: true, mode: 0o700 });
  for (const name of ["maya", "ben"]) {
    await copyFile(join(zuliprcDir, `${name}.zuliprc`), join(accounts, `${name}.zuliprc`));
    await chmod(join(accounts, `${name}.zuliprc`), 0o600);
  }
}, 30_000);

afterEach(async () => {
  await session?.kill();
  session = undefined;
});

afterAll(async () => {
  server?.kill("SIGTERM");
  await rm(home, { recursive: true, force: true });
});

const env = () => ({ HOME: home });

/** Runs the binary without a terminal; resolves with its exit status and stderr. */
function runPiped(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: home, CI: "false" }, timeout: 15_000 }, (err, _stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr });
    });
    child.stdin?.end();
  });
}

describe("several accounts", () => {
  it("--account ben opens Ben's account", async () => {
    session = await startApp(["--account", "ben"], { env: env() });
    const screen = await session.waitFor(/connected.*Ben Carter/, { timeoutMs: 15_000 });
    expect(screen).toContain("Lighthouse Labs");
    expect(screen).not.toContain("Maya Okafor ·");
  });

  it("with no --account, both accounts connect, each a section of the sidebar", async () => {
    session = await startApp([], { env: env(), rows: 40 });
    const screen = await session.waitFor(/(?=[\s\S]*[▾▸] ben\b)(?=[\s\S]*[▾▸] maya\b)[\s\S]*● connected/, { timeoutMs: 15_000 });
    expect(screen).toMatch(/(ben|maya) · Lighthouse Labs/);
    expect(screen).not.toContain("choose an account");
  });

  it("outside a terminal, or with an unknown name, the error lists the known accounts", async () => {
    const several = await runPiped([]);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain("several accounts are configured: ben, maya. Pick one with --account NAME.");
    const unknown = await runPiped(["--account", "omar"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no account named "omar"; known accounts: ben, maya');
    // The scriptable commands take --account too.
    const status = await runPiped(["status", "--account", "nobody"]);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain("known accounts: ben, maya");
  });
});
