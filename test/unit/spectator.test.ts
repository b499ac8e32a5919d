/**
 * Reading without an account, the pure parts: the command line (`--site URL
 * --spectator`), a spectator's entry in the account list, the client that
 * sends no credentials and still refuses plain http to a remote host, the
 * spectator's narrows, its register answer as the store is built from it,
 * and its actions that refuse writing with one line.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/http.js";
import { SiteError } from "../../src/api/site.js";
import { spectatorNarrow } from "../../src/api/routes/messages.js";
import { spectatorRegisterSchema } from "../../src/api/schemas/spectator.js";
import { resolveAccount, resolveSeveral, SPECTATOR_CHOICE, type AccountChoice } from "../../src/cli/account.js";
import { parseCliArgs } from "../../src/cli/args.js";
import type { AccountPaths } from "../../src/config/accounts.js";
import { SPECTATOR_SELF_ID, Store } from "../../src/model/store.js";
import { sidebarScreens } from "../../src/ui/screens.js";
import { SPECTATOR_LINE, type AccountActions } from "../../src/sync/account-handle.js";
import { spectatorActions } from "../../src/sync/spectator.js";
import { homeView } from "../../src/ui/ui-state.js";

describe("command line", () => {
  it("takes --site with --spectator alone, and says what is wrong otherwise", () => {
    expect(parseCliArgs(["--site", "https://chat.example.test", "--spectator"], {})).toMatchObject({ command: "client", site: "https://chat.example.test", spectator: true });
    expect(() => parseCliArgs(["--spectator"], {})).toThrow(/give its URL with --site/);
    expect(() => parseCliArgs(["--site", "https://x", "--spectator", "--email", "a@b"], {})).toThrow(/without an account: leave out --email/);
    expect(parseCliArgs(["--site", "http://10.0.0.5", "--spectator", "--allow-insecure-http"], {})).toMatchObject({ allowInsecureHttp: true, spectator: true });
  });
});

describe("the client of a spectator", () => {
  it("carries no credentials and refuses plain http to a remote host unless allowed", async () => {
    const client = new ApiClient({ site: "https://chat.example.test", spectator: true });
    expect(client.spectator).toBe(true);
    expect(client.email).toBe("");
    expect(client.authorizationFor(new URL("https://chat.example.test/user_uploads/1/a.png"))).toBeUndefined();
    expect(JSON.stringify(client)).toBe('{"site":"https://chat.example.test/","spectator":true}');
    expect(() => new ApiClient({ site: "http://chat.example.test", spectator: true })).toThrow(SiteError);
    expect(() => new ApiClient({ site: "http://chat.example.test", spectator: true })).toThrow(/Refusing plain http:\/\/ to chat\.example\.test/);
    expect(new ApiClient({ site: "http://chat.example.test", spectator: true }, { allowInsecureHttp: true }).site.protocol).toBe("http:");
    expect(new ApiClient({ site: "http://127.0.0.1:9991", spectator: true }).site.host).toBe("127.0.0.1:9991");
    await client.close();
  });

  it("says in every narrow that it reads web-public channels, once", () => {
    const web = { operator: "channels", operand: "web-public" };
    expect(spectatorNarrow(undefined)).toEqual([web]);
    expect(spectatorNarrow([{ operator: "channel", operand: 7 }])).toEqual([{ operator: "channel", operand: 7 }, web]);
    expect(spectatorNarrow([{ operator: "channel", operand: 7 }, web])).toEqual([{ operator: "channel", operand: 7 }, web]);
    expect(spectatorNarrow([["stream", "news"]])).toEqual([["stream", "news"], ["channels", "web-public"]]);
    // The combined feed's `in:home` depends on a user's mutes: a spectator's feed is every web-public channel.
    expect(spectatorNarrow([{ operator: "in", operand: "home" }])).toEqual([web]);
  });
});

describe("a spectator's register answer", () => {
  const base = { result: "success", msg: "", queue_id: null, last_event_id: -1, realm_name: "Open Org" };
  const channel = (id: number, name: string, extra: Record<string, unknown> = {}) => ({ stream_id: id, name, description: "", invite_only: false, is_web_public: true, ...extra });

  it("builds a store with no user, no unreads and the web-public channels as its channels, wherever the server listed them", () => {
    const reg = spectatorRegisterSchema.parse({
      ...base,
      subscriptions: [channel(1, "news", { color: "#c2c2c2" })],
      never_subscribed: [channel(2, "help"), channel(3, "secret", { is_web_public: false }), channel(4, "old", { is_archived: true })],
    });
    expect(reg.subscriptions.map((s) => s.name)).toEqual(["news", "help"]);
    const store = new Store(reg, { selfIdHint: SPECTATOR_SELF_ID });
    expect([...store.channels.values()].map((c) => c.name).sort()).toEqual(["help", "news"]);
    expect(store.unreads.size).toBe(0);
    expect(store.users.size).toBe(0);
    expect(store.userName(store.selfId)).toBe("spectator");
    expect(store.realm.name).toBe("Open Org");
    // Nothing unread, no home view setting: it opens on the combined feed, unless the settings say otherwise.
    expect(homeView(store)).toBe("feed");
    expect(homeView(store, "inbox")).toBe("inbox");
    // The sidebar offers the combined feed and the channels, no personal view.
    expect(sidebarScreens(store).map((v) => v.screen.id)).toEqual(["feed"]);
  });

  it("never keeps a queue, and refuses an answer that is no register at all", () => {
    expect(spectatorRegisterSchema.parse({ ...base, queue_id: "1:2" }).queue_id).toBeNull();
    expect(spectatorRegisterSchema.safeParse({ result: "success", msg: "" }).success).toBe(false);
  });
});

describe("a spectator's actions", () => {
  it("answers writing with one line and lets reading through", async () => {
    const calls: string[] = [];
    const names = ["setStarred", "toggleReaction", "markAllRead", "messageSource", "fetchTopics", "keepPlace", "composeChanged"] as const;
    const actions = Object.fromEntries(names.map((n) => [n, (...a: unknown[]) => (calls.push(n), Promise.resolve({ ok: true, value: a }))])) as unknown as AccountActions;
    const read = spectatorActions({ ...actions, send: () => (calls.push("send"), undefined) } as unknown as AccountActions, () => 1000);
    expect(await read.setStarred(1, true)).toEqual({ ok: false, error: { code: "SPECTATOR", message: SPECTATOR_LINE } });
    expect(await read.markAllRead()).toMatchObject({ ok: false });
    await read.messageSource(1);
    await read.fetchTopics(2);
    read.keepPlace({ kind: "channel", channelId: 2 }, 5);
    read.composeChanged({ type: "stream", channelId: 2, topic: "t" }, "text");
    expect(read.send({ type: "stream", channelId: 2, topic: "t" }, "hello")).toMatchObject({ state: "failed", error: SPECTATOR_LINE, content: "hello" });
    expect(calls).toEqual(["messageSource", "fetchTopics", "keepPlace"]);
  });
});

describe("a spectator's entry in the account list", () => {
  let dir: string;
  let paths: AccountPaths;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "termchat-spectator-"));
    paths = { zuliprc: join(dir, ".zuliprc"), accountsDir: join(dir, "accounts") };
  });
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it("is offered beside the accounts, and chosen like one, with no email or key", async () => {
    await mkdir(paths.accountsDir, { recursive: true });
    const write = async (name: string, text: string) => {
      await writeFile(join(paths.accountsDir, name), text, { mode: 0o600 });
      await chmod(join(paths.accountsDir, name), 0o600);
    };
    await write("work.zuliprc", "[api]\nemail=me@work.test\nkey=abc\nsite=https://work.test\n");
    await write("open.zuliprc", "[api]\nsite=https://open.example.test\nspectator=true\n");
    let offered: AccountChoice[] = [];
    const account = await resolveAccount({ allowInsecureHttp: false }, { paths, choose: async (c) => ((offered = c), "open") });
    expect(offered).toEqual([
      { name: "open", email: SPECTATOR_CHOICE, site: "https://open.example.test" },
      { name: "work", email: "me@work.test", site: "https://work.test" },
    ]);
    expect(account).toMatchObject({ site: "https://open.example.test", spectator: true, email: "", apiKey: "" });
    expect(await resolveAccount({ allowInsecureHttp: false, account: "open" }, { paths })).toMatchObject({ spectator: true });
    await write("broken.zuliprc", "[api]\nspectator=true\n");
    await expect(resolveAccount({ allowInsecureHttp: false, account: "broken" }, { paths })).rejects.toThrow(/missing site/);
  });

  it("among several accounts, connects with the others sending no credentials; --site with --spectator reads that site alone", async () => {
    await mkdir(paths.accountsDir, { recursive: true });
    await writeFile(join(paths.accountsDir, "work.zuliprc"), "[api]\nemail=me@work.test\nkey=abc\nsite=https://work.test\n", { mode: 0o600 });
    await writeFile(join(paths.accountsDir, "open.zuliprc"), "[api]\nsite=https://open.example.test\nspectator=true\n", { mode: 0o600 });
    const several = await resolveSeveral({ allowInsecureHttp: false }, async () => undefined, { paths });
    expect(several?.find((a) => a.name === "open")).toMatchObject({ spectator: true, email: "", apiKey: "", connect: true });
    expect(await resolveSeveral({ allowInsecureHttp: false, site: "https://other.example.test", spectator: true }, async () => undefined, { paths })).toBeUndefined();
  });
});
