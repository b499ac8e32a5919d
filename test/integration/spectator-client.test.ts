/**
 * Reading without an account, from the client's side, against the reference
 * server over 127.0.0.1: the api layer registers anonymously and reads a
 * web-public channel (its narrows say `channels: web-public`); a write is
 * refused with the spec's error; an account runtime in the registry runs a
 * spectator as any account (a store with the web-public channels, no event
 * queue), and its writing actions answer one line without reaching the server.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { ApiClient } from "../../src/api/http.js";
import { register } from "../../src/api/routes/events.js";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { SPECTATOR_SELF_ID } from "../../src/model/store.js";
import { SPECTATOR_LINE } from "../../src/sync/account-handle.js";
import { AccountsRegistry } from "../../src/sync/accounts-registry.js";
import { spectatorRegisterParams } from "../../src/sync/register-params.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
let spectator: ApiClient;
let dir: string;
beforeEach(async () => {
  ctx = await withServer({ heartbeatMs: 200, longpollTimeoutSecs: 1 });
  spectator = new ApiClient({ site: ctx.server.url, spectator: true });
  dir = await mkdtemp(join(tmpdir(), "termchat-spectator-"));
});
afterEach(async () => {
  await spectator.close();
  await ctx.close();
  await rm(dir, { recursive: true, force: true });
});

it("registers without credentials and reads a web-public channel's messages", async () => {
  const reg = await register(spectator, spectatorRegisterParams());
  expect(reg.queue_id).toBeNull();
  expect(reg.user_id).toBeUndefined();
  expect(reg.subscriptions.map((s) => s.name)).toEqual(["announcements"]);
  const channelId = reg.subscriptions[0]!.stream_id;
  const page = await getMessages(spectator, { anchor: "newest", num_before: 20, num_after: 0, narrow: [{ operator: "channel", operand: channelId }], apply_markdown: false });
  expect(page.messages.length).toBeGreaterThan(0);
  expect(page.messages.every((m) => m.stream_id === channelId)).toBe(true);
  expect(page.messages.map((m) => m.content).join("\n")).toContain("Holiday schedule for December");
});

it("is refused a write with the spec's error, and nothing is written", async () => {
  const reg = await register(spectator, spectatorRegisterParams());
  const channelId = reg.subscriptions[0]!.stream_id;
  const send = await sendMessage(spectator, { type: "stream", to: channelId, topic: "hello", content: "from a spectator" }).catch((e: unknown) => e);
  expect(send).toBeInstanceOf(ApiError);
  expect(send).toMatchObject({ status: 401, code: "UNAUTHORIZED", message: "Not logged in: API authentication or user session required" });
  const page = await getMessages(spectator, { anchor: "newest", num_before: 50, num_after: 0, narrow: [{ operator: "channel", operand: channelId }] });
  expect(page.messages.some((m) => m.content.includes("from a spectator"))).toBe(false);
});

it("runs a spectator through an account runtime: web-public channels, no queue, and writing answered with one line without a request", async () => {
  const accounts = new AccountsRegistry();
  try {
    const { runtime, handle } = await accounts.open({ client: spectator, account: { site: spectator.site.href, email: "" }, stateDir: dir });
    const store = await runtime.start();
    expect(handle.spectator).toBe(true);
    expect(store.selfId).toBe(SPECTATOR_SELF_ID);
    expect(store.queueId).toBeNull();
    expect(runtime.machine.state.kind).toBe("live");
    const channel = [...store.channels.values()].find((c) => c.name === "announcements");
    expect(channel?.is_web_public).toBe(true);
    expect(store.unreads.size).toBe(0);

    // The view is loaded as for an account.
    handle.view.set({ narrow: { kind: "channel", channelId: channel!.stream_id }, focus: "messages" });
    const list = await eventually(() => {
      const l = store.messages.list({ kind: "channel", channelId: channel!.stream_id });
      return l && l.ids.length > 0 ? l : undefined;
    });

    // Writing: one line, and no request reaches the server.
    const messageId = list.ids[0]!;
    const before = ctx.conformance.responses.length;
    const attempts = await Promise.all([
      handle.actions.toggleReaction(store.messages.byId.get(messageId)!, { emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji" }),
      handle.actions.setStarred(messageId, true),
      handle.actions.editMessage(messageId, { content: "changed" }),
      handle.actions.markChannelRead(channel!.stream_id),
      handle.actions.setStatus({ status_text: "here" }),
    ]);
    for (const r of attempts) expect(r).toEqual({ ok: false, error: { code: "SPECTATOR", message: SPECTATOR_LINE } });
    const sent = handle.actions.send({ type: "stream", channelId: channel!.stream_id, topic: "hi" }, "from a spectator");
    expect(sent).toMatchObject({ state: "failed", error: SPECTATOR_LINE });
    expect(handle.pendingIn({ kind: "channel", channelId: channel!.stream_id })).toEqual([]);
    // The actions have all answered: any request they made has had its answer.
    expect(ctx.conformance.responses.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([]);
    // No event queue was asked for, nor presence reported.
    expect(ctx.conformance.responses.some((r) => r.path === "/events" || r.path.includes("presence"))).toBe(false);
  } finally {
    await accounts.closeAll(1500);
  }
});

it("brings a spectator's view up to date without an event queue: the store is rebuilt now and then, and new messages show", async () => {
  const accounts = new AccountsRegistry();
  try {
    const { runtime, handle } = await accounts.open({ client: spectator, account: { site: spectator.site.href, email: "" }, stateDir: dir, machine: { spectatorRefreshMs: 100 } });
    const first = await runtime.start();
    const channelId = [...first.channels.values()].find((c) => c.name === "announcements")!.stream_id;
    const narrow = { kind: "channel" as const, channelId };
    handle.view.set({ narrow, focus: "messages" });
    await eventually(() => (first.messages.list(narrow)?.ids.length ?? 0) > 0);
    const sent = await sendMessage(ctx.client(), { type: "stream", to: channelId, topic: "holiday schedule", content: "The office is closed on the 24th." });
    const shown = await eventually(() => {
      const store = handle.store();
      return store !== first && store?.messages.list(narrow)?.ids.includes(sent.id) ? store : undefined;
    });
    expect(shown.messages.byId.get(sent.id)?.content).toBe("The office is closed on the 24th.");
    expect(shown.queueId).toBeNull();
    expect(ctx.conformance.responses.some((r) => r.path === "/events")).toBe(false);
  } finally {
    await accounts.closeAll(1500);
  }
});
