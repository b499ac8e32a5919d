/**
 * Edits through the outbox against the reference server behind a fault
 * proxy: an edit written while the link is down is applied exactly once
 * after it returns; one whose answer was lost is not applied twice; a move
 * whose answer was lost is reported and never repeated. Every wait is bounded.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { getMessage, getMessageHistory, sendMessage } from "../../src/api/routes/messages.js";
import { editKey, editMessage } from "../../src/sync/actions/messages.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import type { UpdateMachineOptions } from "../../src/sync/update-machine.js";
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
let session: AccountRuntime | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-edit-faults-"));
  world = await faultyWorld({ heartbeatMs: 200, longpollTimeoutSecs: 1 });
});

afterEach(async () => {
  await session?.dispose();
  session = undefined;
  await world.close();
  await rm(dir, { recursive: true, force: true });
});

/** A live session through the proxy, and a message of ours on the server. */
async function setUp(content: string) {
  session = await AccountRuntime.open({
    client: world.client(),
    account: { site: world.proxy.url, email: world.owner.email },
    stateDir: dir,
    machine: FAST,
    outbox: { settleMs: 300, edits: { settleMs: 200, retry: { baseMs: 50, maxMs: 300 } } },
  });
  const store = await session.machine.start();
  const general = [...store.channels.values()].find((c) => c.name === "general")!;
  const { id } = await sendMessage(world.direct(), { type: "stream", to: general.stream_id, topic: "edits", content });
  return { id, general };
}

async function onServer(id: number) {
  const direct = world.direct();
  const [{ message }, { message_history }] = await Promise.all([
    getMessage(direct, id, { apply_markdown: false }),
    getMessageHistory(direct, id),
  ]);
  return { content: message.content, edits: message_history.length - 1, topic: message.subject };
}

it("an edit made while the link is down is kept, then applied exactly once when it returns", async () => {
  const { id } = await setUp("before the outage");
  const s = session!;
  await world.proxy.refuse();
  s.journal.update(editKey(id), "written during the outage");
  const r = await editMessage(s, id, { content: "written during the outage" });
  expect(r).toEqual({ ok: true, value: "queued" });
  expect(s.outbox.edits.all()).toMatchObject([{ messageId: id, params: { content: "written during the outage" } }]);
  expect((await onServer(id)).content).toBe("before the outage");
  // Until the server has it, the text stays where the compose box finds it again.
  expect(s.journal.get(editKey(id))).toBe("written during the outage");

  await world.proxy.accept();
  const entry = s.outbox.edits.all()[0]!;
  expect(await s.outbox.edits.settled(entry.id)).toEqual({ kind: "saved" });
  expect(await onServer(id)).toMatchObject({ content: "written during the outage", edits: 1 });
  expect(world.proxy.count("PATCH", `messages/${id}`)).toBe(1);
  // The kept text is no longer needed once the server has it.
  await eventually(() => s.journal.get(editKey(id)) === undefined, 3000);
  expect(s.outbox.edits.all()).toEqual([]);
});

it("an edit whose answer is lost after the server applied it is checked, not applied again", async () => {
  const { id } = await setUp("original");
  const s = session!;
  world.proxy.inject({ method: "PATCH", path: `messages/${id}`, action: { kind: "reset-after-forward" } });
  const r = await editMessage(s, id, { content: "applied once" });
  expect(r).toEqual({ ok: true, value: "queued" });
  const entry = s.outbox.edits.all()[0]!;
  expect(await s.outbox.edits.settled(entry.id)).toEqual({ kind: "saved" });
  expect(world.proxy.count("PATCH", `messages/${id}`)).toBe(1);
  expect(world.proxy.count("GET", `messages/${id}`)).toBe(1);
  expect(await onServer(id)).toMatchObject({ content: "applied once", edits: 1 });
});

it("a move whose answer is lost is reported and never made again", async () => {
  const { id } = await setUp("to be moved");
  const s = session!;
  world.proxy.inject({ method: "PATCH", path: `messages/${id}`, action: { kind: "reset-after-forward" } });
  const r = await editMessage(s, id, { topic: "moved away", propagate_mode: "change_all" });
  expect(r).toMatchObject({ ok: false, error: { code: "move-interrupted", message: expect.stringContaining("not repeated") } });
  // The link is fine again; the lane stays still.
  s.machine.nudge();
  await s.outbox.idle();
  expect(world.proxy.count("PATCH", `messages/${id}`)).toBe(1);
  expect((await onServer(id)).topic).toBe("moved away");
});
