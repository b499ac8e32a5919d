/**
 * Several accounts in one process, without a screen: two account runtimes in
 * one registry, each against its own reference server on 127.0.0.1. Each
 * keeps its own store, feed, upkeep and notifications; the registry tells
 * what opens, closes and becomes active; one organization going away leaves
 * the other fully live.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sendMessage } from "../../src/api/routes/messages.js";
import type { Narrow } from "../../src/model/narrow.js";
import type { AccountChange, AccountHandle } from "../../src/sync/account-handle.js";
import type { AccountRuntime } from "../../src/sync/account-runtime.js";
import { AccountsRegistry, type RegistryChange } from "../../src/sync/accounts-registry.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let servers: ServerFixture[];
let dirs: string[];
let registry: AccountsRegistry;

beforeEach(async () => {
  servers = [await withServer({ heartbeatMs: 200, longpollTimeoutSecs: 1 }), await withServer({ heartbeatMs: 200, longpollTimeoutSecs: 1 })];
  dirs = [];
  registry = new AccountsRegistry();
});

afterEach(async () => {
  await registry.closeAll(1500);
  for (const s of servers) await s.close().catch(() => undefined);
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** Opens the owner's account of `server` in the registry and connects it; its feed recorded. */
async function openOwner(server: ServerFixture): Promise<{ runtime: AccountRuntime; handle: AccountHandle; feed: AccountChange[] }> {
  const dir = await mkdtemp(join(tmpdir(), "termchat-registry-"));
  dirs.push(dir);
  const client = server.client();
  const { runtime, handle } = await registry.open({
    client,
    account: { site: client.site.href, email: client.email },
    stateDir: dir,
    machine: { backoff: { baseMs: 20, maxMs: 200 }, pollMarginMs: 500 },
    notifyIntervalMs: 50,
  });
  const feed: AccountChange[] = [];
  handle.subscribe((c) => feed.push(c));
  await runtime.start();
  return { runtime, handle, feed };
}

function channelNamed(handle: AccountHandle, name: string): number {
  const c = [...handle.store()!.channels.values()].find((s) => s.name === name);
  if (!c) throw new Error(`not subscribed to ${name}`);
  return c.stream_id;
}

/** A direct message to the owner from another person of the organization. */
async function dmToOwner(server: ServerFixture, text: string): Promise<number> {
  const r = await sendMessage(server.client("ben"), { type: "direct", to: [server.owner.userId], content: text });
  return r.id;
}

describe("an accounts registry with two organizations", () => {
  it("holds both, each with its own store; the first opened is on screen; the feed says what opened and what is active", async () => {
    const told: RegistryChange[] = [];
    registry.subscribe((c) => told.push(c));
    const a = await openOwner(servers[0]!);
    const b = await openOwner(servers[1]!);
    expect(registry.list().map((h) => h.key)).toEqual([a.handle.key, b.handle.key]);
    expect(a.handle.key).not.toBe(b.handle.key);
    expect(registry.active()).toBe(a.handle);
    expect(told).toEqual([
      { kind: "opened", key: a.handle.key },
      { kind: "active", key: a.handle.key },
      { kind: "opened", key: b.handle.key },
    ]);
    expect(a.handle.store()).toBeDefined();
    expect(b.handle.store()).toBeDefined();
    expect(a.handle.store()).not.toBe(b.handle.store());
    expect(registry.runtime(b.handle.key)).toBe(b.runtime);

    registry.setActive(b.handle.key);
    expect(registry.active()).toBe(b.handle);
    expect(told.at(-1)).toEqual({ kind: "active", key: b.handle.key });
  });

  it("a message in one organization reaches only its account: its store, its feed, its notification", async () => {
    const a = await openOwner(servers[0]!);
    const b = await openOwner(servers[1]!);
    const id = await dmToOwner(servers[1]!, "only for the second organization");
    await eventually(() => b.feed.some((c) => c.kind === "notify"), 5000);
    const note = b.feed.find((c) => c.kind === "notify");
    expect(note?.kind === "notify" && note.note.body).toBe("only for the second organization");
    expect(b.handle.store()!.messages.byId.get(id)?.content).toBe("only for the second organization");
    // The first organization heard nothing of it (the same id may well name another message there).
    expect(a.feed.some((c) => c.kind === "notify")).toBe(false);
    expect([...a.handle.store()!.messages.byId.values()].some((m) => m.content === "only for the second organization")).toBe(false);
  });

  it("what one account's screen shows is kept loaded and marked read in that account only", async () => {
    const a = await openOwner(servers[0]!);
    const b = await openOwner(servers[1]!);
    const narrow: Narrow = { kind: "channel", channelId: channelNamed(b.handle, "general") };
    b.handle.view.set({ narrow, focus: "messages" });
    await eventually(() => b.handle.store()!.messages.list(narrow)?.status === "idle" && b.handle.store()!.messages.list(narrow)!.ids.length > 0, 5000);
    expect(a.handle.store()!.messages.list({ kind: "channel", channelId: channelNamed(a.handle, "general") })).toBeUndefined();

    // Shown whole in the pane, unread in b: b marks it read on its server; a is untouched.
    const id = await dmToOwner(servers[1]!, "read me in b");
    const ben = servers[1]!.server.accounts.find((x) => x.email.startsWith("ben@"))!;
    const dm: Narrow = { kind: "dm", userIds: [ben.userId] };
    await eventually(() => b.handle.store()!.unreads.has(id), 5000);
    const aUnread = a.handle.store()!.unreads.size;
    b.handle.view.set({ narrow: dm, focus: "messages", shown: [id], settled: true, covered: false });
    await eventually(() => !b.handle.store()!.unreads.has(id), 5000);
    expect(a.handle.store()!.unreads.size).toBe(aUnread);
  });

  it("closing one passes the screen to the other, which stays live; an organization going away leaves the other working", async () => {
    const told: RegistryChange[] = [];
    registry.subscribe((c) => told.push(c));
    const a = await openOwner(servers[0]!);
    const b = await openOwner(servers[1]!);

    // The first organization's server goes away: its account says so in time, the second keeps going.
    await servers[0]!.close();
    const id = await dmToOwner(servers[1]!, "still here");
    await eventually(() => b.handle.store()!.messages.byId.has(id), 5000);
    expect(b.handle.connection().kind).toBe("live");
    await eventually(() => a.handle.connection().kind === "reconnecting", 10_000);

    await registry.close(a.handle.key);
    expect(registry.list()).toEqual([b.handle]);
    expect(registry.active()).toBe(b.handle);
    expect(told.slice(-2)).toEqual([
      { kind: "active", key: b.handle.key },
      { kind: "closed", key: a.handle.key },
    ]);
    expect(a.runtime.machine.stopped).toBe(true);
    const after = await dmToOwner(servers[1]!, "after the other closed");
    await eventually(() => b.handle.store()!.messages.byId.has(after), 5000);
  });
});
