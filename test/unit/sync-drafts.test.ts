/**
 * Draft sync on fake time: local edits reach the server's drafts debounced
 * (create, edit, delete), other clients' drafts come in through register and
 * `drafts` events unless we are editing that conversation, and a create of
 * unknown fate is never repeated blindly.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError, NetworkError } from "../../src/api/errors.js";
import type { DraftInput } from "../../src/api/routes/drafts.js";
import type { Draft } from "../../src/api/schemas/common.js";
import { DraftJournal, draftKey } from "../../src/sync/draft-journal.js";
import { DraftSync, type DraftsApi } from "../../src/sync/draft-sync.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { FakeClock, until } from "../fixtures/fake-clock.js";
import { fakeSyncApi } from "../fixtures/fake-sync.js";
import * as eg from "../fixtures/example.js";

const account = { site: "https://chat.example.test", email: "self@example.test" };
const topic = { type: "stream" as const, channelId: 10, topic: "Plans" };
const key = draftKey(topic);

let dir: string;
let clock: FakeClock;
let fake: ReturnType<typeof fakeSyncApi>;
let machine: UpdateMachine;
let journal: DraftJournal;
let sync: DraftSync;
let calls: Array<{ op: string; id?: number; draft?: DraftInput }>;
let serverDrafts: Draft[];
let createScript: Array<() => Promise<{ ids: number[] }>>;

function api(): Partial<DraftsApi> {
  return {
    createDrafts: async (_c, drafts) => {
      calls.push({ op: "create", draft: drafts[0] });
      const next = createScript.shift();
      return next ? next() : { ids: [500 + calls.length] };
    },
    editDraft: async (_c, id, draft) => {
      calls.push({ op: "edit", id, draft });
      if (!serverDrafts.some((d) => d.id === id) && id >= 900) throw new ApiError(400, "BAD_REQUEST", "Draft does not exist");
      return {};
    },
    deleteDraft: async (_c, id) => {
      calls.push({ op: "delete", id });
      return {};
    },
    getDrafts: async () => {
      calls.push({ op: "list" });
      return { drafts: serverDrafts };
    },
  };
}

async function start(reg: Record<string, unknown> = {}) {
  fake.registers(eg.registerResponse({ queue_id: "q1", ...reg }));
  journal = await DraftJournal.open({ dir, account, clock });
  sync = new DraftSync(machine, journal, { debounceMs: 2000, retryMs: 5000, api: api() });
  await machine.start();
}

beforeEach(async () => {
  eg.resetIds();
  dir = await mkdtemp(join(tmpdir(), "termchat-drafts-"));
  clock = new FakeClock();
  fake = fakeSyncApi();
  machine = new UpdateMachine(fake.client, { clock, api: fake.api });
  calls = [];
  serverDrafts = [];
  createScript = [];
});

afterEach(async () => {
  sync.dispose();
  await journal.dispose();
  await machine.stop();
  await fake.client.close();
  await rm(dir, { recursive: true, force: true });
});

describe("local changes to the server", () => {
  it("creates, edits and deletes, debounced", async () => {
    await start();
    journal.update(key, "first words", topic);
    await clock.advance(1999);
    expect(calls).toEqual([]);
    await clock.advance(1);
    await until(() => calls.length === 1);
    expect(calls[0]).toMatchObject({ op: "create", draft: { type: "stream", to: [10], topic: "Plans", content: "first words" } });
    expect(journal.entry(key)).toMatchObject({ serverId: 501, syncedText: "first words" });

    journal.update(key, "first words, more", topic);
    await clock.advance(2000);
    await until(() => calls.length === 2);
    expect(calls[1]).toMatchObject({ op: "edit", id: 501, draft: { content: "first words, more" } });

    journal.clear(key); // sent
    await clock.advance(2000);
    await until(() => calls.length === 3);
    expect(calls[2]).toEqual({ op: "delete", id: 501 });
    await until(() => journal.entry(key) === undefined);
  });

  it("waits for the connection and retries failures later", async () => {
    createScript.push(async () => {
      throw new ApiError(503, "X", "busy");
    });
    await start();
    journal.update(key, "x", topic);
    await clock.advance(2000);
    await until(() => calls.length === 1);
    await clock.advance(5000);
    await until(() => calls.length === 2);
    expect(calls.map((c) => c.op)).toEqual(["create", "create"]);
    await until(() => journal.entry(key)?.serverId !== undefined);
  });

  it("after a create of unknown fate, adopts the server's draft instead of creating twice", async () => {
    createScript.push(async () => {
      serverDrafts = [{ id: 77, type: "stream", to: [10], topic: "Plans", content: "hello", timestamp: 1 }];
      throw new NetworkError("timed out", "timeout");
    });
    await start();
    journal.update(key, "hello", topic);
    await clock.advance(2000);
    await until(() => calls.length === 1);
    await clock.advance(5000);
    await until(() => calls.length === 2);
    expect(calls.map((c) => c.op)).toEqual(["create", "list"]);
    await until(() => journal.entry(key)?.serverId === 77);
  });

  it("does nothing when the user turned drafts synchronisation off", async () => {
    await start({ user_settings: { enable_drafts_synchronization: false } });
    journal.update(key, "local only", topic);
    await clock.advance(10_000);
    expect(calls).toEqual([]);
  });
});

describe("other clients' drafts", () => {
  it("register's drafts fill conversations we have nothing for", async () => {
    await start({ drafts: [{ id: 40, type: "private", to: [2], topic: "", content: "from the web app", timestamp: 5 }] });
    expect(journal.get("dm:2")).toBe("from the web app");
    expect(journal.entry("dm:2")).toMatchObject({ serverId: 40 });
  });

  it("a draft edited elsewhere updates ours when we are not editing it, not while we are", async () => {
    await start();
    journal.update(key, "v1", topic);
    await clock.advance(2000);
    await until(() => journal.entry(key)?.serverId === 501);
    const id = 501;

    fake.push([{ type: "drafts", op: "update", id: 0, draft: { id, type: "stream", to: [10], topic: "plans", content: "v2 from phone", timestamp: 9 } }]);
    await until(() => journal.get(key) === "v2 from phone");

    sync.setEditing(key);
    fake.push([{ type: "drafts", op: "update", id: 1, draft: { id, type: "stream", to: [10], topic: "plans", content: "v3 from phone", timestamp: 10 } }]);
    await clock.advance(10);
    expect(journal.get(key)).toBe("v2 from phone");
    // Ours then overwrites the server's.
    await clock.advance(2000);
    await until(() => calls.some((c) => c.op === "edit" && c.draft?.content === "v2 from phone"));
  });

  it("a draft deleted elsewhere (sent from another client) clears ours when we are not editing", async () => {
    await start({ drafts: [{ id: 41, type: "stream", to: [10], topic: "Plans", content: "half written", timestamp: 5 }] });
    expect(journal.get(key)).toBe("half written");
    fake.push([{ type: "drafts", op: "remove", id: 0, draft_id: 41 }]);
    await until(() => journal.get(key) === undefined);
  });
});
