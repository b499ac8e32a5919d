/**
 * The sync layer against the reference server through a fault-injecting
 * proxy: resets, 500s, 429 + Retry-After, hung and non-JSON answers, the
 * server stopped and restarted on the same port, queues garbage-collected.
 * Afterwards the store equals a fresh register, loaded narrows hold every
 * message once, and the outbox delivers exactly once. Every wait is bounded.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/http.js";
import { register } from "../../src/api/routes/events.js";
import { getMessages, sendMessage, updateMessageFlags } from "../../src/api/routes/messages.js";
import { narrowToApi, type Narrow } from "../../src/model/narrow.js";
import type { Store } from "../../src/model/store.js";
import { Commands } from "../../src/sync/commands.js";
import { draftKey } from "../../src/sync/draft-journal.js";
import { Outbox } from "../../src/sync/outbox.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { UpdateMachine, type ConnectionState, type UpdateMachineOptions } from "../../src/sync/update-machine.js";
import { CLIENT_CAPABILITIES, FETCH_EVENT_TYPES } from "../../src/sync/register-params.js";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";
import { eventually } from "../fixtures/server.js";

const FAST: UpdateMachineOptions = {
  backoff: { baseMs: 20, maxMs: 200 },
  rebuildBackoff: { baseMs: 50, maxMs: 300 },
  quietFailures: 2,
  pollMarginMs: 500,
};

let world: FaultyWorld;
let dir: string;
const cleanups: Array<() => Promise<unknown>> = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-faults-"));
});

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  await world?.close();
  await rm(dir, { recursive: true, force: true });
});

async function open(opts: Parameters<typeof faultyWorld>[0] = {}) {
  world = await faultyWorld({ heartbeatMs: 200, longpollTimeoutSecs: 1, ...opts });
}

function machineFor(client: ApiClient, opts: UpdateMachineOptions = {}) {
  const m = new UpdateMachine(client, { ...FAST, ...opts });
  const states: ConnectionState["kind"][] = [];
  m.onState((s) => states.push(s.kind));
  cleanups.push(() => m.stop());
  return { machine: m, states };
}

function general(store: Store) {
  return [...store.channels.values()].find((c) => c.name === "general")!;
}

/** The store agrees with a fresh register: unreads and subscriptions. */
async function expectStoreMatchesServer(machine: UpdateMachine) {
  const fresh = await register(world.direct(), {
    apply_markdown: false,
    fetch_event_types: [...FETCH_EVENT_TYPES],
    client_capabilities: CLIENT_CAPABILITIES,
  });
  const want = [
    ...(fresh.unread_msgs?.streams ?? []).flatMap((s) => s.unread_message_ids),
    ...(fresh.unread_msgs?.pms ?? []).flatMap((s) => s.unread_message_ids),
    ...(fresh.unread_msgs?.huddles ?? []).flatMap((s) => s.unread_message_ids),
  ].sort((a, b) => a - b);
  const subs = (list: Array<{ stream_id: number; is_muted?: boolean; pin_to_top?: boolean; color?: string }>) =>
    list.map((s) => [s.stream_id, s.is_muted ?? false, s.pin_to_top ?? false, s.color]).sort((a, b) => Number(a[0]) - Number(b[0]));
  await eventually(() => {
    const have = [...machine.store!.unreads.allIds()].sort((a, b) => a - b);
    return JSON.stringify(have) === JSON.stringify(want);
  }, 5000).catch(() => undefined);
  expect([...machine.store!.unreads.allIds()].sort((a, b) => a - b)).toEqual(want);
  expect(subs([...machine.store!.channels.values()])).toEqual(subs(fresh.subscriptions));
}

/** A loaded narrow holds exactly the server's messages of its range: none missing, none twice. */
async function expectNarrowComplete(store: Store, narrow: Narrow) {
  const list = store.messages.list(narrow)!;
  expect(new Set(list.ids).size).toBe(list.ids.length);
  expect([...list.ids].sort((a, b) => a - b)).toEqual(list.ids);
  const first = list.ids[0]!;
  const res = await getMessages(world.direct(), {
    anchor: first,
    num_before: 0,
    num_after: 1000,
    narrow: narrowToApi(narrow),
    apply_markdown: false,
  });
  expect(res.found_newest).toBe(true);
  expect(list.ids).toEqual(res.messages.map((m) => m.id));
}

async function countOnServer(narrow: Narrow, content: string): Promise<number> {
  const res = await getMessages(world.direct(), { anchor: "newest", num_before: 200, num_after: 0, narrow: narrowToApi(narrow), apply_markdown: false });
  return res.messages.filter((m) => m.content === content).length;
}

describe("the poll loop under faults", () => {
  it("rides out resets, 500s, a 429 with Retry-After, a non-JSON body and a hung poll; then equals a fresh register", async () => {
    await open();
    const { machine, states } = machineFor(world.client());
    const store = await machine.start();
    const channel = general(store);
    const narrow: Narrow = { kind: "topic", channelId: channel.stream_id, topic: "faults" };
    const commands = new Commands(machine);
    cleanups.push(async () => commands.dispose());
    await commands.loadNarrow(narrow);

    world.proxy.inject(
      { method: "GET", path: "events", action: { kind: "reset" }, times: 2 },
      { method: "GET", path: "events", action: { kind: "status", status: 500 }, times: 2 },
      { method: "GET", path: "events", action: { kind: "status", status: 429, headers: { "retry-after": "1" }, body: { result: "error", code: "RATE_LIMIT_HIT", msg: "slow down" } } },
      { method: "GET", path: "events", action: { kind: "garbage" } },
      { method: "GET", path: "events", action: { kind: "hang" } },
    );
    // Meanwhile the world changes: someone writes, we read elsewhere.
    const member = world.direct("member");
    for (let i = 0; i < 5; i++) await sendMessage(member, { type: "stream", to: channel.stream_id, topic: "faults", content: `during faults ${i}` });
    await updateMessageFlags(world.direct(), { messages: store.unreads.allIds().slice(0, 3), op: "add", flag: "read" });

    await eventually(() => world.proxy.pendingFaults === 0, 15_000);
    await eventually(() => machine.state.kind === "live" && machine.store!.messages.list(narrow)!.ids.length >= 5, 15_000);
    expect(states).toContain("reconnecting");
    const rateLimited = world.proxy.log.findIndex((r) => r.status === 429);
    expect(rateLimited).toBeGreaterThan(-1);

    await expectStoreMatchesServer(machine);
    await expectNarrowComplete(machine.store!, narrow);
  });

  it("a 401 while polling stops with a message and no retry loop", async () => {
    await open();
    const { machine } = machineFor(world.client());
    await machine.start();
    world.proxy.inject({
      method: "GET",
      path: "events",
      action: { kind: "status", status: 401, body: { result: "error", code: "UNAUTHORIZED", msg: "Invalid API key" } },
    });
    await eventually(() => machine.state.kind === "failed", 5000);
    expect(machine.state).toMatchObject({ error: expect.stringContaining("refused our credentials") });
    const polls = world.proxy.count("GET", "events");
    await new Promise((r) => setTimeout(r, 500));
    expect(world.proxy.count("GET", "events")).toBe(polls);
    expect(world.proxy.count("POST", "register")).toBe(1);
  });
});

describe("losing the queue", () => {
  it("garbage-collected while unreachable: re-registers and refetches loaded narrows around the anchor; nothing missing or twice", async () => {
    await open({ queueIdleMs: 300 });
    const { machine } = machineFor(world.client());
    const first = await machine.start();
    const channel = general(first);
    const member = world.direct("member");
    for (let i = 0; i < 30; i++) await sendMessage(member, { type: "stream", to: channel.stream_id, topic: "gc", content: `before ${i}` });
    const narrow: Narrow = { kind: "topic", channelId: channel.stream_id, topic: "gc" };
    const commands = new Commands(machine);
    cleanups.push(async () => commands.dispose());
    await commands.loadNarrow(narrow);
    const before = [...first.messages.list(narrow)!.ids];
    expect(before.length).toBe(30);
    const anchor = before[10]!;
    machine.setAnchor(narrow, anchor);
    const swaps: string[] = [];
    machine.onStore((_s, info) => swaps.push(info.reason));

    await world.proxy.refuse();
    for (let i = 0; i < 3; i++) await sendMessage(member, { type: "stream", to: channel.stream_id, topic: "gc", content: `while away ${i}` });
    await new Promise((r) => setTimeout(r, 700)); // the queue idles out
    await world.proxy.accept();

    await eventually(() => swaps.includes("queue-lost") && machine.state.kind === "live", 10_000);
    const fresh = machine.store!;
    expect(fresh).not.toBe(first);
    const ids = fresh.messages.list(narrow)!.ids;
    for (const id of before) expect(ids).toContain(id);
    expect(ids).toContain(anchor);
    expect(ids.length).toBe(33);
    await expectNarrowComplete(fresh, narrow);

    // Live again: a new message lands once.
    const m = await sendMessage(member, { type: "stream", to: channel.stream_id, topic: "gc", content: "after" });
    await eventually(() => fresh.messages.list(narrow)!.ids.includes(m.id), 5000);
    await expectNarrowComplete(fresh, narrow);
    await expectStoreMatchesServer(machine);
  });
});

describe("the outbox under faults", () => {
  async function outboxFor(machine: UpdateMachine, o: { settleMs?: number; sendTimeoutMs?: number } = {}) {
    const box = await Outbox.open(machine, { dir, account: { site: world.proxy.url, email: world.owner.email }, settleMs: 300, ...o });
    cleanups.push(() => box.dispose());
    return box;
  }

  it("an answer lost after the server acted: settled by the echo, never sent twice", async () => {
    await open();
    const { machine } = machineFor(world.client());
    const store = await machine.start();
    const box = await outboxFor(machine);
    const narrow: Narrow = { kind: "topic", channelId: general(store).stream_id, topic: "outbox" };
    world.proxy.inject({ method: "POST", path: "messages", action: { kind: "reset-after-forward" } });
    const e = box.enqueue({ type: "stream", channelId: general(store).stream_id, topic: "outbox" }, "reset after the server acted");
    const outcome = await box.settled(e.id);
    expect(outcome.kind).toBe("sent");
    expect(world.proxy.count("POST", "messages")).toBe(1);
    expect(await countOnServer(narrow, "reset after the server acted")).toBe(1);
  });

  it("a send that hangs after the server acted times out, then is settled by its echo", async () => {
    await open();
    const { machine } = machineFor(world.client());
    const store = await machine.start();
    const box = await outboxFor(machine, { sendTimeoutMs: 500, settleMs: 60_000 });
    const narrow: Narrow = { kind: "topic", channelId: general(store).stream_id, topic: "outbox" };
    world.proxy.inject({ method: "POST", path: "messages", action: { kind: "hang-after-forward" } });
    const e = box.enqueue({ type: "stream", channelId: general(store).stream_id, topic: "outbox" }, "hung after the server acted");
    await eventually(() => box.all()[0]?.state === "unknown" || box.all().length === 0, 5000);
    expect(await box.settled(e.id)).toMatchObject({ kind: "sent" });
    expect(world.proxy.count("POST", "messages")).toBe(1);
    expect(await countOnServer(narrow, "hung after the server acted")).toBe(1);
  });

  it("an answer lost and the queue gone: settled from the history, never sent twice", async () => {
    await open();
    const { machine } = machineFor(world.client());
    const store = await machine.start();
    const box = await outboxFor(machine);
    const channel = general(store);
    const narrow: Narrow = { kind: "topic", channelId: channel.stream_id, topic: "outbox" };
    world.proxy.inject({
      method: "POST",
      path: "messages",
      action: {
        kind: "reset-after-forward",
        // The queue is gone before the message lands: no echo can come.
        before: async () => {
          await fetch(`http://127.0.0.1:${world.server!.port}/api/v1/events?queue_id=${encodeURIComponent(store.queueId!)}`, {
            method: "DELETE",
            headers: { authorization: "Basic " + Buffer.from(`${world.owner.email}:${world.owner.apiKey}`).toString("base64") },
          });
        },
      },
    });
    const e = box.enqueue({ type: "stream", channelId: channel.stream_id, topic: "outbox" }, "queue lost while sending");
    expect(await box.settled(e.id)).toMatchObject({ kind: "sent" });
    expect(world.proxy.count("POST", "messages")).toBe(1);
    expect(world.proxy.log.some((r) => r.path === "messages" && r.method === "GET")).toBe(true);
    expect(await countOnServer(narrow, "queue lost while sending")).toBe(1);
  });

  it("a send dropped before it reached the server is sent again, once", async () => {
    await open();
    const { machine } = machineFor(world.client());
    const store = await machine.start();
    const box = await outboxFor(machine);
    const narrow: Narrow = { kind: "topic", channelId: general(store).stream_id, topic: "outbox" };
    world.proxy.inject({ method: "POST", path: "messages", action: { kind: "reset" } });
    const e = box.enqueue({ type: "stream", channelId: general(store).stream_id, topic: "outbox" }, "dropped on the way");
    expect(await box.settled(e.id)).toMatchObject({ kind: "sent" });
    expect(world.proxy.count("POST", "messages")).toBe(2);
    expect(await countOnServer(narrow, "dropped on the way")).toBe(1);
  });
});

describe("the server goes away and comes back", () => {
  it("a message written while the server is down, and the compose text, survive a client restart; the message arrives exactly once", async () => {
    await open();
    const account = { site: world.proxy.url, email: world.owner.email };
    const first = await AccountRuntime.open({ client: world.client(), account, stateDir: dir, machine: FAST, outbox: { settleMs: 300 } });
    cleanups.push(() => first.dispose());
    const store = await first.machine.start();
    const channel = general(store);
    const target = { type: "stream" as const, channelId: channel.stream_id, topic: "outage" };
    const other = { type: "direct" as const, userIds: [world.accounts.find((a) => a.role === "member")!.userId] };

    await world.stopServer();
    first.composeChanged(other, "half a thought, never sent");
    const entry = first.send(target, "written while the server was down");
    await eventually(() => first.outbox.all()[0]?.state !== "sending", 5000);
    await first.dispose(); // the client exits (or dies) while offline

    const second = await AccountRuntime.open({ client: world.client(), account, stateDir: dir, machine: FAST, outbox: { settleMs: 300 } });
    cleanups.push(() => second.dispose());
    expect(second.outbox.all().map((e) => e.id)).toEqual([entry.id]);
    expect(second.composeOpened(other)).toBe("half a thought, never sent");
    expect(second.journal.get(draftKey(target))).toBeUndefined();

    const started = second.machine.start();
    await new Promise((r) => setTimeout(r, 300));
    await world.startServer();
    await started;
    expect(await second.outbox.settled(entry.id)).toMatchObject({ kind: "sent" });
    const narrow: Narrow = { kind: "topic", channelId: channel.stream_id, topic: "outage" };
    expect(await countOnServer(narrow, "written while the server was down")).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(await countOnServer(narrow, "written while the server was down")).toBe(1);
    await expectStoreMatchesServer(second.machine);
  });

  it("while running: the queue is gone after the restart, the store is rebuilt and equals a fresh register", async () => {
    await open();
    const { machine, states } = machineFor(world.client());
    const first = await machine.start();
    await world.stopServer();
    await eventually(() => machine.state.kind === "reconnecting", 5000);
    await world.startServer();
    await eventually(() => machine.store !== first && machine.state.kind === "live", 10_000);
    expect(states).toEqual(expect.arrayContaining(["live", "reconnecting"]));
    await expectStoreMatchesServer(machine);
  });
});
