/**
 * The update machine with a newer server (test/fixtures/newer-server) on fake time: its
 * normal answers never cause a rebuild, the kinds of event it does not know are noted once
 * each; and a body that fails the same way every time only rebuilds after the slower
 * backoff, never in a tight loop.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SchemaError } from "../../src/api/errors.js";
import { parseEvent } from "../../src/api/schemas/events.js";
import { registerResponseSchema } from "../../src/api/schemas/register.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { FakeClock, settle } from "../fixtures/fake-clock.js";
import { fakeSyncApi } from "../fixtures/fake-sync.js";
import { newerServer } from "../fixtures/newer-server.js";

const TEN_MINUTES = 600_000;

/** What `POST /register` gives the machine for this body: the parsed answer, or the SchemaError the api layer throws. */
function registerFrom(body: Record<string, unknown>) {
  const r = registerResponseSchema.safeParse(body);
  if (!r.success) throw new SchemaError("POST register", r.error.issues);
  return r.data;
}

let clock: FakeClock;
let fake: ReturnType<typeof fakeSyncApi>;
let machine: UpdateMachine;

/** `events`: every poll answers with these (parsed as the api layer does); default: the scripted polls. */
function start(register: () => Record<string, unknown> = newerServer.register, events?: Array<Record<string, unknown>>) {
  clock = new FakeClock(1_795_600_000_000);
  fake = fakeSyncApi({ register: () => registerFrom(register()) });
  if (events) {
    fake.api.getEvents = async (_c, p) => {
      fake.calls.push({ name: "getEvents", params: p });
      return { events: events.map((e) => parseEvent(e)) };
    };
  }
  machine = new UpdateMachine(fake.client, { clock, api: fake.api, random: () => 1 });
}

/** Runs the machine's timers for `ms` of fake time, one timer at a time (bounded). */
async function runFor(ms: number): Promise<number[]> {
  const delays: number[] = [];
  const end = clock.now() + ms;
  for (let i = 0; i < 1000; i++) {
    await settle();
    const next = clock.nextIn();
    if (next === undefined || clock.now() + next > end) break;
    delays.push((await clock.runNext()) ?? 0);
  }
  await clock.advance(Math.max(0, end - clock.now()));
  return delays;
}

afterEach(async () => {
  await machine.stop();
  await fake.client.close();
});

describe("a newer server's normal answers", () => {
  it("are applied without a rebuild; each unknown kind of event is noted once", async () => {
    start();
    const notes: string[][] = [];
    machine.onUnfamiliar((kinds) => notes.push([...kinds]));
    fake.polls(...newerServer.eventBatches().map((b) => ({ events: b.events })));
    const first = await machine.start();
    await settle();
    await runFor(TEN_MINUTES);

    expect(fake.count("register")).toBe(1);
    expect(machine.store).toBe(first);
    expect(machine.storeGeneration).toBe(1);
    expect(machine.state.kind).toBe("live");
    expect(first.lastEventId).toBe(53);
    expect(first.messages.byId.has(1006)).toBe(true);
    expect([...machine.unfamiliar]).toEqual(newerServer.unfamiliarKinds);
    // One call for the batch that brought them; the second batch (restart, heartbeat) brought none.
    expect(notes).toHaveLength(1);

    // The same kinds again are no news.
    fake.push([{ type: "thread_summary", op: "add", id: 54, message_id: 1006 }]);
    await settle();
    expect(notes).toHaveLength(1);
    expect(first.lastEventId).toBe(54);
  });

  it("a server that invents endless kinds is remembered only up to a bound", async () => {
    start();
    await machine.start();
    fake.push(Array.from({ length: 100 }, (_, i) => ({ type: `novel_${i}`, id: i })));
    await settle();
    expect(machine.unfamiliar.size).toBe(20);
    expect(machine.store?.lastEventId).toBe(99);
  });
});

describe("a body that always fails the same way", () => {
  it("a register the client cannot read is retried only after the slower backoff (1 s doubling to 60 s)", async () => {
    start(() => {
      const body = newerServer.register();
      (body.subscriptions as Array<Record<string, unknown>>)[1]!.stream_id = "firmware";
      return body;
    });
    const started = machine.start().catch((e: unknown) => e);
    const delays = await runFor(TEN_MINUTES);
    expect(delays.slice(0, 8)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(1000);
    // 10 minutes: 6 doubling waits (63 s), then one try a minute.
    expect(fake.count("register")).toBe(1 + delays.length);
    expect(fake.count("register")).toBeLessThanOrEqual(16);
    expect(machine.state).toMatchObject({ kind: "reconnecting", error: expect.stringContaining("subscriptions.1.stream_id") });
    await machine.stop();
    expect(await started).toBeInstanceOf(Error);
  });

  it("events the client cannot read, every time, rebuild only after the slower backoff", async () => {
    const broken = newerServer.eventBatches()[0]!.events.map((e) => (e.type === "message" ? { ...e, message: { ...(e.message as object), id: "1006" } } : e));
    start(newerServer.register, broken);
    await machine.start();
    const delays = await runFor(TEN_MINUTES);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(1000);
    expect(fake.count("register")).toBeGreaterThan(2);
    expect(fake.count("register")).toBeLessThanOrEqual(16);
    // Each rebuild is followed by one poll, no more: nothing polls or registers in between.
    expect(fake.count("getEvents")).toBe(fake.count("register"));
    expect(machine.state).toMatchObject({ kind: "reconnecting", error: expect.stringContaining("message.id") });
  });
});
