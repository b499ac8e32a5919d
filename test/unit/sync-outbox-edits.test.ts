/**
 * The outbox's edit lane on fake time: a content edit survives a lost
 * connection and a restart and reaches the server once; one of unknown fate
 * is checked before it is sent again; a refusal is final and keeps the text;
 * a move is made at most once.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "../../src/api/errors.js";
import type { UpdateMessageParams } from "../../src/api/routes/messages.js";
import type { EditApi, EditEntry, EditOutcome } from "../../src/sync/outbox-edits.js";
import { Outbox } from "../../src/sync/outbox.js";
import { OutboxFile } from "../../src/sync/outbox-file.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { FakeClock, settle, until } from "../fixtures/fake-clock.js";
import { fakeSyncApi } from "../fixtures/fake-sync.js";

const account = { site: "https://chat.example.test", email: "self@example.test" };

let dir: string;
let clock: FakeClock;
let fake: ReturnType<typeof fakeSyncApi>;
let machine: UpdateMachine;
let patches: Array<{ id: number; p: UpdateMessageParams }>;
let patchScript: Array<() => Promise<void>>;
let serverContent: Map<number, string>;
let reads: number;
const boxes: Outbox[] = [];

const refused = () => new NetworkError("PATCH messages: cannot reach the server", "connect", Object.assign(new Error("refused"), { code: "ECONNREFUSED" }));
const reset = () => new NetworkError("PATCH messages: socket hang up", "other");

function editApi(): Partial<EditApi> {
  return {
    updateMessage: async (_c, id, p) => {
      patches.push({ id, p });
      const next = patchScript.shift();
      if (next) await next();
      if (p.content !== undefined) serverContent.set(id, p.content);
      return {};
    },
    getMessage: async (_c, id) => {
      reads++;
      const content = serverContent.get(id);
      if (content === undefined) throw new ApiError(400, "BAD_REQUEST", "Invalid message(s)");
      return { message: { content } };
    },
  };
}

async function open(): Promise<Outbox> {
  const box = await Outbox.open(machine, { dir, account, edits: { api: editApi(), settleMs: 1000, retry: { baseMs: 100, maxMs: 1000 } } });
  boxes.push(box);
  return box;
}

/** The lane's first answer and, through onSettled, the edits that ended later. */
function watch(box: Outbox) {
  const ended: Array<[EditEntry, EditOutcome]> = [];
  box.edits.onSettled((e, o) => ended.push([e, o]));
  return ended;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-edits-"));
  clock = new FakeClock();
  fake = fakeSyncApi();
  machine = new UpdateMachine(fake.client, { clock, api: fake.api, random: () => 1 });
  patches = [];
  patchScript = [];
  serverContent = new Map([[41, "old text"]]);
  reads = 0;
});

afterEach(async () => {
  for (const b of boxes.splice(0)) await b.dispose();
  await machine.stop();
  await fake.client.close();
  await rm(dir, { recursive: true, force: true });
});

describe("content edits", () => {
  it("an edit that could not reach the server is kept, waits for the connection, then is saved once", async () => {
    const box = await open();
    const ended = watch(box);
    patchScript.push(async () => {
      throw refused();
    });
    const e = box.edits.enqueue(41, { content: "new text" });
    expect(await box.edits.firstAnswer(e.id)).toEqual({ kind: "queued" });
    expect(box.edits.all()).toMatchObject([{ messageId: 41, state: "waiting", params: { content: "new text" } }]);
    // Offline, nothing is tried again, however long it takes.
    await clock.advance(60_000);
    expect(patches).toHaveLength(1);

    await machine.start();
    expect(await box.edits.settled(e.id)).toEqual({ kind: "saved" });
    expect(patches.map((x) => x.p.content)).toEqual(["new text", "new text"]);
    expect(serverContent.get(41)).toBe("new text");
    expect(box.edits.all()).toEqual([]);
    expect(ended.map(([x, o]) => [x.id, o.kind])).toEqual([[e.id, "saved"]]);
  });

  it("an edit whose answer was lost is checked first: the server has the text, so it is not sent again", async () => {
    await machine.start();
    const box = await open();
    patchScript.push(async () => {
      serverContent.set(41, "landed anyway");
      throw reset();
    });
    const e = box.edits.enqueue(41, { content: "landed anyway" });
    expect(await box.edits.firstAnswer(e.id)).toEqual({ kind: "queued" });
    expect(box.edits.all()[0]?.state).toBe("unknown");
    await clock.advance(1000);
    expect(await box.edits.settled(e.id)).toEqual({ kind: "saved" });
    expect(reads).toBe(1);
    expect(patches).toHaveLength(1);
  });

  it("an edit whose answer was lost and that never landed is sent again, once", async () => {
    await machine.start();
    const box = await open();
    patchScript.push(async () => {
      throw reset();
    });
    const e = box.edits.enqueue(41, { content: "second time lucky" });
    await box.edits.firstAnswer(e.id);
    await clock.advance(1000);
    expect(await box.edits.settled(e.id)).toEqual({ kind: "saved" });
    expect(reads).toBe(1);
    expect(patches).toHaveLength(2);
    expect(serverContent.get(41)).toBe("second time lucky");
  });

  it("a refusal after the connection came back is final, reported, and the text is given back", async () => {
    const box = await open();
    const ended = watch(box);
    patchScript.push(
      async () => {
        throw refused();
      },
      async () => {
        throw new ApiError(400, "BAD_REQUEST", "The time limit for editing this message has past");
      },
    );
    const e = box.edits.enqueue(41, { content: "too slow" });
    expect(await box.edits.firstAnswer(e.id)).toEqual({ kind: "queued" });
    await machine.start();
    await clock.advance(100); // the backoff after the failed attempt
    const outcome = await box.edits.settled(e.id);
    expect(outcome).toMatchObject({ kind: "failed", code: "BAD_REQUEST", error: expect.stringContaining("time limit") });
    expect(ended.map(([, o]) => o.kind)).toEqual(["failed"]);
    await clock.advance(60_000);
    expect(patches).toHaveLength(2);
    expect(box.edits.all()).toMatchObject([{ state: "failed", params: { content: "too slow" } }]);
    expect(box.edits.discard(e.id)).toBe("too slow");
    expect(box.edits.all()).toEqual([]);
  });

  it("a newer edit of the same message replaces one still waiting", async () => {
    const box = await open();
    patchScript.push(async () => {
      throw refused();
    });
    const first = box.edits.enqueue(41, { content: "draft one" });
    await box.edits.firstAnswer(first.id);
    const second = box.edits.enqueue(41, { content: "draft two" });
    expect(await box.edits.settled(first.id)).toMatchObject({ kind: "failed", error: "replaced by a newer edit" });
    expect(await box.edits.settled(second.id)).toEqual({ kind: "saved" });
    expect(patches.map((x) => x.p.content)).toEqual(["draft one", "draft two"]);
    expect(box.edits.all()).toEqual([]);
  });

  it("survives a restart: the queued edit is on disk, read back, and saved once", async () => {
    let box = await open();
    patchScript.push(async () => {
      throw refused();
    });
    const e = box.edits.enqueue(41, { content: "written before the restart" });
    await box.edits.firstAnswer(e.id);
    await box.dispose();
    boxes.splice(boxes.indexOf(box), 1);
    const onDisk = JSON.parse(await readFile(OutboxFile.pathFor(dir, account), "utf8"));
    expect(onDisk.edits).toMatchObject([{ messageId: 41, params: { content: "written before the restart" } }]);

    box = await open();
    expect(box.edits.all().map((x) => x.id)).toEqual([e.id]);
    await machine.start();
    await clock.advance(100);
    expect(await box.edits.settled(e.id)).toEqual({ kind: "saved" });
    expect(patches).toHaveLength(2);
  });
});

describe("moves", () => {
  const move: UpdateMessageParams = { topic: "elsewhere", propagate_mode: "change_all" };

  it("a move the connection dropped is reported and never repeated", async () => {
    await machine.start();
    const box = await open();
    patchScript.push(async () => {
      throw reset();
    });
    const e = box.edits.enqueue(41, move);
    const first = await box.edits.firstAnswer(e.id);
    expect(first).toMatchObject({ kind: "failed", code: "move-interrupted", error: expect.stringContaining("not repeated") });
    await clock.advance(60_000);
    await settle();
    machine.nudge();
    await settle();
    expect(patches).toHaveLength(1);
    expect(reads).toBe(0);
  });

  it("a move that could not reach the server says it was not made", async () => {
    const box = await open();
    patchScript.push(async () => {
      throw refused();
    });
    const e = box.edits.enqueue(41, { stream_id: 12, propagate_mode: "change_one" });
    expect(await box.edits.firstAnswer(e.id)).toMatchObject({ kind: "failed", error: expect.stringMatching(/^Not moved/) });
    await machine.start();
    await clock.advance(60_000);
    expect(patches).toHaveLength(1);
  });

  it("a move in flight when the program stopped comes back failed, not resent", async () => {
    const entry = { id: "edit.x.1", messageId: 41, params: move, createdAt: 0, state: "sending", attempts: 1 };
    const content = { id: "edit.x.2", messageId: 42, params: { content: "checked first" }, createdAt: 0, state: "sending", attempts: 1 };
    serverContent.set(42, "checked first");
    await writeFile(OutboxFile.pathFor(dir, account), JSON.stringify({ version: 1, entries: [], claimed: [], edits: [entry, content] }), { mode: 0o600 });
    await machine.start();
    const box = await open();
    expect(box.edits.all()[0]).toMatchObject({ id: "edit.x.1", state: "failed", code: "move-interrupted" });
    expect(await box.edits.settled("edit.x.2")).toEqual({ kind: "saved" });
    await until(() => reads === 1);
    expect(patches).toEqual([]);
  });
});
