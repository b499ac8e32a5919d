/**
 * Instant start from the local cache, with the built binary in tmux: a first
 * run opens a topic and quits; the next start, with the server holding its
 * register, draws the cached sidebar and that topic (marked "updating…")
 * before the server has answered, then the server's state in place. With
 * the server down it opens offline on that topic, and a reply written there
 * arrives once when the server is back. A damaged cache is a one-line note
 * and a clean start.
 */
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { getMessages } from "../../src/api/routes/messages.js";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";
import { ensureBuilt, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let world: FaultyWorld;
let dir: string;
let rc: string;
let session: TmuxSession | undefined;
const env = () => ({ XDG_CACHE_HOME: join(dir, "cache"), XDG_STATE_HOME: join(dir, "state"), XDG_CONFIG_HOME: join(dir, "config") });

beforeAll(async () => {
  ensureBuilt();
  world = await faultyWorld();
  dir = await mkdtemp(join(tmpdir(), "termchat-cache-e2e-"));
  rc = join(dir, "maya.zuliprc");
  await writeFile(rc, `[api]\nemail=${world.owner.email}\nkey=${world.owner.apiKey}\nsite=${world.proxy.url}\n`, { mode: 0o600 });
}, 60_000);

afterEach(async () => {
  await session?.kill();
  session = undefined;
});

afterAll(async () => {
  await world.close();
  await rm(dir, { recursive: true, force: true });
});

const cacheFiles = async () => (await readdir(join(dir, "cache", "termchat")).catch(() => [] as string[])).filter((n) => n.endsWith(".json.gz"));

it("draws the cached sidebar and last topic before the server answers, then the server's state", async () => {
  // A first run: open a topic from the Inbox, quit; the state is cached at exit.
  session = await startApp(["--config", rc], { cols: 80, rows: 24, env: env() });
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  await session.sendKeys("I");
  await session.waitFor(/▌ @ Lena Fischer/);
  await session.sendKeys("j");
  await session.waitFor(/▌ @ Omar Haddad/);
  await session.sendKeys("j");
  await session.waitFor(/▌▾ #engineering/);
  await session.sendKeys("j");
  await session.waitFor(/▌ {4}release 2\.4 ★/);
  await session.sendKeys("Enter");
  await session.waitFor("#engineering > release 2.4");
  await session.waitFor(/Priya Raman/);
  await session.sendKeys("Q");
  expect(await session.waitForExit({ timeoutMs: 10_000 })).toBe(0);
  const files = await cacheFiles();
  expect(files).toHaveLength(1);
  expect((await stat(join(dir, "cache", "termchat", files[0]!))).mode & 0o777).toBe(0o600);
  expect((await stat(join(dir, "cache", "termchat"))).mode & 0o777).toBe(0o700);

  // The next start: the server holds the register until the cached screen has been seen.
  let release!: () => void;
  world.proxy.inject({ method: "POST", path: "register", action: { kind: "hold", until: new Promise<void>((r) => (release = r)) } });
  const registersBefore = world.proxy.count("POST", "register");
  const logFile = join(dir, "cached-start.out");
  session = await startApp(["--config", rc], { cols: 80, rows: 24, env: env(), logFile });
  try {
    const cached = await session.waitFor(/updating…/, { timeoutMs: 15_000 });
    // The first frame drawn is the cached one: the first status line written says "updating…",
    // and no "connecting…" frame came before it.
    const raw = (await session.waitForRaw("? help")).toString("utf8");
    expect(raw.slice(0, raw.indexOf("? help"))).toContain("updating…");
    expect(raw).not.toContain("connecting…");
    expect(cached).toContain("#engineering > release 2.4");
    expect(cached).toMatch(/Priya Raman/);
    expect(cached).toMatch(/#engineering/);
    expect(cached).not.toMatch(/connected/);
    // The register is out and unanswered: this screen came from the cache.
    const held = world.proxy.log.filter((r) => r.method === "POST" && r.path === "register").slice(registersBefore);
    expect(held).toHaveLength(1);
    expect(held[0]!.status).toBeUndefined();
  } finally {
    release();
  }
  // The server's state replaces it; the open topic stays open.
  const fresh = await session.waitFor(/connected/, { timeoutMs: 15_000 });
  expect(fresh).toContain("#engineering > release 2.4");
  expect(fresh).not.toMatch(/updating…/);
  await session.sendKeys("Q");
  expect(await session.waitForExit({ timeoutMs: 10_000 })).toBe(0);
});

it("offline: reads the cached topic, and a reply written there arrives once when the server is back", async () => {
  await world.proxy.refuse();
  let reply = "";
  try {
    session = await startApp(["--config", rc], { cols: 80, rows: 24, env: env() });
    await session.waitFor(/offline: showing/, { timeoutMs: 20_000 });
    const screen = await session.capture();
    expect(screen).toContain("#engineering > release 2.4");
    expect(screen).toMatch(/Priya Raman/);
    await session.sendKeys("r");
    await session.waitFor("Enter send");
    reply = `offline ${Date.now() % 100000}`;
    await session.type(reply);
    await session.waitFor(reply);
    await session.sendKeys("Enter");
    await session.waitForGone("Enter send");
    // Under the topic, waiting in the outbox (the topic's saved draft came first in the box).
    await session.waitFor(/⧗ waiting for the connection/);
  } finally {
    await world.proxy.accept();
  }
  await session.waitFor(/connected/, { timeoutMs: 30_000 });
  const api = world.direct();
  const found = async () => {
    const res = await getMessages(api, { narrow: [{ operator: "search", operand: "offline" }], anchor: "newest", num_before: 50, num_after: 0, apply_markdown: false });
    return res.messages.filter((m) => m.content.endsWith(reply) && m.subject === "release 2.4");
  };
  // The outbox sends once the connection is live: wait for it on the server (bounded).
  for (let i = 0; i < 200 && (await found()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
  await session.sendKeys("Q");
  expect(await session.waitForExit({ timeoutMs: 10_000 })).toBe(0);
  expect(await found()).toHaveLength(1);
});

it("a damaged cache is said in one line and the start goes on from the server", async () => {
  const files = await cacheFiles();
  const path = join(dir, "cache", "termchat", files[0] ?? "cache-0000000000000000.json.gz");
  await writeFile(path, Buffer.from("\x1f\x8bnot really gzip"), { mode: 0o600 });
  session = await startApp(["--config", rc], { cols: 100, rows: 24, env: env() });
  const screen = await session.waitFor(/The local cache was not used: it is truncated or damaged/, { timeoutMs: 15_000 });
  expect(screen).not.toMatch(/at .*\.js:\d+/);
  await session.sendKeys("Q");
  expect(await session.waitForExit({ timeoutMs: 10_000 })).toBe(0);
  // Rewritten at exit: usable again.
  session = await startApp(["--config", rc], { cols: 100, rows: 24, env: env() });
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  expect(await session.capture()).not.toMatch(/cache was not used/);
});
