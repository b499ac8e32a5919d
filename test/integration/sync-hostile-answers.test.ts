/**
 * Answers no server should send, and that a hostile or broken one can: a gzip body that
 * decompresses to more than 1 GiB, an answer that trickles in a byte at a time, a batch of
 * 100,000 events. The update machine against the reference server through a proxy that sends
 * them: each answer is cut off or abandoned with one clear line (at once, not after the quiet
 * failures), the session goes on or reconnects, and a batch is applied whole. How long keys
 * wait meanwhile: `npm run bench` (BENCH_ONLY=hostile).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/http.js";
import { sendMessage } from "../../src/api/routes/messages.js";
import type { Store } from "../../src/model/store.js";
import { UpdateMachine, type ConnectionState } from "../../src/sync/update-machine.js";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";
import { gzipBomb, mixedEvents } from "../fixtures/hostile-content.js";
import { eventually } from "../fixtures/server.js";

let world: FaultyWorld | undefined;
const machines: UpdateMachine[] = [];

afterEach(async () => {
  for (const m of machines.splice(0)) await m.stop();
  await world?.close();
  world = undefined;
});

async function start(client: (w: FaultyWorld) => ApiClient = (w) => w.client()) {
  world = await faultyWorld({ heartbeatMs: 200, longpollTimeoutSecs: 1 });
  const machine = new UpdateMachine(client(world), {
    backoff: { baseMs: 20, maxMs: 200 },
    rebuildBackoff: { baseMs: 50, maxMs: 300 },
    quietFailures: 3,
    pollMarginMs: 500,
  });
  machines.push(machine);
  const states: ConnectionState[] = [];
  machine.onState((s) => states.push(s));
  return { w: world, machine, states };
}

const general = (store: Store) => [...store.channels.values()].find((c) => c.name === "general")!;

/** A message sent now reaches the machine's (current) store. */
async function stillLive(w: FaultyWorld, machine: UpdateMachine, content: string) {
  const channel = general(machine.store!);
  const sent = await sendMessage(w.direct("member"), { type: "stream", to: channel.stream_id, topic: "after", content });
  await eventually(() => machine.store!.messages.byId.has(sent.id) && machine.state.kind === "live", 15_000);
}

const reconnectingWith = (states: ConnectionState[], text: string) =>
  states.find((s) => s.kind === "reconnecting" && s.error.includes(text)) as Extract<ConnectionState, { kind: "reconnecting" }> | undefined;

describe("a compression bomb", () => {
  it("as an events answer: cut off at the limit with one clear line, said at once; the session re-registers and goes on", async () => {
    const { w, machine, states } = await start();
    await machine.start();
    const generation = machine.storeGeneration;
    w.proxy.inject({ method: "GET", path: "events", action: { kind: "bytes", body: gzipBomb(1100 * 1024 * 1024), headers: { "content-encoding": "gzip" } } });
    await eventually(() => reconnectingWith(states, "cut off"), 15_000);
    const said = reconnectingWith(states, "cut off")!;
    expect(said.attempt).toBe(1); // not after the quiet failures: at the first
    expect(said.error).toBe("GET events: answer over 64 MiB once decompressed, cut off");
    await eventually(() => machine.storeGeneration > generation && machine.state.kind === "live", 15_000);
    await stillLive(w, machine, "after the bomb");
  });

  it("as the register's answer: cut off, said, and registered again", async () => {
    world = await faultyWorld({ heartbeatMs: 200, longpollTimeoutSecs: 1 });
    world.proxy.inject({ method: "POST", path: "register", action: { kind: "bytes", body: gzipBomb(1100 * 1024 * 1024), headers: { "content-encoding": "gzip" } } });
    const machine = new UpdateMachine(world.client(), { rebuildBackoff: { baseMs: 50, maxMs: 300 }, pollMarginMs: 500 });
    machines.push(machine);
    const states: ConnectionState[] = [];
    machine.onState((s) => states.push(s));
    await machine.start();
    expect(reconnectingWith(states, "POST register: answer over 128 MiB once decompressed, cut off")).toBeDefined();
    await stillLive(world, machine, "after the register bomb");
  });
});

describe("a server that trickles", () => {
  it("an events answer a byte at a time is abandoned as too slow, said at once; the session goes on", async () => {
    const { w, machine, states } = await start((x) => x.client(undefined, { bodyLimits: { stallBytes: 1024, stallMs: 500 } }));
    await machine.start();
    w.proxy.inject({ method: "GET", path: "events", action: { kind: "trickle", bytes: 1, everyMs: 100 }, times: 2 });
    await eventually(() => reconnectingWith(states, "too slow"), 15_000);
    expect(reconnectingWith(states, "too slow")!.error).toBe("GET events: answer too slow (under 1024 bytes in 0.5 s), abandoned");
    await eventually(() => w.proxy.pendingFaults === 0, 15_000);
    await stillLive(w, machine, "after the trickle");
  });
});

describe("a batch of 100,000 events", () => {
  it("is applied whole: every message and every read flag, to the unread count they leave", async () => {
    const { w, machine } = await start();
    const store = await machine.start();
    const channel = general(store);
    const ben = [...store.users.values()].find((u) => u.full_name === "Ben Carter")!;
    const topic = "a long absence";
    const batch = mixedEvents(100_000, {
      channelId: channel.stream_id, channelName: channel.name, senderId: ben.user_id, senderName: ben.full_name,
      topic, firstMessageId: 10_000_000, timestamp: Math.floor(Date.now() / 1000) - 100_000,
    });
    w.proxy.inject({ method: "GET", path: "events", action: { kind: "events", events: () => batch.events } });
    await eventually(() => store.unreads.idsInTopic(channel.stream_id, topic).length === batch.unread && w.proxy.pendingFaults === 0, 30_000);
    expect(batch.messages).toBe(40_000);
    expect(store.unreads.countInTopic(channel.stream_id, topic)).toBe(batch.unread);
    expect(store.unreads.recount()).toEqual([]);
    // The same store all along (no rebuild), and the session goes on.
    expect(machine.store).toBe(store);
    await stillLive(w, machine, "after the batch");
  });
});
