/**
 * The update machine on fake time and scripted endpoints: backoff figures,
 * dont_block, the quiet period before "reconnecting", retry-after, queue
 * loss (rebuild + refetch of loaded narrows around the anchor), malformed
 * answers (rebuild after the slower backoff), 401, nudge, stop.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError, NetworkError, SchemaError, ServerError } from "../../src/api/errors.js";
import type { Store } from "../../src/model/store.js";
import type { RegisterLooks } from "../../src/api/routes/events.js";
import { FirstPoll, registerLooks } from "../../src/sync/first-poll.js";
import { UpdateMachine, type ConnectionState } from "../../src/sync/update-machine.js";
import { FakeClock, settle } from "../fixtures/fake-clock.js";
import { fakeSyncApi } from "../fixtures/fake-sync.js";
import * as eg from "../fixtures/example.js";

let clock: FakeClock;
let fake: ReturnType<typeof fakeSyncApi>;
let machine: UpdateMachine;
let states: ConnectionState[];

const netErr = () => new NetworkError("GET events: cannot reach the server (ECONNRESET)", "connect");

function polls() {
  return fake.calls.filter((c) => c.name === "getEvents").map((c) => c.params as { dont_block?: boolean; queue_id: string });
}

beforeEach(() => {
  eg.resetIds();
  clock = new FakeClock();
  fake = fakeSyncApi();
  machine = new UpdateMachine(fake.client, { clock, api: fake.api, random: () => 1 });
  states = [];
  machine.onState((s) => states.push(s));
});

afterEach(async () => {
  await machine.stop();
  await fake.client.close();
});

describe("registering", () => {
  it("declares capabilities, event types and raw Markdown", async () => {
    await machine.start();
    const p = fake.calls.find((c) => c.name === "register")!.params as Record<string, unknown>;
    expect(p).toMatchObject({ apply_markdown: false, slim_presence: true });
    expect(p["client_capabilities"]).toMatchObject({ stream_typing_notifications: true, empty_topic_name: true, bulk_message_deletion: true });
    expect(p["event_types"]).toEqual(expect.arrayContaining(["message", "update_message_flags", "subscription", "drafts", "presence", "typing"]));
    expect(p["fetch_event_types"]).toEqual(expect.arrayContaining(["message", "update_message_flags", "subscription", "drafts"]));
    // The users are fetched apart (sync/user-list.ts); changes to them still come as events.
    expect(p["fetch_event_types"]).not.toContain("realm_user");
    expect(p["event_types"]).toContain("realm_user");
    expect(machine.state.kind).toBe("live");
  });

  it("times the poll out after the server's long-poll period plus a margin", async () => {
    fake.registers(eg.registerResponse({ queue_id: "q", event_queue_longpoll_timeout_seconds: 20 }));
    let timeoutMs: number | undefined;
    const real = fake.api.getEvents;
    fake.api.getEvents = (c, p, o) => {
      timeoutMs = o?.timeoutMs;
      return real(c, p, o);
    };
    const m = new UpdateMachine(fake.client, { clock, api: fake.api });
    await m.start();
    await settle();
    expect(timeoutMs).toBe(35_000);
    await m.stop();
  });
});

describe("the first poll", () => {
  function recordPolls(order: string[]) {
    const real = fake.api.getEvents;
    fake.api.getEvents = (c, p, o) => {
      order.push(`poll ${p.queue_id} ${p.last_event_id}`);
      o?.signal?.addEventListener("abort", () => order.push(`poll ${p.queue_id} stopped`), { once: true });
      return real(c, p, o);
    };
  }
  /** A machine on the endpoints as the test has changed them. */
  function remake() {
    machine = new UpdateMachine(fake.client, { clock, api: fake.api, random: () => 1 });
  }

  it("leaves as soon as the register's answer is parsed, before it is checked, and is the loop's first poll", async () => {
    const order: string[] = [];
    recordPolls(order);
    fake.api.register = async (_c, _p, _s, looks) => {
      const reg = eg.registerResponse({ queue_id: "q-early", last_event_id: 7 });
      await looks?.beforeCheck?.(JSON.parse(JSON.stringify(reg)));
      order.push("checked");
      return reg;
    };
    remake();
    await machine.start();
    await settle();
    expect(order).toEqual(["poll q-early 7", "checked"]);
    expect(machine.state.kind).toBe("live");
  });

  /**
   * A start whose first register fails once `failing` has looked at it, and whose second answers
   * `queue` (looked at before its check): the polls sent, in order.
   */
  async function startAfterAFailedRegister(failing: (looks: RegisterLooks | undefined) => Promise<unknown> | unknown, queue: { queue_id: string; last_event_id: number }) {
    const order: string[] = [];
    recordPolls(order);
    let registers = 0;
    fake.api.register = async (_c, _p, _s, looks) => {
      if (++registers === 1) {
        await failing(looks);
        throw new SchemaError("POST register", "the answer is not what the client reads");
      }
      const reg = eg.registerResponse(queue);
      await looks?.beforeCheck?.(JSON.parse(JSON.stringify(reg)));
      return reg;
    };
    remake();
    const started = machine.start();
    await clock.runNext();
    await started;
    await settle();
    return order;
  }

  it("an answer the check then refuses stops that poll and frees its queue; the next register is polled", async () => {
    const refused = JSON.parse(JSON.stringify(eg.registerResponse({ queue_id: "q-1", last_event_id: 3 }))) as unknown;
    const order = await startAfterAFailedRegister((looks) => looks?.beforeCheck?.(refused), { queue_id: "q-2", last_event_id: 3 });
    expect(order).toEqual(["poll q-1 3", "poll q-1 stopped", "poll q-2 3"]);
    expect(fake.calls.filter((c) => c.name === "deleteQueue").map((c) => c.params)).toEqual(["q-1"]);
    expect(machine.store?.queueId).toBe("q-2");
  });

  it("leaves from a look at the answer's first bytes while the rest arrives; the later looks send no second poll", async () => {
    const order: string[] = [];
    recordPolls(order);
    fake.api.register = async (_c, _p, _s, looks) => {
      const text = JSON.stringify({ queue_id: "q-head", last_event_id: 11, svc_feature_level: 400, realm_users: [] });
      const bytes = Buffer.from(text);
      const at = text.indexOf("svc_feature_level");
      // The first piece stops inside the queue's number: it may go on, so nothing is sent yet.
      order.push(`first piece: ${looks?.lookAtHead?.(bytes.subarray(0, text.indexOf("11") + 1)) ? "done" : "more"}`);
      order.push(`second piece: ${looks?.lookAtHead?.(bytes.subarray(0, at)) ? "done" : "more"}`);
      await settle();
      order.push("answer in");
      await looks?.beforeParse?.(bytes);
      const reg = eg.registerResponse({ queue_id: "q-head", last_event_id: 11 });
      await looks?.beforeCheck?.(JSON.parse(JSON.stringify(reg)));
      return reg;
    };
    remake();
    await machine.start();
    await settle();
    expect(order).toEqual(["first piece: more", "second piece: done", "poll q-head 11", "answer in"]);
    expect(machine.state.kind).toBe("live");
  });

  it("from the first bytes it leaves only while another connection is idle, else at a later piece", async () => {
    const polls: string[] = [];
    const poll = new FirstPoll({
      client: fake.client,
      getEvents: (_c, p) => (polls.push(`poll ${p.queue_id} ${p.last_event_id}`), new Promise(() => undefined)),
      signal: new AbortController().signal,
      checkStopped: () => undefined,
    });
    let idle = false;
    const looks = registerLooks(poll, undefined, () => idle);
    const head = Buffer.from('{"queue_id":"q-1","last_event_id":4,"realm":{');
    expect(looks.lookAtHead?.(head)).toBe(false); // asked again at the next piece
    await settle();
    expect(polls).toEqual([]);
    idle = true;
    expect(looks.lookAtHead?.(head)).toBe(true);
    await settle();
    expect(polls).toEqual(["poll q-1 4"]);
  });

  it("a poll on its way when the register fails is not sent", async () => {
    const head = Buffer.from('{"queue_id":"q-cut","last_event_id":2,"realm":{');
    const order = await startAfterAFailedRegister((looks) => looks?.lookAtHead?.(head), { queue_id: "q-whole", last_event_id: 5 });
    expect(order).toEqual(["poll q-whole 5"]);
    expect(fake.calls.filter((c) => c.name === "deleteQueue").map((c) => c.params)).toEqual(["q-cut"]);
  });

  it("leaves from a look at the answer's bytes, before the parse; a parse that contradicts the look polls the parsed queue instead", async () => {
    const order: string[] = [];
    recordPolls(order);
    const answers = [
      { bytes: { queue_id: "q-bytes", last_event_id: 4 }, parsed: { queue_id: "q-bytes", last_event_id: 4 } },
      { bytes: { queue_id: "q-seen", last_event_id: 4 }, parsed: { queue_id: "q-real", last_event_id: 9 } },
    ];
    const seen: string[][] = [];
    for (const { bytes, parsed } of answers) {
      order.length = 0;
      fake.api.register = async (_c, _p, _s, looks) => {
        await looks?.beforeParse?.(Buffer.from(JSON.stringify({ result: "success", msg: "", ...bytes, realm_users: [] })));
        order.push("parsed");
        const reg = eg.registerResponse(parsed);
        await looks?.beforeCheck?.(JSON.parse(JSON.stringify(reg)));
        return reg;
      };
      remake();
      await machine.start();
      await settle();
      seen.push([...order]);
      await machine.stop();
    }
    expect(seen).toEqual([
      ["poll q-bytes 4", "parsed"],
      ["poll q-seen 4", "parsed", "poll q-seen stopped", "poll q-real 9"],
    ]);
    // The queue only looked at is not this client's to free.
    expect(fake.calls.filter((c) => c.name === "deleteQueue").map((c) => c.params)).toEqual(["q-bytes", "q-real"]);
  });

  it("a register that cannot show its answer early is polled once it is checked", async () => {
    const order: string[] = [];
    recordPolls(order);
    fake.registers(eg.registerResponse({ queue_id: "q-late", last_event_id: 11 }));
    remake();
    await machine.start();
    await settle();
    expect(order).toEqual(["poll q-late 11"]);
  });
});

describe("backoff on network failures", () => {
  it("waits 100 ms doubling to 10 s (full jitter), polls with dont_block while recovering, and resets after a success", async () => {
    fake.polls(...Array.from({ length: 9 }, () => ({ error: netErr() })));
    await machine.start();
    const delays: number[] = [];
    for (let i = 0; i < 9; i++) delays.push((await clock.runNext())!);
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000]);
    const p = polls();
    expect(p[0]!.dont_block).toBeUndefined();
    expect(p.slice(1).every((x) => x.dont_block === true)).toBe(true);

    // A success resets the backoff and the state.
    fake.push([{ type: "heartbeat", id: 0 }]);
    await settle();
    expect(machine.state.kind).toBe("live");
    fake.failPoll(netErr());
    await settle();
    expect(clock.nextIn()).toBe(100);
  });

  it("uses the jitter: a delay is random within the cap", async () => {
    const m = new UpdateMachine(fake.client, { clock, api: fake.api, random: () => 0.25 });
    fake.polls({ error: netErr() }, { error: netErr() });
    await m.start();
    expect(await clock.runNext()).toBe(25);
    expect(await clock.runNext()).toBe(50);
    await m.stop();
  });

  it("says reconnecting only after several consecutive failures", async () => {
    fake.polls({ error: netErr() }, { error: netErr() }, { error: new ServerError(502, "bad gateway") });
    await machine.start();
    expect(states.map((s) => s.kind)).toEqual(["live"]);
    await clock.runNext();
    await clock.runNext();
    expect(states.map((s) => s.kind)).toEqual(["live", "reconnecting"]);
    expect(machine.state).toMatchObject({ kind: "reconnecting", attempt: 3 });
  });

  it("honours retry-after on a 429", async () => {
    fake.polls({ error: new ApiError(429, "RATE_LIMIT_HIT", "slow down", {}, 7) });
    await machine.start();
    expect(clock.nextIn()).toBe(7000);
  });

  it("a nudge cuts a pending backoff short", async () => {
    fake.polls({ error: new ApiError(429, "RATE_LIMIT_HIT", "slow down", {}, 60) });
    await machine.start();
    expect(polls().length).toBe(1);
    machine.nudge();
    await settle();
    expect(polls().length).toBe(2);
  });

  it("retries the first register too, and fails for good on refused credentials", async () => {
    fake.registers({ error: netErr() }, { error: new ApiError(401, "UNAUTHORIZED", "Invalid API key") });
    const started = machine.start().catch((e: unknown) => e);
    await clock.runNext();
    expect(await started).toBeInstanceOf(ApiError);
    expect(machine.state).toMatchObject({ kind: "failed" });
    expect(fake.count("register")).toBe(2);
  });
});

describe("queue loss and rebuilds", () => {
  it("BAD_EVENT_QUEUE_ID: registers at once and refetches every loaded narrow around its anchor into the new store", async () => {
    const first = await machine.start();
    const channel = [...first.channels.values()][0]!;
    const narrow = { kind: "topic" as const, channelId: channel.stream_id, topic: "greetings" };
    const msgs = [1, 2, 3, 4, 5].map(() => eg.streamMessage({ stream: channel }));
    first.addFetched(narrow, msgs, { foundOldest: true, foundNewest: true, direction: "around" });
    machine.setAnchor(narrow, msgs[1]!.id);
    fake.setMessages(msgs);
    const infos: string[] = [];
    machine.onStore((_s, info) => infos.push(info.reason));

    fake.failPoll(new ApiError(400, "BAD_EVENT_QUEUE_ID", "Bad event queue ID"));
    await settle();
    expect(clock.requested).toEqual([]); // no waiting
    const second = machine.store as Store;
    expect(second).not.toBe(first);
    expect(infos).toEqual(["queue-lost"]);
    const fetch = fake.calls.find((c) => c.name === "getMessages")!.params as Record<string, unknown>;
    expect(fetch).toMatchObject({ anchor: msgs[1]!.id, include_anchor: true, apply_markdown: false });
    expect(second.messages.list(narrow)?.ids).toEqual(msgs.map((m) => m.id));
    expect(second.messages.list(narrow)?.foundNewest).toBe(true);
    expect(polls().at(-1)!.queue_id).toBe(second.queueId);
    expect(machine.anchorOf(narrow)).toBe(msgs[1]!.id);
  });

  it("a malformed answer rebuilds after the separate backoff (1 s doubling, capped at 60 s)", async () => {
    const m = new UpdateMachine(fake.client, { clock, api: fake.api, random: () => 1, rebuildBackoff: { baseMs: 1000, maxMs: 60_000 } });
    const bad = () => ({ error: new SchemaError("GET events", "the body is not JSON") });
    fake.polls(bad(), bad(), bad(), bad(), bad(), bad(), bad(), bad());
    await m.start();
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) delays.push((await clock.runNext())!);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    expect(fake.count("register")).toBe(9);
    // The abandoned queues are deleted.
    expect(fake.count("deleteQueue")).toBeGreaterThanOrEqual(7);
    await m.stop();
  });

  it("an event the model cannot apply is handled like a malformed answer", async () => {
    const first = await machine.start();
    first.applyAll = () => {
      throw new Error("model bug");
    };
    fake.push([{ type: "heartbeat", id: 0 }]);
    await settle();
    expect(clock.nextIn()).toBe(1000);
    await clock.runNext();
    expect(machine.store).not.toBe(first);
    expect(machine.state.kind).toBe("live");
  });
});

describe("stopping", () => {
  it("a 401 while polling stops with a clear message and no retry loop", async () => {
    await machine.start();
    fake.failPoll(new ApiError(401, "UNAUTHORIZED", "Invalid API key"));
    await settle();
    expect(machine.state).toMatchObject({ kind: "failed", error: expect.stringContaining("refused our credentials") });
    await clock.advance(600_000);
    expect(polls().length).toBe(1);
    expect(fake.count("register")).toBe(1);
  });

  it("stop() ends the loop, cancels the backoff and deletes the queue", async () => {
    fake.polls({ error: netErr() });
    await machine.start();
    expect(clock.pending).toBe(1);
    await machine.stop();
    expect(clock.pending).toBe(0);
    expect(machine.state.kind).toBe("stopped");
    expect(fake.count("deleteQueue")).toBe(1);
  });
});
