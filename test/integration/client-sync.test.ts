/**
 * The client's api and sync layers against the reference server over real
 * HTTP: register, fetch messages, send, and receive the events.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { register, getEvents } from "../../src/api/routes/events.js";
import { getMessages, sendMessage, updateMessageFlags } from "../../src/api/routes/messages.js";
import { getTopics } from "../../src/api/routes/topics.js";
import { fetchApiKey } from "../../src/api/routes/auth.js";
import { narrowMessages, feedUnreadCount } from "../../src/model/selectors.js";
import { Commands } from "../../src/sync/commands.js";
import { UpdateMachine, type ConnectionState } from "../../src/sync/update-machine.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
const machines: UpdateMachine[] = [];

beforeEach(async () => {
  ctx = await withServer({ heartbeatMs: 200 });
});

afterEach(async () => {
  await Promise.all(machines.splice(0).map((m) => m.stop()));
  await ctx.close();
});

function machineFor(who?: string) {
  const m = new UpdateMachine(ctx.client(who), { backoff: { baseMs: 10, maxMs: 50 } });
  machines.push(m);
  return m;
}

describe("api against the reference server", () => {
  it("exchanges a password for the API key", async () => {
    const res = await fetchApiKey(ctx.server.url, ctx.owner.email, "termchat-demo");
    expect(res.api_key).toBe(ctx.owner.apiKey);
    const err = await fetchApiKey(ctx.server.url, ctx.owner.email, "wrong").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(401);
  });

  it("registers and gets the organization's state with the spec's field names", async () => {
    const reg = await register(ctx.client(), { apply_markdown: false, client_capabilities: { empty_topic_name: true } });
    expect(reg.svc_feature_level).toBeGreaterThanOrEqual(334);
    expect(reg.queue_id).toBeTruthy();
    expect(reg.realm_users.all().length).toBeGreaterThanOrEqual(8);
    expect(reg.realm_users.problems).toEqual([]);
    expect(reg.subscriptions.length).toBeGreaterThanOrEqual(5);
    expect(reg.unread_msgs?.mentions.length).toBeGreaterThan(0);
  });

  it("refuses a wrong API key with a typed authentication error", async () => {
    const bad = ctx.client({ ...ctx.owner, apiKey: "x".repeat(32) });
    const err = await register(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).isAuthFailure).toBe(true);
    expect((err as ApiError).code).toBe("INVALID_API_KEY");
  });

  it("fetches a topic's messages as raw Markdown, and the channel's topics", async () => {
    const reg = await register(ctx.client());
    const channel = reg.subscriptions.find((s) => s.name === "engineering");
    expect(channel).toBeDefined();
    const topics = await getTopics(ctx.client(), channel!.stream_id, { allow_empty_topic_name: true });
    expect(topics.topics.length).toBeGreaterThan(1);
    const topic = topics.topics[0]!.name;
    const res = await getMessages(ctx.client(), {
      anchor: "newest",
      num_before: 50,
      num_after: 0,
      apply_markdown: false,
      narrow: [
        { operator: "channel", operand: channel!.stream_id },
        { operator: "topic", operand: topic },
      ],
    });
    expect(res.found_newest).toBe(true);
    expect(res.messages.length).toBeGreaterThan(0);
    expect(res.messages.every((m) => m.subject === topic && m.stream_id === channel!.stream_id)).toBe(true);
    expect(res.messages[0]!.content_type).toBe("text/x-markdown");
  });

  it("delivers a sent message to the other user's queue, with the sender's local id echoed to the sender's queue", async () => {
    const ownerReg = await register(ctx.client());
    const other = ctx.server.accounts.find((a) => a.role === "member")!;
    const otherReg = await register(ctx.client(other));
    const channel = ownerReg.subscriptions.find((s) => s.name === "general")!;
    const sent = await sendMessage(ctx.client(), {
      type: "stream",
      to: channel.stream_id,
      topic: "integration",
      content: "hello **world**",
      queue_id: ownerReg.queue_id!,
      local_id: "42.1",
    });
    const theirs = await getEvents(ctx.client(other), { queue_id: otherReg.queue_id!, last_event_id: -1 }, { timeoutMs: 5000 });
    const msg = theirs.events.find((e) => e.type === "message");
    expect(msg).toMatchObject({ type: "message", message: { id: sent.id, content: "hello **world**", subject: "integration" } });
    const mine = await getEvents(ctx.client(), { queue_id: ownerReg.queue_id!, last_event_id: -1 }, { timeoutMs: 5000 });
    expect(mine.events.find((e) => e.type === "message")).toMatchObject({ local_message_id: "42.1" });
  });
});

describe("sync against the reference server", () => {
  it("builds a store and applies messages others send, live", async () => {
    const machine = machineFor();
    const store = await machine.start();
    const general = [...store.channels.values()].find((c) => c.name === "general")!;
    const narrow = { kind: "topic" as const, channelId: general.stream_id, topic: "live" };
    const commands = new Commands(machine);
    await commands.loadNarrow(narrow);
    expect(store.messages.list(narrow)?.foundNewest).toBe(true);
    const before = feedUnreadCount(store);

    const other = ctx.server.accounts.find((a) => a.role === "member")!;
    await sendMessage(ctx.client(other), { type: "stream", to: general.stream_id, topic: "live", content: "are you there?" });

    await eventually(() => narrowMessages(store, narrow).some((m) => m.content === "are you there?"));
    expect(feedUnreadCount(store)).toBe(before + 1);
    commands.dispose();
  });

  it("marks read on the server through the commands layer", async () => {
    const machine = machineFor();
    const store = await machine.start();
    const commands = new Commands(machine);
    const general = [...store.channels.values()].find((c) => c.name === "general")!;
    const { id } = await sendMessage(ctx.client(), { type: "stream", to: general.stream_id, topic: "from-sync", content: "sent by sync" });
    await eventually(() => store.messages.byId.get(id));

    const unread = store.unreads.allIds().slice(0, 3);
    expect(unread.length).toBe(3);
    commands.markRead(unread);
    await commands.flushRead();
    await eventually(() => unread.every((u) => !store.unreads.has(u)));
    // A fresh register agrees.
    const reg = await register(ctx.client());
    const stillUnread = new Set([
      ...(reg.unread_msgs?.streams ?? []).flatMap((s) => s.unread_message_ids),
      ...(reg.unread_msgs?.pms ?? []).flatMap((s) => s.unread_message_ids),
      ...(reg.unread_msgs?.huddles ?? []).flatMap((s) => s.unread_message_ids),
    ]);
    expect(unread.some((u) => stillUnread.has(u))).toBe(false);
    commands.dispose();
  });

  it("reads another client's 'mark as read' as an event", async () => {
    const machine = machineFor();
    const store = await machine.start();
    const some = store.unreads.allIds().slice(0, 2);
    await updateMessageFlags(ctx.client(), { messages: some, op: "add", flag: "read" });
    await eventually(() => some.every((id) => !store.unreads.has(id)));
  });

  it("re-registers with a new store when the server forgets the queue", async () => {
    await ctx.close();
    ctx = await withServer({ heartbeatMs: 100, queueIdleMs: 150 });
    const machine = machineFor();
    const first = await machine.start();
    const stores = [first];
    machine.onStore((s) => stores.push(s));
    // Stop polling long enough for the queue to be collected, by pausing the server's view of us:
    // the idle timer only runs while no poll is waiting, so delete the queue directly instead.
    await fetch(`${ctx.server.url}/api/v1/events?queue_id=${encodeURIComponent(first.queueId!)}`, {
      method: "DELETE",
      headers: { authorization: "Basic " + Buffer.from(`${ctx.owner.email}:${ctx.owner.apiKey}`).toString("base64") },
    });
    const other = ctx.server.accounts.find((a) => a.role === "member")!;
    const general = [...first.channels.values()].find((c) => c.name === "general")!;
    await eventually(() => stores.length > 1, 5000);
    await sendMessage(ctx.client(other), { type: "stream", to: general.stream_id, topic: "after", content: "after the rebuild" });
    const latest = stores[stores.length - 1]!;
    await eventually(() => latest.unreads.countInTopic(general.stream_id, "after") === 1);
    expect(machine.state.kind).toBe("live");
  });

  it("stops with a clear message when the credentials are refused", async () => {
    const states: ConnectionState[] = [];
    const machine = new UpdateMachine(ctx.client({ ...ctx.owner, apiKey: "y".repeat(32) }));
    machines.push(machine);
    machine.onState((s) => states.push(s));
    await expect(machine.start()).rejects.toBeInstanceOf(ApiError);
    expect(states.at(-1)).toMatchObject({ kind: "failed", error: expect.stringContaining("Invalid API key") });
  });
});
