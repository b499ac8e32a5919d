/**
 * The outbox state machine on fake time: hidden → pending after 500 ms,
 * waiting for the connection, sent exactly once, refusals kept with their
 * reason, attempts of unknown fate settled by the echo or the history
 * (never resent blindly), persistence across restarts (atomic, 0600).
 */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError, NetworkError, ServerError } from "../../src/api/errors.js";
import type { SendMessageParams } from "../../src/api/routes/messages.js";
import type { Message } from "../../src/api/schemas/common.js";
import { Outbox, type OutboxApi } from "../../src/sync/outbox.js";
import { OutboxFile } from "../../src/sync/outbox-file.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { FakeClock, settle, until } from "../fixtures/fake-clock.js";
import { fakeSyncApi } from "../fixtures/fake-sync.js";
import * as eg from "../fixtures/example.js";

const account = { site: "https://chat.example.test", email: "self@example.test" };
const target = { type: "stream" as const, channelId: 10, topic: "greetings" };

let dir: string;
let clock: FakeClock;
let fake: ReturnType<typeof fakeSyncApi>;
let machine: UpdateMachine;
let sends: SendMessageParams[];
let sendScript: Array<() => Promise<{ id: number }>>;
let history: Message[];
let historyCalls: number;
const boxes: Outbox[] = [];

function sendApi(): Partial<OutboxApi> {
  return {
    sendMessage: async (_c, p) => {
      sends.push(p);
      const next = sendScript.shift();
      const res = next ? await next() : { id: 9000 + sends.length };
      return { result: "success" as const, msg: "", ...res };
    },
    getMessages: async () => {
      historyCalls++;
      return { result: "success", msg: "", messages: history, found_newest: true, found_oldest: false, found_anchor: false } as never;
    },
  };
}

async function open(opts: { settleMs?: number } = {}): Promise<Outbox> {
  const box = await Outbox.open(machine, { dir, account, api: sendApi(), settleMs: opts.settleMs ?? 3000 });
  boxes.push(box);
  return box;
}

const mine = (o: Partial<Message> = {}) =>
  eg.streamMessage({ sender_id: eg.selfUser.user_id, stream: eg.subscription({ stream_id: 10, name: "general" }), timestamp: clock.now() / 1000, ...o });

beforeEach(async () => {
  eg.resetIds();
  dir = await mkdtemp(join(tmpdir(), "termchat-outbox-"));
  clock = new FakeClock();
  fake = fakeSyncApi();
  machine = new UpdateMachine(fake.client, { clock, api: fake.api, random: () => 1 });
  sends = [];
  sendScript = [];
  history = [];
  historyCalls = 0;
});

afterEach(async () => {
  for (const b of boxes.splice(0)) await b.dispose();
  await machine.stop();
  await fake.client.close();
  await rm(dir, { recursive: true, force: true });
});

describe("sending", () => {
  it("queues while offline, shows the entry as pending only after 500 ms, and sends it once when live", async () => {
    const box = await open();
    const e = box.enqueue(target, "written offline");
    expect(box.all()[0]).toMatchObject({ state: "waiting" });
    expect(box.visibleIn({ kind: "topic", channelId: 10, topic: "GREETINGS" })).toEqual([]);
    await clock.advance(500);
    expect(box.visibleIn({ kind: "topic", channelId: 10, topic: "greetings" }).map((x) => x.id)).toEqual([e.id]);
    expect(box.visibleIn({ kind: "channel", channelId: 11 })).toEqual([]);
    expect(sends).toEqual([]);

    await machine.start();
    await settle();
    expect(await box.settled(e.id)).toEqual({ kind: "sent", messageId: 9001 });
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ type: "stream", to: 10, topic: "greetings", content: "written offline", queue_id: "queue-1", local_id: e.id });
    expect(box.all()).toEqual([]);
  });

  it("sends in order: a later message waits for the earlier one", async () => {
    await machine.start();
    const box = await open();
    let release!: () => void;
    sendScript.push(() => new Promise((r) => (release = () => r({ id: 1 }))));
    box.enqueue(target, "first");
    box.enqueue(target, "second");
    await until(() => sends.length === 1);
    await clock.advance(10_000);
    expect(sends.map((s) => s.content)).toEqual(["first"]);
    release();
    await until(() => sends.length === 2);
    expect(sends.map((s) => s.content)).toEqual(["first", "second"]);
  });

  it("a refusal keeps the text and says why; retry() sends it again", async () => {
    await machine.start();
    const box = await open();
    sendScript.push(async () => {
      throw new ApiError(400, "BAD_REQUEST", "You do not have permission to post in this channel.");
    });
    const e = box.enqueue(target, "hello");
    expect(await box.settled(e.id)).toEqual({ kind: "failed", error: expect.stringContaining("permission") });
    expect(box.visibleIn({ kind: "feed" })[0]).toMatchObject({ state: "failed", content: "hello", error: expect.stringContaining("permission") });
    box.retry(e.id);
    await until(() => sends.length === 2);
    await box.idle();
    expect(box.all()).toEqual([]);
  });

  it("discard() gives back the text of a failed entry", async () => {
    await machine.start();
    const box = await open();
    sendScript.push(async () => {
      throw new ApiError(400, "BAD_REQUEST", "no");
    });
    const e = box.enqueue(target, "take me back");
    await box.settled(e.id);
    expect(box.discard(e.id)).toBe("take me back");
    expect(box.all()).toEqual([]);
  });

  it("a send that never reached the server (connection refused) waits and goes again", async () => {
    await machine.start();
    const box = await open();
    sendScript.push(async () => {
      throw new NetworkError("POST messages: cannot reach the server", "connect", Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
    });
    const e = box.enqueue(target, "hi");
    await until(() => sends.length === 1);
    await box.idle();
    expect(box.all()[0]).toMatchObject({ state: "waiting" });
    await clock.advance(1000);
    expect(await box.settled(e.id)).toMatchObject({ kind: "sent" });
    expect(sends).toHaveLength(2);
    expect(historyCalls).toBe(0);
  });

  it("a 429 waits for retry-after", async () => {
    await machine.start();
    const box = await open();
    sendScript.push(async () => {
      throw new ApiError(429, "RATE_LIMIT_HIT", "slow", {}, 4);
    });
    box.enqueue(target, "hi");
    await until(() => sends.length === 1);
    await box.idle();
    await clock.advance(3999);
    await box.idle();
    expect(sends).toHaveLength(1);
    await clock.advance(1);
    await until(() => sends.length === 2);
  });
});

describe("attempts of unknown fate are never resent blindly", () => {
  it("a timeout, then our echo on the queue: sent, no second attempt", async () => {
    await machine.start();
    const box = await open();
    sendScript.push(async () => {
      throw new NetworkError("POST messages: timed out", "timeout");
    });
    const e = box.enqueue(target, "maybe");
    await until(() => box.all()[0]?.state === "unknown");
    const m = mine({ content: "maybe" });
    fake.push([{ type: "message", id: 0, message: m, flags: ["read"], local_message_id: e.id }]);
    expect(await box.settled(e.id)).toEqual({ kind: "sent", messageId: m.id });
    await clock.advance(60_000);
    expect(sends).toHaveLength(1);
    expect(historyCalls).toBe(0);
  });

  it("a reset with no echo: after the settle delay the history decides — there, so not resent", async () => {
    await machine.start();
    const box = await open();
    sendScript.push(async () => {
      throw new ServerError(502, "bad gateway");
    });
    const e = box.enqueue(target, "landed\n");
    await until(() => box.all()[0]?.state === "unknown");
    history = [mine({ content: "landed" })];
    await clock.advance(2999);
    expect(historyCalls).toBe(0);
    await clock.advance(1);
    expect(await box.settled(e.id)).toEqual({ kind: "sent", messageId: history[0]!.id });
    expect(sends).toHaveLength(1);
  });

  it("not in the history (and older look-alikes do not count): sent again, once", async () => {
    await machine.start();
    // An identical message from before the entry was written is not ours.
    machine.maxMessageId = 7000;
    const box = await open({ settleMs: 100 });
    sendScript.push(async () => {
      throw new NetworkError("POST messages: socket hang up", "connect");
    });
    history = [mine({ id: 6999, content: "ok" })];
    const e = box.enqueue(target, "ok");
    await until(() => box.all()[0]?.state === "unknown");
    await clock.advance(100);
    expect(await box.settled(e.id)).toEqual({ kind: "sent", messageId: 9002 });
    expect(sends).toHaveLength(2);
    expect(historyCalls).toBe(1);
  });

  it("one server message settles only one of two identical entries", async () => {
    await machine.start();
    const box = await open({ settleMs: 100 });
    sendScript.push(async () => {
      throw new NetworkError("timed out", "timeout");
    });
    const a = box.enqueue(target, "same");
    await until(() => box.all()[0]?.state === "unknown");
    history = [mine({ id: 8000, content: "same" })];
    await clock.advance(100);
    expect(await box.settled(a.id)).toEqual({ kind: "sent", messageId: 8000 });
    // A second "same", whose attempt also went astray: the message 8000 is claimed already.
    sendScript.push(async () => {
      throw new NetworkError("timed out", "timeout");
    });
    const b = box.enqueue(target, "same");
    await until(() => box.all()[0]?.state === "unknown");
    await clock.advance(100);
    expect(await box.settled(b.id)).toEqual({ kind: "sent", messageId: 9003 });
    expect(sends.filter((s) => s.content === "same")).toHaveLength(3);
  });
});

describe("persistence", () => {
  it("a message written offline survives a restart and is sent exactly once; the file is private", async () => {
    const first = await open();
    const e = first.enqueue({ type: "direct", userIds: [3, 2] }, "across restarts");
    await first.dispose();
    boxes.splice(boxes.indexOf(first), 1);
    const path = OutboxFile.pathFor(dir, account);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, "utf8")).entries).toHaveLength(1);

    const second = await open();
    expect(second.all().map((x) => x.id)).toEqual([e.id]);
    await machine.start();
    expect(await second.settled(e.id)).toMatchObject({ kind: "sent" });
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ type: "direct", to: [2, 3] });
    await second.flush();
    expect(JSON.parse(await readFile(path, "utf8")).entries).toEqual([]);
  });

  it("an entry that was in flight when the process died is checked, not resent", async () => {
    const path = OutboxFile.pathFor(dir, account);
    const entry = {
      id: "crash.1",
      target,
      content: "in flight at the crash",
      createdAt: clock.now(),
      state: "sending",
      attempts: 1,
      floorId: 100,
      queueId: "old-queue",
    };
    await writeFile(path, JSON.stringify({ version: 1, entries: [entry], claimed: [] }));
    history = [mine({ id: 101, content: "in flight at the crash" })];
    const box = await open({ settleMs: 0 });
    expect(box.all()[0]).toMatchObject({ state: "unknown" });
    await machine.start();
    expect(await box.settled("crash.1")).toEqual({ kind: "sent", messageId: 101 });
    expect(sends).toHaveLength(0);
  });

  it("a torn or foreign file is ignored, not fatal", async () => {
    await writeFile(OutboxFile.pathFor(dir, account), '{"version":1,"entries":[{"id":');
    const box = await open();
    expect(box.all()).toEqual([]);
  });
});
