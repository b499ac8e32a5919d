/** Edits made offline: kept on disk, saved in order once live, a refusal said, a lost answer not a problem. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { ApiError, NetworkError } from "../../src/api/errors.js";
import type { ApiClient } from "../../src/api/http.js";
import { EditQueue, type EditQueueOptions } from "../../src/sync/edit-queue.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { FakeClock, until } from "../fixtures/fake-clock.js";

const account = { site: "https://chat.example.test/", email: "me@example.test" };
let dir: string;
let clock: FakeClock;
const saved: Array<[number, string]> = [];
let answer: () => unknown = () => ({ result: "success" });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-edits-"));
  clock = new FakeClock();
  saved.length = 0;
  answer = () => ({ result: "success" });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function machine(live: boolean): UpdateMachine {
  const m = new UpdateMachine({} as ApiClient, { clock });
  m.state = live ? { kind: "live" } : { kind: "reconnecting", attempt: 3, error: "cannot reach the server" };
  return m;
}

const api: EditQueueOptions["api"] = {
  updateMessage: async (_c, id, p) => {
    saved.push([id, p.content]);
    const r = answer();
    if (r instanceof Error) throw r;
    return r;
  },
};

it("keeps edits across a restart while offline, the latest of each message, and saves them once live", async () => {
  const offline = await EditQueue.open(machine(false), { dir, account, api });
  offline.enqueue(7, "first");
  offline.enqueue(8, "other");
  offline.enqueue(7, "second");
  await offline.dispose();
  expect(saved).toEqual([]);

  const back = await EditQueue.open(machine(true), { dir, account, api });
  await until(() => back.pending().length === 0);
  expect(saved).toEqual([
    [8, "other"],
    [7, "second"],
  ]);
  await back.dispose();
  const again = await EditQueue.open(machine(false), { dir, account, api });
  expect(again.pending()).toEqual([]);
  await again.dispose();
});

it("drops a refused edit and says why; an edit that had landed already counts as saved", async () => {
  const q = await EditQueue.open(machine(true), { dir, account, api });
  const refusals: string[] = [];
  q.onChange((r) => r && refusals.push(r.error));
  answer = () => new ApiError(400, "BAD_REQUEST", "The time limit for editing this message has passed");
  q.enqueue(7, "too late");
  await until(() => q.pending().length === 0);
  expect(refusals).toHaveLength(1);
  expect(refusals[0]).toMatch(/time limit/);
  answer = () => new ApiError(400, "BAD_REQUEST", "Nothing to change");
  q.enqueue(9, "same");
  await until(() => q.pending().length === 0);
  expect(refusals).toHaveLength(1);
  await q.dispose();
});

it("tries again after a failure on the way, with backoff", async () => {
  const q = await EditQueue.open(machine(true), { dir, account, api, retry: { baseMs: 1000, maxMs: 1000 } });
  answer = () => new NetworkError("cannot reach the server", "connect");
  q.enqueue(7, "text");
  await until(() => saved.length === 1);
  expect(q.pending()).toHaveLength(1);
  answer = () => ({ result: "success" });
  await clock.advance(1000);
  await until(() => q.pending().length === 0);
  expect(saved).toEqual([
    [7, "text"],
    [7, "text"],
  ]);
  await q.dispose();
});
