/**
 * Reading without an account, with the built binary in tmux against the
 * reference server (`termchat server`): `--site URL --spectator` shows a
 * web-public channel's messages; every key that would write shows "Reading as
 * a spectator: log in to write" and nothing reaches the server (checked on
 * the server); no credentials are asked for or written. An entry with
 * `spectator=true` in the account list opens the same way. An organization that
 * does not let spectators in is said in one line (exit 1).
 */
import { execFile, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { BIN, ROOT, apiAs, ensureBuilt, freePort, spawnServer, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

const LINE = "Reading as a spectator: log in to write";
let server: ChildProcessWithoutNullStreams | undefined;
let site: string;
let home: string;
let session: TmuxSession | undefined;

beforeAll(async () => {
  ensureBuilt();
  home = await mkdtemp(join(tmpdir(), "termchat-spectator-home-"));
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  server = await spawnServer(["--port", String(port)], /listening on/);
}, 30_000);

afterEach(async () => {
  await session?.kill();
  session = undefined;
});

afterAll(async () => {
  server?.kill("SIGTERM");
  await rm(home, { recursive: true, force: true });
});

const env = () => ({ HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, "state"), XDG_CACHE_HOME: join(home, "cache") });

/** The announcements channel's messages as its owner reads them on the server. */
async function announcements(): Promise<Array<{ id: number; content: string }>> {
  const call = await apiAs(site, "maya@lighthouse.test");
  const narrow = JSON.stringify([{ operator: "channel", operand: "announcements" }]);
  const res = await call("GET", "messages", { anchor: "newest", num_before: "100", num_after: "0", narrow, apply_markdown: "false" });
  return res.messages as Array<{ id: number; content: string }>;
}

/** Every file under `dir`, relative. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

it("reads a web-public channel's message and cannot post: the line, nothing sent, nothing stored", async () => {
  const before = await announcements();
  session = await startApp(["--site", site, "--spectator"], { env: env() });
  await session.waitFor(/connected.*Lighthouse Labs · spectator/, { timeoutMs: 20_000 });
  // It opens on the combined feed: every web-public channel (a spectator has no Inbox to speak of).
  const feed = await session.waitFor("Holiday schedule for December", { timeoutMs: 15_000 });
  expect(feed).toContain("#announcements");
  await session.sendKeys("Tab");
  for (const key of ["r", "c", "+", "M"]) {
    await session.sendKeys(key);
    const screen = await session.waitFor(LINE, { timeoutMs: 10_000 });
    expect(screen).not.toMatch(/Enter send/);
    await session.sendKeys("k");
    await session.waitForGone(LINE, { timeoutMs: 10_000 });
  }
  // Checked on the server: nothing was posted, no reaction added.
  const after = await announcements();
  expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
  expect(JSON.stringify(after)).toEqual(JSON.stringify(before));
  // No credentials asked for or written: no zuliprc, no key anywhere under the home.
  const files = await filesUnder(home);
  expect(files.filter((f) => /zuliprc/.test(f))).toEqual([]);
}, 90_000);

it("opens a spectator's entry of the account list like an account", async () => {
  const accounts = join(home, ".config", "termchat", "accounts");
  await mkdir(accounts, { recursive: true, mode: 0o700 });
  const entry = join(accounts, "lighthouse-public.zuliprc");
  await writeFile(entry, `[api]\nsite=${site}\nspectator=true\n`, { mode: 0o600 });
  await chmod(entry, 0o600);
  try {
    session = await startApp(["--account", "lighthouse-public"], { env: env() });
    await session.waitFor(/connected.*Lighthouse Labs · spectator/, { timeoutMs: 20_000 });
    await session.sendKeys("a");
    await session.waitFor("Holiday schedule for December", { timeoutMs: 15_000 });
    await session.sendKeys("Tab", "r");
    await session.waitFor(LINE, { timeoutMs: 10_000 });
  } finally {
    await rm(entry, { force: true });
  }
}, 90_000);

it("says in one line, and exits 1, when the organization does not let spectators in", async () => {
  const call = await apiAs(site, "maya@lighthouse.test");
  expect(await call("PATCH", "realm", { enable_spectator_access: "false" })).toMatchObject({ result: "success" });
  try {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, "--site", site, "--spectator"], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env(), CI: "false" }, timeout: 20_000 }, (err, _out, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
      ).stdin?.end();
    });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(`termchat: 127.0.0.1 refused a request without an account (Not logged in: API authentication or user session required): without one, only web-public channels can be read, where the organization allows it; log in with "termchat login"`);
  } finally {
    await call("PATCH", "realm", { enable_spectator_access: "true" });
  }
}, 60_000);
