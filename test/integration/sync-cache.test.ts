/**
 * The local cache against the reference server: what a run leaves is what
 * the next start draws (sidebar, unread counts, the narrow's messages), and
 * what the server changed meanwhile (a deletion, a message read elsewhere)
 * is gone once the register's store replaces the cached one.
 */
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { deleteMessage, getMessages, sendMessage, updateMessage, updateMessageFlags } from "../../src/api/routes/messages.js";
import { getTopics } from "../../src/api/routes/topics.js";
import type { ApiClient } from "../../src/api/http.js";
import { FEED, narrowToApi, type Narrow } from "../../src/model/narrow.js";
import { feedUnreadCount, narrowMessages } from "../../src/model/selectors.js";
import type { Store } from "../../src/model/store.js";
import { CacheKeeper } from "../../src/sync/cache.js";
import { cachePath, loadCache, writeCache } from "../../src/sync/cache-file.js";
import { takeSnapshot } from "../../src/sync/cache-snapshot.js";
import { UpdateMachine, type SyncApi } from "../../src/sync/update-machine.js";
import { getOwnUser } from "../../src/api/routes/users.js";
import { buildSidebarRows } from "../../src/ui/sidebar-rows.js";
import { FakeClock, until } from "../fixtures/fake-clock.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
let dir: string;
const machines: UpdateMachine[] = [];
const keepers: CacheKeeper[] = [];

beforeEach(async () => {
  ctx = await withServer({ heartbeatMs: 200 });
  dir = join(await mkdtemp(join(tmpdir(), "termchat-cache-")), "cache");
});

afterEach(async () => {
  await Promise.all(keepers.splice(0).map((k) => k.dispose()));
  await Promise.all(machines.splice(0).map((m) => m.stop()));
  await ctx.close();
  await rm(join(dir, ".."), { recursive: true, force: true });
});

function account(client: ApiClient) {
  return { site: client.site.href, email: client.email };
}

/** A machine with a cache keeper, as a session has them. */
async function open(client: ApiClient, api?: Partial<SyncApi>) {
  const machine = new UpdateMachine(client, { backoff: { baseMs: 10, maxMs: 50 }, api });
  machines.push(machine);
  const keeper = await CacheKeeper.open(machine, { dir, account: account(client), intervalMs: 60_000, firstWriteMs: 60_000 });
  keepers.push(keeper);
  return { machine, keeper };
}

async function loadFeed(client: ApiClient, store: Store): Promise<void> {
  const res = await getMessages(client, { narrow: narrowToApi(FEED), anchor: "newest", num_before: 400, num_after: 0, apply_markdown: false, client_gravatar: true });
  store.addFetched(FEED, res.messages, { foundOldest: res.found_oldest, foundNewest: res.found_newest, direction: "around" });
}

const ids = (store: Store, n: Narrow) => narrowMessages(store, n).map((m) => m.id);
/** The sidebar as drawn, with the first channel's topics shown. */
const sidebarText = (store: Store) => JSON.stringify(buildSidebarRows(store, { expanded: firstChannel(store) }));
const firstChannel = (store: Store) => Math.min(...store.channels.keys());

/** A first run: live, the feed loaded, its state written to the cache at exit. */
async function firstRun(client: ApiClient): Promise<Store> {
  const { machine, keeper } = await open(client);
  const store = await machine.start();
  await loadFeed(client, store);
  const channelId = firstChannel(store);
  store.setTopics(channelId, (await getTopics(client, channelId, { allow_empty_topic_name: true })).topics);
  keeper.noteView(FEED);
  await keeper.dispose();
  await machine.stop();
  return store;
}

it("a start draws the last run's sidebar, unread counts and narrow before the register, then the server's", async () => {
  const client = ctx.client();
  const before = await firstRun(client);
  let asked = 0;
  const { machine, keeper } = await open(ctx.client(), { getOwnUser: (c, s) => (asked++, getOwnUser(c, s)) });
  const cached = machine.store;
  expect(cached).toBeDefined();
  expect(keeper.isCached(cached)).toBe(true);
  expect(keeper.startNarrow).toEqual(FEED);
  expect(sidebarText(cached!)).toBe(sidebarText(before));
  expect(cached!.topicsOf(firstChannel(before)).length).toBeGreaterThan(0);
  expect(feedUnreadCount(cached!)).toBe(feedUnreadCount(before));
  expect(ids(cached!, FEED)).toEqual(ids(before, FEED).slice(-300));
  expect(cached!.userName(cached!.selfId)).toBe(before.userName(before.selfId));
  for (const m of narrowMessages(cached!, FEED)) expect(cached!.userName(m.sender_id)).toBe(before.userName(m.sender_id));

  const fresh = await machine.start();
  expect(fresh).not.toBe(cached);
  expect(keeper.isCached(machine.store)).toBe(false);
  // The narrow the cached store held is on the fresh store too (the view keeps its place).
  expect(ids(fresh, FEED).slice(-50)).toEqual(ids(before, FEED).slice(-50));
  // The register names no user: the user's own record is asked for beside it, once, even though
  // the cached store names the user (the request opens the connection the refetch then takes).
  expect(asked).toBe(1);
  expect(fresh.selfId).toBe(before.selfId);
  expect(fresh.people.complete).toBe(true);
  expect(fresh.userName(fresh.selfId)).toBe(before.userName(before.selfId));
});

it("what changed elsewhere while closed (deleted, read, edited, moved) does not stay after the register", async () => {
  const client = ctx.client();
  // Two recent messages of ours (old ones are past the edit time limit), where the feed shows them.
  const newest = (await getMessages(client, { narrow: narrowToApi(FEED), anchor: "newest", num_before: 20, num_after: 0 })).messages.findLast((m) => m.type === "stream")!;
  const send = (content: string) => sendMessage(client, { type: "stream", to: newest.stream_id!, topic: newest.subject, content });
  const moved = await send("to be moved elsewhere");
  const edited = await send("to be edited elsewhere");
  const before = await firstRun(client);
  const feed = narrowMessages(before, FEED);
  const unread = feed.filter((m) => before.unreads.has(m.id) && m.sender_id !== before.selfId).at(-1);
  const doomed = feed.filter((m) => !before.unreads.has(m.id) && m.id < moved.id).at(-1);
  expect(unread).toBeDefined();
  expect(doomed).toBeDefined();

  // Elsewhere, while termchat is closed.
  const other = ctx.client();
  await updateMessageFlags(other, { messages: [unread!.id], op: "add", flag: "read" });
  await deleteMessage(other, doomed!.id);
  await updateMessage(other, edited.id, { content: "edited elsewhere" });
  await updateMessage(other, moved.id, { topic: "moved elsewhere", propagate_mode: "change_one" });

  const { machine } = await open(ctx.client());
  const cached = machine.store!;
  expect(ids(cached, FEED)).toContain(doomed!.id);
  expect(cached.unreads.has(unread!.id)).toBe(true);

  const fresh = await machine.start();
  expect(ids(fresh, FEED)).not.toContain(doomed!.id);
  expect(fresh.messages.byId.has(doomed!.id)).toBe(false);
  expect(ids(fresh, FEED)).toContain(unread!.id);
  expect(fresh.unreads.has(unread!.id)).toBe(false);
  expect(feedUnreadCount(fresh)).toBe(feedUnreadCount(cached) - 1);
  expect(cached.messages.byId.get(edited.id)?.content).toBe("to be edited elsewhere");
  expect(fresh.messages.byId.get(edited.id)?.content).toBe("edited elsewhere");
  expect(cached.messages.byId.get(moved.id)?.subject).toBe(newest.subject);
  expect(fresh.messages.byId.get(moved.id)?.subject).toBe("moved elsewhere");
});

it("keeps the cache private: directory 0700, file 0600, no temp file left", async () => {
  const client = ctx.client();
  await firstRun(client);
  expect((await stat(dir)).mode & 0o777).toBe(0o700);
  expect((await stat(cachePath(dir, account(client)))).mode & 0o777).toBe(0o600);
  expect((await readdir(dir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
});

it("another user of the same organization does not read this one's cache", async () => {
  const client = ctx.client();
  await firstRun(client);
  const otherUser = ctx.server.accounts.find((a) => a.email !== ctx.owner.email)!;
  const loaded = await loadCache(dir, account(ctx.client(otherUser)));
  expect(loaded.kind).toBe("none");
});

it("writes while live at most once per interval, and only when something changed", async () => {
  const client = ctx.client();
  const clock = new FakeClock(Date.now());
  const machine = new UpdateMachine(client, { backoff: { baseMs: 10, maxMs: 50 } });
  machines.push(machine);
  const keeper = await CacheKeeper.open(machine, { dir, account: account(client), clock, intervalMs: 30_000, firstWriteMs: 5_000 });
  keepers.push(keeper);
  const store = await machine.start();
  await clock.advance(4_999);
  expect(keeper.stats.writes).toBe(0);
  await clock.advance(1);
  await until(() => keeper.stats.writes === 1);
  // A burst of changes: one more write, a whole interval after the first.
  for (let i = 0; i < 20; i++) store.changed();
  await clock.advance(29_000);
  expect(keeper.stats.writes).toBe(1);
  await clock.advance(1_000);
  await until(() => keeper.stats.writes === 2);
  // Nothing changed since: no write, not even at exit.
  await clock.advance(60_000);
  await keeper.dispose();
  expect(keeper.stats.writes).toBe(2);
  expect(keeper.stats.lastError).toBeUndefined();
});

it("a cache read back by the build that wrote it, without checking it again, gives the store a full check gives", async () => {
  const client = ctx.client();
  const live = await firstRun(client);
  const data = takeSnapshot(live, { ...account(client), base: {}, maxMessageId: Math.max(...ids(live, FEED)), now: 1, view: FEED });
  await writeCache(dir, account(client), data, { build: "this-build" });
  const trusted = await loadCache(dir, account(client), { build: "this-build" });
  const checked = await loadCache(dir, account(client), { build: "another-build" });
  if (trusted.kind !== "loaded" || checked.kind !== "loaded") throw new Error(`not loaded: ${trusted.kind}, ${checked.kind}`);
  // What either draws, and what either would write again.
  for (const s of [trusted.store, checked.store]) {
    expect(ids(s, FEED)).toEqual(ids(live, FEED));
    expect(feedUnreadCount(s)).toBe(feedUnreadCount(live));
  }
  expect(sidebarText(trusted.store)).toBe(sidebarText(checked.store));
  const again = (s: Store) => JSON.parse(JSON.stringify(takeSnapshot(s, { ...account(client), base: {}, maxMessageId: 0, now: 1 }))) as unknown;
  expect(again(trusted.store)).toEqual(again(checked.store));
});
