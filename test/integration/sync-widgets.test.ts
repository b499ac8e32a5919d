/**
 * Polls and to-do lists between two accounts against the reference server:
 * each votes, adds options or tasks and checks tasks off through the sync
 * actions, and both clients' stores come to the same widget through the
 * `submessage` events; a fresh fetch of the message agrees.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getMessage, sendMessage } from "../../src/api/routes/messages.js";
import { getSubscriptions } from "../../src/api/routes/subscriptions.js";
import type { DemoAccount } from "../../src/server/index.js";
import { foldWidget, widgetOf, type PollWidget, type TodoWidget } from "../../src/model/widgets.js";
import { addPollOption, addTodoTask, togglePollVote, toggleTask } from "../../src/sync/actions/widgets.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
let dirs: string[];
const sessions: AccountRuntime[] = [];

beforeEach(async () => {
  ctx = await withServer({ heartbeatMs: 200, longpollTimeoutSecs: 1 });
  dirs = [];
});

afterEach(async () => {
  for (const s of sessions.splice(0)) await s.dispose();
  await ctx.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function session(account: DemoAccount) {
  const dir = await mkdtemp(join(tmpdir(), "termchat-widgets-"));
  dirs.push(dir);
  const s = await AccountRuntime.open({
    client: ctx.client(account),
    account: { site: ctx.server.url, email: account.email },
    stateDir: dir,
    machine: { backoff: { baseMs: 20, maxMs: 200 }, pollMarginMs: 500 },
  });
  sessions.push(s);
  await s.machine.start();
  return s;
}

/** The widget of a message in a session's store, once the message is there. */
function widgetIn(s: AccountRuntime, id: number) {
  const m = s.machine.store?.messages.byId.get(id);
  return m ? widgetOf(m) : undefined;
}

const votes = (w: PollWidget | undefined) => w?.options.map((o) => `${o.text}:${[...o.voters].sort((a, b) => a - b).join("+")}`).join(" | ");
const checks = (w: TodoWidget | undefined) => w?.tasks.map((t) => `${t.completed ? "x" : " "} ${t.task}`).join(" | ");

async function post(account: DemoAccount, content: string): Promise<number> {
  const { subscriptions } = await getSubscriptions(ctx.client(account));
  const channel = subscriptions.find((c) => c.name === "general")!;
  return (await sendMessage(ctx.client(account), { type: "stream", to: channel.stream_id, topic: "widgets", content })).id;
}

describe("widgets between two accounts", () => {
  it("votes and a new option from both accounts converge on both clients' stores", async () => {
    const owner = ctx.owner;
    const member = ctx.account("member");
    const a = await session(owner);
    const b = await session(member);
    const id = await post(owner, "/poll Where to?\nPizza\nTacos");
    await eventually(() => widgetIn(a, id) && widgetIn(b, id));

    const aStore = a.machine.store!;
    const bStore = b.machine.store!;
    expect(await togglePollVote(a, aStore, id, "canned,0")).toEqual({ ok: true, value: "voted" });
    expect(await togglePollVote(b, bStore, id, "canned,0")).toEqual({ ok: true, value: "voted" });
    expect(await addPollOption(b, bStore, id, "Sushi")).toEqual({ ok: true, value: undefined });
    const sushi = `${member.userId},1`;
    await eventually(() => (widgetIn(a, id) as PollWidget).options.some((o) => o.key === sushi));
    expect(await togglePollVote(a, aStore, id, sushi)).toEqual({ ok: true, value: "voted" });
    await eventually(() => (widgetIn(a, id) as PollWidget).options[0]!.voters.includes(member.userId));
    // A takes the first vote back.
    expect(await togglePollVote(a, aStore, id, "canned,0")).toEqual({ ok: true, value: "unvoted" });

    const expected = `Pizza:${member.userId} | Tacos: | Sushi:${owner.userId}`;
    await eventually(() => votes(widgetIn(a, id) as PollWidget) === expected && votes(widgetIn(b, id) as PollWidget) === expected);
    // What a fresh fetch says agrees with both.
    const fresh = (await getMessage(ctx.client(owner), id, { apply_markdown: false })).message;
    expect(votes(foldWidget(id, fresh.sender_id, fresh.submessages ?? []) as PollWidget)).toBe(expected);
    // An option already there is refused before anything is sent.
    expect(await addPollOption(a, aStore, id, "Tacos")).toEqual({ ok: false, error: { message: "The poll already has that option" } });
  });

  it("tasks checked off and added by both accounts converge", async () => {
    const owner = ctx.owner;
    const member = ctx.account("member");
    const a = await session(owner);
    const b = await session(member);
    const id = await post(owner, "/todo Launch\n- Write notes: for users\n- Tag it");
    await eventually(() => widgetIn(a, id) && widgetIn(b, id));

    expect(await toggleTask(b, b.machine.store!, id, "0,canned")).toEqual({ ok: true, value: "done" });
    expect(await addTodoTask(a, a.machine.store!, id, "Celebrate: with cake")).toEqual({ ok: true, value: undefined });
    await eventually(() => (widgetIn(b, id) as TodoWidget).tasks.length === 3);
    expect(await toggleTask(b, b.machine.store!, id, `1,${owner.userId}`)).toEqual({ ok: true, value: "done" });
    await eventually(() => (widgetIn(a, id) as TodoWidget).tasks[2]!.completed);
    expect(await toggleTask(a, a.machine.store!, id, `1,${owner.userId}`)).toEqual({ ok: true, value: "undone" });

    const expected = "x Write notes |   Tag it |   Celebrate";
    await eventually(() => checks(widgetIn(a, id) as TodoWidget) === expected && checks(widgetIn(b, id) as TodoWidget) === expected);
    expect((widgetIn(a, id) as TodoWidget).tasks[0]!.completedBy).toBe(member.userId);
    expect((widgetIn(b, id) as TodoWidget).tasks[2]).toMatchObject({ desc: "with cake", addedBy: owner.userId });
  });
});
