/**
 * The cache file: a round trip keeps what the screen draws; a file damaged
 * in any way, of another format or another account, is set aside with a
 * one-line reason and the start goes on without it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/http.js";
import { FEED, type Narrow } from "../../src/model/narrow.js";
import { feedUnreadCount, narrowMessages } from "../../src/model/selectors.js";
import { Store } from "../../src/model/store.js";
import { CacheKeeper } from "../../src/sync/cache.js";
import { cachePath, clearCache, loadCache, writeCache } from "../../src/sync/cache-file.js";
import { readAhead, takeReadAhead } from "../../src/sync/cache-ahead.js";
import { CacheRejected, takeSnapshot, type CacheData } from "../../src/sync/cache-snapshot.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { dmMessage, otherUser, registerResponse, selfUser, streamMessage, subscription, unreadMessages } from "../fixtures/example.js";
import { fakeSyncApi } from "../fixtures/fake-sync.js";

const account = { site: "https://chat.example.test/", email: "self@example.test" };
let dir: string;

beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), "termchat-cache-unit-")), "cache");
});
afterEach(async () => {
  await rm(join(dir, ".."), { recursive: true, force: true });
});

const general = subscription({ stream_id: 10, name: "general" });
const topic: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };

function liveStore(): Store {
  const msgs = [
    streamMessage({ id: 100, stream: general, subject: "lunch", content: "pizza?" }),
    streamMessage({ id: 101, stream: general, subject: "lunch", content: "yes", sender_id: otherUser.user_id }),
    dmMessage({ id: 102, to: [otherUser], from: otherUser, content: "hi" }),
  ];
  const store = new Store(registerResponse({ unread_msgs: unreadMessages(msgs.slice(1)) }));
  store.addFetched(topic, msgs.slice(0, 2), { foundOldest: true, foundNewest: true, direction: "around" });
  store.addFetched(FEED, msgs, { foundOldest: true, foundNewest: true, direction: "around" });
  return store;
}

function snapshot(store = liveStore()): CacheData {
  return takeSnapshot(store, { ...account, base: { realm_name: "Example Org", svc_feature_level: 496 }, maxMessageId: 102, now: 1, view: topic });
}

const gz = (v: unknown) => gzipSync(Buffer.from(typeof v === "string" ? v : JSON.stringify(v)));

it("keeps the narrows, unread counts and names across a write and a read", async () => {
  const live = liveStore();
  const bytes = await writeCache(dir, account, snapshot(live));
  expect(bytes).toBeGreaterThan(0);
  const loaded = await loadCache(dir, account);
  if (loaded.kind !== "loaded") throw new Error(`not loaded: ${JSON.stringify(loaded)}`);
  const s = loaded.store;
  expect(narrowMessages(s, topic).map((m) => m.content)).toEqual(["pizza?", "yes"]);
  expect(narrowMessages(s, FEED).map((m) => m.id)).toEqual([100, 101, 102]);
  expect(feedUnreadCount(s)).toBe(feedUnreadCount(live));
  expect(s.unreads.countInDm([otherUser.user_id])).toBe(1);
  expect(s.userName(otherUser.user_id)).toBe(otherUser.full_name);
  expect(s.channelName(10)).toBe("general");
  expect(s.queueId).toBeNull();
  expect(loaded.data.view).toEqual(topic);
});

it("keeps only the most recent messages of a narrow", async () => {
  const store = liveStore();
  const many = Array.from({ length: 40 }, (_, i) => streamMessage({ id: 200 + i, stream: general, subject: "lunch" }));
  store.addFetched(topic, many, { foundOldest: true, foundNewest: true, direction: "around" });
  const data = takeSnapshot(store, { ...account, base: {}, maxMessageId: 239, now: 1, limits: { messagesPerNarrow: 10, narrows: 5, dmConversations: 5 } });
  const list = data.lists.find((l) => l.narrow.kind === "topic")!;
  expect(list.messages.map((m) => m.id)).toEqual(many.slice(-10).map((m) => m.id));
  expect(list.foundOldest).toBe(false);
});

describe("a cache that cannot be used is set aside with a reason", () => {
  const cases: Array<[string, () => Buffer | Promise<void>, RegExp]> = [
    ["truncated", () => gz(snapshot()).subarray(0, 200), /truncated or damaged/],
    ["empty", () => Buffer.alloc(0), /truncated or damaged/],
    ["not compressed", () => Buffer.from(JSON.stringify(snapshot())), /truncated or damaged/],
    ["random bytes", () => Buffer.from(Array.from({ length: 500 }, (_, i) => (i * 7919) % 256)), /truncated or damaged/],
    ["not JSON", () => gz("{\"version\": 1, "), /damaged/],
    ["JSON but not a cache", () => gz([1, 2, 3]), /not a termchat cache/],
    ["another format version", () => gz({ ...snapshot(), version: 99 }), /another version of termchat/],
    ["another account", () => gz({ ...snapshot(), account: { ...snapshot().account, email: "someone@example.test" } }), /another account/],
    ["another user id", () => gz({ ...snapshot(), account: { ...snapshot().account, userId: 999 } }), /another account/],
    ["messages of the wrong shape", () => gz({ ...snapshot(), lists: [{ narrow: FEED, foundOldest: true, foundNewest: true, messages: [{ id: "x" }] }] }), /damaged/],
    ["unread ids of the wrong shape", () => gz({ ...snapshot(), register: { ...snapshot().register, unread_msgs: { count: 1, streams: [{ stream_id: 10, topic: "lunch", unread_message_ids: ["101"] }] } } }), /damaged/],
    ["an unread record of the wrong shape", () => gz({ ...snapshot(), register: { ...snapshot().register, unread_msgs: [101] } }), /damaged/],
    ["a register of the wrong shape", () => gz({ ...snapshot(), register: { ...snapshot().register, subscriptions: "general" } }), /damaged/],
    ["one that decompresses without end", () => gzipSync(Buffer.alloc(65 * 1024 * 1024)), /truncated or damaged/],
    ["a directory in its place", async () => void (await mkdir(cachePath(dir, account), { recursive: true })), /could not be read/],
  ];
  for (const [name, make, reason] of cases) {
    it(name, async () => {
      await mkdir(dir, { recursive: true });
      const made = await make();
      if (made) await writeFile(cachePath(dir, account), made);
      const loaded = await loadCache(dir, account);
      expect(loaded.kind).toBe("rejected");
      if (loaded.kind === "rejected") expect(loaded.reason).toMatch(reason);
      // The start goes on without it, and says so once.
      const machine = new UpdateMachine({} as ApiClient);
      const keeper = await CacheKeeper.open(machine, { dir, account });
      expect(machine.store).toBeUndefined();
      expect(keeper.note).toMatch(/^The local cache was not used: .+; it will be rewritten\.$/);
      expect(keeper.note).not.toMatch(/\n|at .*\.js/);
      await keeper.dispose();
    });
  }

  it("a good write replaces a damaged file", async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(cachePath(dir, account), Buffer.from("garbage"));
    await writeCache(dir, account, snapshot());
    expect((await loadCache(dir, account)).kind).toBe("loaded");
  });
});

describe("a file this build wrote is read back without its check; any other is checked in full", () => {
  const build = { build: "build-one" };
  /** A file's text with a first line naming `writer` and the digest of `json`. */
  const framed = (writer: string, json: string) => gzipSync(Buffer.from(`termchat-cache ${writer} ${createHash("sha256").update(json).digest("hex")}\n${json}`));
  // Damage a store would take without a word (a message's text that is not text): only the check sees it.
  const damaged = (data = snapshot()) => {
    return JSON.stringify({ ...data, lists: data.lists.map((l) => ({ ...l, messages: l.messages.map((m) => ({ ...m, content: 42 })) })) });
  };

  it("written and read by one build", async () => {
    await writeCache(dir, account, snapshot(), build);
    const text = gunzipSync(await readFile(cachePath(dir, account))).toString("utf8");
    expect(text.split("\n")[0]).toMatch(/^termchat-cache build-one [0-9a-f]{64}$/);
    const loaded = await loadCache(dir, account, build);
    if (loaded.kind !== "loaded") throw new Error(`not loaded: ${JSON.stringify(loaded)}`);
    expect(narrowMessages(loaded.store, FEED).map((m) => m.id)).toEqual([100, 101, 102]);
    expect(loaded.store.userName(otherUser.user_id)).toBe(otherUser.full_name);
  });

  it("changed since it was written: checked, and refused when damaged", async () => {
    await writeCache(dir, account, snapshot(), build);
    const text = gunzipSync(await readFile(cachePath(dir, account))).toString("utf8");
    const head = text.slice(0, text.indexOf("\n"));
    await writeFile(cachePath(dir, account), gzipSync(Buffer.from(`${head}\n${damaged(JSON.parse(text.slice(head.length + 1)) as CacheData)}`)));
    const loaded = await loadCache(dir, account, build);
    expect(loaded).toEqual({ kind: "rejected", reason: "its contents are damaged" });
  });

  it("written by another build: checked, and refused when damaged", async () => {
    await mkdir(dir, { recursive: true });
    await writeFile(cachePath(dir, account), framed("build-zero", damaged()));
    expect(await loadCache(dir, account, build)).toEqual({ kind: "rejected", reason: "its contents are damaged" });
    await writeFile(cachePath(dir, account), framed("build-zero", JSON.stringify(snapshot())));
    expect((await loadCache(dir, account, build)).kind).toBe("loaded");
  });

  it("a snapshot its own check refuses is not written, and the file stays as it was", async () => {
    await writeCache(dir, account, snapshot(), build);
    const before = await readFile(cachePath(dir, account));
    const bad = { ...snapshot(), lists: [{ narrow: FEED, foundOldest: true, foundNewest: true, messages: [{ id: "x" }] }] } as unknown as CacheData;
    await expect(writeCache(dir, account, bad, build)).rejects.toBeInstanceOf(CacheRejected);
    expect(await readFile(cachePath(dir, account))).toEqual(before);
  });
});

describe("a file read ahead of the code that takes it", () => {
  it("is taken once, and gives what reading it then gives", async () => {
    await writeCache(dir, account, snapshot());
    readAhead(cachePath(dir, account));
    const loaded = await loadCache(dir, account);
    if (loaded.kind !== "loaded") throw new Error(`not loaded: ${JSON.stringify(loaded)}`);
    expect(narrowMessages(loaded.store, FEED).map((m) => m.id)).toEqual([100, 101, 102]);
    expect(takeReadAhead(cachePath(dir, account))).toBeUndefined();
  });

  it("none, or one past the bounds, as a read then", async () => {
    readAhead(cachePath(dir, account));
    expect(await loadCache(dir, account)).toEqual({ kind: "none" });
    await mkdir(dir, { recursive: true });
    await writeFile(cachePath(dir, account), gzipSync(Buffer.alloc(65 * 1024 * 1024)));
    readAhead(cachePath(dir, account));
    expect(await loadCache(dir, account)).toEqual({ kind: "rejected", reason: "it is truncated or damaged" });
  });
});

it("no cache at all is no note", async () => {
  const keeper = await CacheKeeper.open(new UpdateMachine({} as ApiClient), { dir, account });
  expect(keeper.note).toBeUndefined();
  expect((await loadCache(dir, account)).kind).toBe("none");
});

it("clears one account's cache, or every one", async () => {
  const other = { site: "https://other.example.test/", email: "me@other.example.test" };
  await writeCache(dir, account, snapshot());
  await writeCache(dir, other, { ...snapshot(), account: { ...other, userId: 1 } });
  expect(await clearCache(dir, other)).toBe(1);
  expect((await loadCache(dir, other)).kind).toBe("none");
  expect((await loadCache(dir, account)).kind).toBe("loaded");
  expect(await clearCache(dir)).toBe(1);
  expect((await loadCache(dir, account)).kind).toBe("none");
});

it("is not written before the user list is in (it keeps the names its screens show), and is once it is", async () => {
  const fake = fakeSyncApi({ register: () => registerResponse({ user_id: undefined, realm_users: [] }) });
  fake.setUsers([selfUser, otherUser]);
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const machine = new UpdateMachine(fake.client, {
    usersAfterStart: true,
    api: { ...fake.api, getAllUsers: async (c, s) => (await gate, fake.api.getAllUsers(c, s)) },
  });
  const keeper = await CacheKeeper.open(machine, { dir, account });
  const store = await machine.start();
  store.addFetched(FEED, [dmMessage({ id: 102, to: [otherUser], from: otherUser, content: "hi" })], { foundOldest: true, foundNewest: true, direction: "around" });
  store.changed();
  await keeper.write();
  expect((await loadCache(dir, account)).kind).toBe("none");
  release();
  for (let i = 0; i < 100 && !store.people.complete; i++) await new Promise((r) => setTimeout(r, 5));
  await keeper.write();
  const loaded = await loadCache(dir, account);
  if (loaded.kind !== "loaded") throw new Error(`not loaded: ${JSON.stringify(loaded)}`);
  expect(loaded.store.userName(otherUser.user_id)).toBe(otherUser.full_name);
  await keeper.dispose();
  await machine.stop();
});

describe("a start from the cache and the user's own record", () => {
  async function startFromCache(ownUser: () => Promise<typeof selfUser>) {
    await writeCache(dir, account, snapshot());
    const fake = fakeSyncApi({ register: () => registerResponse({ user_id: undefined, realm_users: [] }) });
    const never = new Promise<never>(() => undefined); // the user list stays out: names come from the record alone
    const machine = new UpdateMachine(fake.client, { usersAfterStart: true, api: { ...fake.api, getOwnUser: ownUser, getAllUsers: () => never } });
    const keeper = await CacheKeeper.open(machine, { dir, account });
    expect(machine.store?.userName(selfUser.user_id)).toBe(selfUser.full_name); // the cached store draws first
    const store = await machine.start();
    return { store, machine, keeper };
  }

  it("asks for it beside the register all the same, and the live store has the fresh one", async () => {
    let asked = 0;
    const { store, machine, keeper } = await startFromCache(async () => (asked++, { ...selfUser, full_name: "Self User (renamed)" }));
    expect(asked).toBe(1);
    expect(store.userName(selfUser.user_id)).toBe("Self User (renamed)");
    await keeper.dispose();
    await machine.stop();
  });

  it("fetches the cached narrows again while the live store waits for that record", async () => {
    await writeCache(dir, account, snapshot());
    const fake = fakeSyncApi({ register: () => registerResponse({ user_id: undefined, realm_users: [] }) });
    fake.setMessages([streamMessage({ id: 103, stream: general, subject: "lunch", content: "on my way" })]);
    let answer!: () => void;
    const record = new Promise<void>((r) => (answer = r));
    const never = new Promise<never>(() => undefined);
    const machine = new UpdateMachine(fake.client, { usersAfterStart: true, api: { ...fake.api, getOwnUser: async () => (await record, selfUser), getAllUsers: () => never } });
    const keeper = await CacheKeeper.open(machine, { dir, account });
    const started = machine.start();
    // Both cached narrows are asked for before the record is in: the store is not built yet.
    for (let i = 0; i < 200 && fake.count("getMessages") < 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(fake.count("getMessages")).toBe(2);
    expect(keeper.isCached(machine.store)).toBe(true);
    answer();
    const store = await started;
    expect(keeper.isCached(store)).toBe(false);
    expect(narrowMessages(store, topic).map((m) => m.content)).toEqual(["on my way"]);
    await keeper.dispose();
    await machine.stop();
  });

  /**
   * A start whose register hands the machine its answer's bytes first (as the HTTP client does),
   * then holds the parsed answer until the test lets it go; the bytes say feature level `looked`.
   */
  async function startWithHeldAnswer(looked: number, parsed: number) {
    await writeCache(dir, account, snapshot());
    const fake = fakeSyncApi();
    fake.setMessages([streamMessage({ id: 103, stream: general, subject: "lunch", content: "on my way" })]);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const api = {
      ...fake.api,
      register: async (...args: Parameters<typeof fake.api.register>) => {
        const answer = await fake.api.register(...args);
        await args[3]?.beforeParse?.(Buffer.from(JSON.stringify({ ...answer, svc_feature_level: looked })));
        await held;
        return { ...answer, svc_feature_level: parsed };
      },
    };
    const machine = new UpdateMachine(fake.client, { api });
    const keeper = await CacheKeeper.open(machine, { dir, account });
    const started = machine.start();
    for (let i = 0; i < 200 && fake.count("getMessages") < 2; i++) await new Promise((r) => setTimeout(r, 5));
    return { fake, machine, keeper, started, release };
  }
  const channelTerms = (fake: ReturnType<typeof fakeSyncApi>) =>
    fake.calls.filter((c) => c.name === "getMessages").map((c) => (c.params as { narrow: Array<{ operator: string }> }).narrow.map((t) => t.operator).join(" "));

  it("fetches the cached narrows again as soon as the register's answer is in, before it is parsed", async () => {
    const { fake, machine, keeper, started, release } = await startWithHeldAnswer(400, 400);
    // Both narrows are asked for, and the first poll sent, while the parsed answer is still held.
    expect(fake.count("getMessages")).toBe(2);
    expect(fake.count("getEvents")).toBe(1);
    expect(keeper.isCached(machine.store)).toBe(true);
    release();
    const store = await started;
    expect(fake.count("getMessages")).toBe(2); // not asked again
    expect(narrowMessages(store, topic).map((m) => m.content)).toEqual(["on my way"]);
    await keeper.dispose();
    await machine.stop();
  });

  it("fetches them again in the parsed answer's terms when the look at its bytes found another feature level", async () => {
    // The bytes say a server of level 400 ("channel" in narrows); the parse says 200 ("stream").
    const { fake, machine, keeper, started, release } = await startWithHeldAnswer(400, 200);
    expect(channelTerms(fake).some((t) => t.includes("channel"))).toBe(true);
    release();
    const store = await started;
    const terms = channelTerms(fake);
    expect(terms.length).toBeGreaterThan(2);
    expect(terms.slice(-2).every((t) => !t.includes("channel"))).toBe(true);
    expect(narrowMessages(store, topic).map((m) => m.content)).toEqual(["on my way"]);
    await keeper.dispose();
    await machine.stop();
  });

  it("takes the cached record when that request fails, and goes live", async () => {
    const { store, machine, keeper } = await startFromCache(() => Promise.reject(new Error("connection reset")));
    expect(store.selfId).toBe(selfUser.user_id);
    expect(store.userName(selfUser.user_id)).toBe(selfUser.full_name);
    expect(machine.state.kind).toBe("live");
    await keeper.dispose();
    await machine.stop();
  });
});
