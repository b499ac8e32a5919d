/**
 * Offline from the local cache: with the server unreachable at start, the
 * session opens on the last run's state (its narrows readable), a message
 * written meanwhile waits in the outbox, and once the server is back the
 * session connects on its own and the message arrives exactly once; an edit
 * made offline is saved then.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { getMessage, getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { editMessage } from "../../src/sync/actions/messages.js";
import type { ApiClient } from "../../src/api/http.js";
import { narrowKey, type Narrow } from "../../src/model/narrow.js";
import { narrowMessages } from "../../src/model/selectors.js";
import type { AccountRuntime } from "../../src/sync/account-runtime.js";
import { openCachedSession } from "../fixtures/cached-session.js";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";
import { eventually } from "../fixtures/server.js";

let world: FaultyWorld;
let root: string;
const sessions: AccountRuntime[] = [];

beforeEach(async () => {
  world = await faultyWorld({ heartbeatMs: 200 });
  root = await mkdtemp(join(tmpdir(), "termchat-offline-"));
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.dispose(3000)));
  await world.close();
  await rm(root, { recursive: true, force: true });
});

async function openSession(client: ApiClient): Promise<AccountRuntime> {
  const session = await openCachedSession(client, root, { machine: { backoff: { baseMs: 20, maxMs: 200 } }, outbox: { settleMs: 200 } });
  sessions.push(session);
  return session;
}

/** The topic of the newest channel message. */
async function newestTopic(client: ApiClient): Promise<Narrow & { kind: "topic" }> {
  const res = await getMessages(client, { narrow: [], anchor: "newest", num_before: 50, num_after: 0, apply_markdown: false });
  const m = res.messages.findLast((x) => x.type === "stream")!;
  return { kind: "topic", channelId: m.stream_id!, topic: m.subject };
}

it("reads the cached narrows offline, and sends what was written there exactly once when the server is back", async () => {
  // A first run, live: the topic is read, and the state is cached at exit.
  const first = await openSession(world.client());
  const store = await first.machine.start();
  const narrow = await newestTopic(world.direct());
  const mine = await sendMessage(world.direct(), { type: "stream", to: narrow.channelId, topic: narrow.topic, content: "to be edited offline" });
  const res = await getMessages(world.direct(), {
    narrow: [
      { operator: "channel", operand: narrow.channelId },
      { operator: "topic", operand: narrow.topic },
    ],
    anchor: "newest",
    num_before: 100,
    num_after: 0,
    apply_markdown: false,
  });
  store.addFetched(narrow, res.messages, { foundOldest: res.found_oldest, foundNewest: res.found_newest, direction: "around" });
  first.cache!.noteView(narrow);
  const seen = narrowMessages(store, narrow).map((m) => m.content);
  expect(seen.length).toBeGreaterThan(0);
  await first.dispose(3000);
  sessions.splice(sessions.indexOf(first), 1);

  // The server cannot be reached: the next start opens on the cache.
  await world.proxy.refuse();
  const second = await openSession(world.client());
  expect(second.cache!.isCached(second.machine.store)).toBe(true);
  expect(second.cache!.startNarrow && narrowKey(second.cache!.startNarrow)).toBe(narrowKey(narrow));
  const started = second.machine.start();
  await eventually(() => second.machine.state.kind === "reconnecting", 10_000);
  expect(narrowMessages(second.machine.store!, narrow).map((m) => m.content)).toEqual(seen);

  const text = `written offline ${Date.now()}`;
  const entry = second.send({ type: "stream", channelId: narrow.channelId, topic: narrow.topic }, text);
  expect(second.outbox.all().map((e) => e.id)).toContain(entry.id);
  expect(second.cache!.isCached(second.machine.store)).toBe(true);
  // An edit of the text made offline waits in the outbox's edit lane.
  const edit = await editMessage(second, mine.id, { content: "edited offline" });
  expect(edit).toEqual({ ok: true, value: "queued" });
  const waiting = second.outbox.edits.all().find((e) => e.messageId === mine.id);
  expect(waiting?.state).toBe("waiting");

  // Back: it connects on its own, replaces the cached state and sends the message, once.
  await world.proxy.accept();
  await started;
  expect(second.machine.state.kind).toBe("live");
  expect(second.cache!.isCached(second.machine.store)).toBe(false);
  expect(await second.outbox.settled(entry.id)).toMatchObject({ kind: "sent" });
  await eventually(() => narrowMessages(second.machine.store!, narrow).some((m) => m.content === text), 10_000);
  const after = await getMessages(world.direct(), {
    narrow: [{ operator: "search", operand: "written offline" }],
    anchor: "newest",
    num_before: 20,
    num_after: 0,
    apply_markdown: false,
  });
  expect(after.messages.filter((m) => m.content === text)).toHaveLength(1);
  expect(await second.outbox.edits.settled(waiting!.id)).toEqual({ kind: "saved" });
  expect((await getMessage(world.direct(), mine.id, { apply_markdown: false })).message.content).toBe("edited offline");
});
