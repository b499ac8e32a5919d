/**
 * A start from the local cache, with the real App and sync layer behind a
 * proxy that holds the register: while the screen shows the last run's state,
 * nothing is marked read (that state may be old: the server may have read,
 * moved or deleted what it shows); once the server's state is in, only what
 * it holds unread on screen is marked.
 */
import { act } from "react";
import { render } from "ink-testing-library";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { getMessages, updateMessageFlags } from "../../src/api/routes/messages.js";
import { FEED, narrowToApi } from "../../src/model/narrow.js";
import { narrowMessages } from "../../src/model/selectors.js";
import type { AccountRuntime } from "../../src/sync/account-runtime.js";
import { accountHandle } from "../../src/sync/account-handle.js";
import { App } from "../../src/ui/App.js";
import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import { KeypressProvider } from "../../src/ui/hooks/use-keypress.js";
import { openCachedSession } from "../fixtures/cached-session.js";
import { faultyWorld, type FaultyWorld } from "../fixtures/fault-proxy.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let world: FaultyWorld | undefined;
let dir: string | undefined;
const sessions: AccountRuntime[] = [];
let unmount: (() => Promise<void>) | undefined;

afterEach(async () => {
  await unmount?.();
  unmount = undefined;
  await Promise.all(sessions.splice(0).map((s) => s.dispose(1500)));
  await world?.close();
  world = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function open(w: FaultyWorld, base: string): Promise<AccountRuntime> {
  const session = await openCachedSession(w.client(), base, { machine: { backoff: { baseMs: 10, maxMs: 50 } } });
  sessions.push(session);
  return session;
}

/** Waits, rendering meanwhile, until `check` holds (bounded in rounds and time). */
async function until(check: () => boolean, what: string, frame: () => string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (let i = 0; i < 1000 && Date.now() < end; i++) {
    if (check()) return;
    await act(async () => void (await new Promise((r) => setTimeout(r, 20))));
  }
  throw new Error(`waited for ${what}; last frame:\n${frame()}`);
}

it("marks nothing from the cache's copy; once live, only what the server holds unread on screen", async () => {
  world = await faultyWorld();
  dir = await mkdtemp(join(tmpdir(), "termchat-read-cache-"));

  // A first run leaves the combined feed, with its unread messages, in the cache.
  const first = await open(world, dir);
  const before = await first.machine.start();
  await first.commands.loadNarrow(FEED);
  first.cache!.noteView(FEED);
  const cachedUnread = narrowMessages(before, FEED).filter((m) => before.unreads.has(m.id)).map((m) => m.id);
  expect(cachedUnread.length).toBeGreaterThan(2);
  await first.dispose(3000);
  sessions.splice(sessions.indexOf(first), 1);

  // Elsewhere, meanwhile: the first unread message is read.
  const elsewhere = world.direct();
  const readElsewhere = cachedUnread[0]!;
  await updateMessageFlags(elsewhere, { messages: [readElsewhere], op: "add", flag: "read" });

  // The next start shows the cache while the server holds the register back.
  let release!: () => void;
  world.proxy.inject({ method: "POST", path: "register", action: { kind: "hold", until: new Promise<void>((r) => (release = r)) } });
  const second = await open(world, dir);
  expect(second.cache!.isCached(second.machine.store)).toBe(true);
  const asked: number[][] = [];
  const request = second.machine.client.request.bind(second.machine.client);
  second.machine.client.request = ((method: string, path: string, o: { params?: Record<string, unknown> }) => {
    if (path === "messages/flags") asked.push(o.params?.["messages"] as number[]);
    return request(method as never, path, o as never);
  }) as typeof second.machine.client.request;
  const started = second.machine.start();

  let instance!: ReturnType<typeof render>;
  await act(async () => {
    instance = render(
      <KeypressProvider>
        <App account={accountHandle(second)} color={false} settings={{ ...DEFAULT_SETTINGS, startView: "feed" }} />
      </KeypressProvider>,
    );
  });
  unmount = () => act(async () => instance.unmount());
  const frame = () => instance.lastFrame() ?? "";
  await until(() => frame().includes("showing the last run's state") && frame().includes("●"), "the cached feed, unread messages on screen", frame);
  // Rendered again and again from the cache: nothing asked, nothing waiting to be sent.
  for (let i = 0; i < 10; i++) await act(async () => void (await new Promise((r) => setTimeout(r, 20))));
  expect(second.commands.pendingReads).toBe(0);
  expect(asked).toEqual([]);

  release();
  await started;
  await until(() => asked.length > 0, "a read batch once the server's state is in", frame);
  const sent = asked.flat();
  expect(sent).not.toContain(readElsewhere);
  // Only messages the server held unread.
  const res = await getMessages(elsewhere, { narrow: narrowToApi(FEED), anchor: "oldest", num_before: 0, num_after: 1000, apply_markdown: false });
  for (const id of sent) expect(res.messages.find((m) => m.id === id), String(id)).toBeDefined();
  for (const id of sent) expect(cachedUnread).toContain(id);
});
