/**
 * Every account connected at once, without a screen: three runtimes in one
 * registry, each against its own reference server on 127.0.0.1. One whose
 * server is not there yet, one whose key is refused: the live one is ready
 * and on screen regardless; the refused one says so in its own state; the
 * absent one keeps trying and connects when its server comes up; a message
 * written for an organization while its server is down waits in that
 * account's outbox and arrives once.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/http.js";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { AccountsRegistry } from "../../src/sync/accounts-registry.js";
import { startAccounts } from "../../src/sync/accounts-start.js";
import { freePort } from "../e2e/app.js";
import { faultyWorld } from "../fixtures/fault-proxy.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let servers: ServerFixture[];
let dirs: string[];
let clients: ApiClient[];
let registry: AccountsRegistry;

beforeEach(() => {
  servers = [];
  dirs = [];
  clients = [];
  registry = new AccountsRegistry();
});

afterEach(async () => {
  await registry.closeAll(1500);
  await Promise.all(clients.map((c) => c.close()));
  for (const s of servers) await s.close().catch(() => undefined);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function serve(port = 0): Promise<ServerFixture> {
  const s = await withServer({ port, heartbeatMs: 200, longpollTimeoutSecs: 1 });
  servers.push(s);
  return s;
}

/** Opens an account (not started) for a site, as its owner would (the demo's key is the same on every start of a server). */
async function openAccount(name: string, site: string, email: string, apiKey: string) {
  const dir = await mkdtemp(join(tmpdir(), "termchat-start-"));
  dirs.push(dir);
  const client = new ApiClient({ site, email, apiKey });
  clients.push(client);
  return registry.open({
    client,
    name,
    account: { site: client.site.href, email },
    stateDir: dir,
    machine: { backoff: { baseMs: 20, maxMs: 200 }, pollMarginMs: 500 },
  });
}

describe("starting every account at once", () => {
  it("the live organization is ready and on screen while another is down and a third refuses the key; the down one connects when it comes up", async () => {
    const downPort = await freePort();
    const live = await serve();
    const refusing = await serve();
    const owner = live.owner;
    const down = await openAccount("down", `http://127.0.0.1:${downPort}`, owner.email, owner.apiKey);
    const bad = await openAccount("revoked", refusing.server.url, refusing.owner.email, "not-the-key");
    const ok = await openAccount("live", live.server.url, owner.email, owner.apiKey);
    expect(registry.active()?.name).toBe("down"); // the first opened, until one has something to draw

    const started = startAccounts(registry);
    expect(await started.firstReady).toBe(ok.handle.key);
    expect(registry.active()).toBe(ok.handle);
    expect(ok.handle.connection().kind).toBe("live");

    // The refused key is final and said on that account only.
    await eventually(() => bad.handle.connection().kind === "failed", 10_000);
    const state = bad.handle.connection();
    expect(state.kind === "failed" && state.error).toMatch(/refused our credentials/);
    expect(ok.handle.connection().kind).toBe("live");

    // The absent server: the account keeps trying, and is live once the server answers.
    await eventually(() => down.handle.connection().kind === "reconnecting", 10_000);
    await serve(downPort);
    await eventually(() => down.handle.connection().kind === "live", 15_000);
    expect(down.handle.store()?.realm.name).toBeTruthy();
    expect(registry.active()).toBe(ok.handle); // the screen did not jump to it
    const failures = await started.settled;
    expect(failures.map((f) => f.key)).toEqual([bad.handle.key]);
  });

  it("a message written while its organization is down waits in that account's outbox and is sent once it is back; the other organization is not held up", async () => {
    const port = await freePort();
    const first = await serve(port);
    const other = await serve();
    const a = await openAccount("first", first.server.url, first.owner.email, first.owner.apiKey);
    const b = await openAccount("other", other.server.url, other.owner.email, other.owner.apiKey);
    await startAccounts(registry).settled;
    const ben = first.server.accounts.find((x) => x.email.startsWith("ben@"))!;

    await first.close();
    servers = servers.filter((s) => s !== first);
    await eventually(() => a.handle.connection().kind === "reconnecting", 10_000);
    const entry = a.handle.actions.send({ type: "direct", userIds: [ben.userId] }, "written while the server was away");
    expect(entry).toBeDefined();
    // The other organization sends meanwhile, at once.
    const sent = b.handle.actions.send({ type: "stream", channelId: [...b.handle.store()!.channels.values()][0]!.stream_id, topic: "meanwhile" }, "the other is fine");
    await eventually(() => b.handle.store()!.messages.byId.size > 0 && [...b.handle.store()!.messages.byId.values()].some((m) => m.content === "the other is fine"), 10_000);
    expect(sent).toBeDefined();

    const back = await serve(port);
    await eventually(() => a.handle.connection().kind === "live", 15_000);
    const reader = back.client("ben");
    const narrow = [{ operator: "dm", operand: [first.owner.userId] }];
    const landed = async () => (await getMessages(reader, { anchor: "newest", num_before: 20, num_after: 0, narrow, apply_markdown: false })).messages.filter((m) => m.content === "written while the server was away");
    for (let i = 0; i < 300 && (await landed()).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    // Given time to send it again, it is still there once.
    await eventually(() => a.handle.pendingIn({ kind: "dm", userIds: [ben.userId] }).length === 0, 10_000);
    expect(await landed()).toHaveLength(1);
  });

  it("disconnect ends one account's connection and keeps what it showed; reconnect opens it again with a new handle, live, told on the registry's feed", async () => {
    const one = await serve();
    const two = await serve();
    const a = await openAccount("one", one.server.url, one.owner.email, one.owner.apiKey);
    const b = await openAccount("two", two.server.url, two.owner.email, two.owner.apiKey);
    await startAccounts(registry).settled;
    const told: string[] = [];
    registry.subscribe((c) => told.push(`${c.kind} ${"key" in c ? c.key : ""}`));

    await registry.disconnect(b.handle.key);
    expect(b.handle.connection().kind).toBe("stopped");
    expect(b.handle.store()).toBeDefined(); // what it showed stays readable
    expect(a.handle.connection().kind).toBe("live");

    expect(await registry.reconnect(b.handle.key)).toBe(true);
    const again = registry.get(b.handle.key)!;
    expect(again).not.toBe(b.handle);
    // Opened again; and, when it is the one on screen (it answered first), on screen again with its new handle.
    const onScreen = registry.active()?.key === b.handle.key;
    expect(told).toEqual(onScreen ? [`opened ${b.handle.key}`, `active ${b.handle.key}`] : [`opened ${b.handle.key}`]);
    await eventually(() => again.connection().kind === "live", 10_000);
    const ben = two.server.accounts.find((x) => x.email.startsWith("ben@"))!;
    again.actions.send({ type: "direct", userIds: [ben.userId] }, "after reconnecting");
    await eventually(() => [...again.store()!.messages.byId.values()].some((m) => m.content === "after reconnecting"), 10_000);
    expect(await registry.reconnect("no-such-account")).toBe(false);
  });

  it("a slow organization (its register held) holds up neither the first frame's account nor the others' events; it is ready once its server answers", async () => {
    const world = await faultyWorld({ heartbeatMs: 200, longpollTimeoutSecs: 1 });
    try {
      let answer!: () => void;
      world.proxy.inject({ method: "POST", path: "register", action: { kind: "hold", until: new Promise<void>((r) => (answer = r)) } });
      const fast = await serve();
      const slow = await openAccount("slow", world.proxy.url, world.owner.email, world.owner.apiKey);
      const ok = await openAccount("fast", fast.server.url, fast.owner.email, fast.owner.apiKey);
      const started = startAccounts(registry);
      expect(await started.firstReady).toBe(ok.handle.key);
      expect(slow.handle.connection().kind).toBe("connecting");
      // The fast one is live and hears its events meanwhile.
      const id = (await sendMessage(fast.client("ben"), { type: "direct", to: [fast.owner.userId], content: "while the other is slow" })).id;
      await eventually(() => ok.handle.store()!.messages.byId.has(id), 10_000);
      answer();
      await eventually(() => slow.handle.connection().kind === "live", 10_000);
      expect(await started.settled).toEqual([]);
    } finally {
      await registry.closeAll(1500);
      await world.close();
    }
  });
});
