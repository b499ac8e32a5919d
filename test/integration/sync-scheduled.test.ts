/**
 * Messages for later and the user's own records, end to end through the
 * actions against the reference server over HTTP (127.0.0.1, its real clock):
 * one client of the account acts, a second client of the same account sees
 * every change through its events, and the server delivers at the time set.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { updateMessageFlags } from "../../src/api/routes/message-flags.js";
import type { ApiClient } from "../../src/api/http.js";
import { navigationViewRows } from "../../src/model/navigation-views.js";
import { reminderRows, scheduledRows, snippetsByTitle } from "../../src/model/selectors-personal.js";
import type { Store } from "../../src/model/store.js";
import { createNavigationView, createSnippet, deleteSnippet, editNavigationView, editSnippet, readReceipts, removeNavigationView } from "../../src/sync/actions/personal.js";
import { cancelScheduledMessage, editScheduledMessage, rescheduleMessage, scheduleMessage, sendScheduledNow, setReminder } from "../../src/sync/actions/scheduled.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
const dirs: string[] = [];
const sessions: AccountRuntime[] = [];
let acting: AccountRuntime;
let watching: AccountRuntime;

async function open(client: ApiClient): Promise<AccountRuntime> {
  const dir = await mkdtemp(join(tmpdir(), "termchat-scheduled-"));
  dirs.push(dir);
  const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: client.email }, stateDir: dir });
  sessions.push(session);
  await session.machine.start();
  await eventually(() => session.machine.state.kind === "live" && session.machine.store);
  return session;
}

beforeEach(async () => {
  ctx = await withServer({ heartbeatMs: 500 });
  acting = await open(ctx.client());
  watching = await open(ctx.client());
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.dispose()));
  await ctx.close();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const store = (s: AccountRuntime): Store => s.machine.store!;
const nowSecs = () => Math.floor(Date.now() / 1000);

function channelId(name: string): number {
  const c = [...store(acting).channels.values()].find((s) => s.name === name);
  if (!c) throw new Error(`no channel ${name}`);
  return c.stream_id;
}

async function countOnServer(content: string): Promise<number> {
  const res = await getMessages(ctx.client(), { anchor: "newest", num_before: 50, num_after: 0, narrow: [], apply_markdown: false });
  return res.messages.filter((m) => m.content === content).length;
}

it("a message scheduled two seconds ahead shows on the other client, arrives once at its time and leaves both lists", async () => {
  const general = channelId("general");
  const content = `two seconds later ${Date.now()}`;
  const at = nowSecs() + 2;
  const r = await scheduleMessage(acting, { type: "stream", channelId: general, topic: "later" }, content, at);
  expect(r.ok).toBe(true);
  const id = r.ok ? r.value : 0;
  await eventually(() => scheduledRows(store(watching)).some((x) => x.id === id && x.content === content && x.state !== "failed"));
  expect(await countOnServer(content)).toBe(0);

  // Delivered: the message reaches the other client, and the list empties on both.
  await eventually(() => [...store(watching).messages.byId.values()].find((m) => m.content === content), 15_000);
  await eventually(() => scheduledRows(store(watching)).length === 0 && scheduledRows(store(acting)).length === 0);
  expect(Date.now() / 1000).toBeGreaterThanOrEqual(at);
  // Once: the record left the schedule as the message went out, so nothing is left to send again.
  expect(await countOnServer(content)).toBe(1);
});

it("edit, reschedule, send now and cancel, each seen by the other client", async () => {
  const general = channelId("general");
  const omar = ctx.server.accounts.find((a) => a.email.startsWith("omar@"))!;
  const at = nowSecs() + 3600;
  const first = await scheduleMessage(acting, { type: "stream", channelId: general, topic: "plans" }, "draft one", at);
  const second = await scheduleMessage(acting, { type: "direct", userIds: [omar.userId] }, "for omar", at + 60);
  if (!first.ok || !second.ok) throw new Error("scheduling failed");
  await eventually(() => scheduledRows(store(watching)).length === 2);

  expect((await editScheduledMessage(acting, first.value, { content: "draft two", target: { type: "stream", channelId: general, topic: "final" } })).ok).toBe(true);
  await eventually(() => scheduledRows(store(watching)).find((x) => x.id === first.value && x.content === "draft two" && x.target.kind === "topic" && x.target.topic === "final"));
  expect((await rescheduleMessage(acting, first.value, at + 120)).ok).toBe(true);
  await eventually(() => scheduledRows(store(watching))[1]?.id === first.value);

  const now = await sendScheduledNow(acting, second.value);
  expect(now.ok).toBe(true);
  await eventually(() => !scheduledRows(store(watching)).some((x) => x.id === second.value));
  await eventually(() => [...store(watching).messages.byId.values()].find((m) => m.content === "for omar" && m.type === "private"));
  expect(await countOnServer("for omar")).toBe(1);

  expect((await cancelScheduledMessage(acting, first.value)).ok).toBe(true);
  await eventually(() => scheduledRows(store(watching)).length === 0);
  expect((await sendScheduledNow(acting, first.value)).ok).toBe(false);
});

it("a reminder shows on the other client and arrives as a direct message from the notification bot", async () => {
  const sent = await sendMessage(ctx.client(ctx.account("member")), { type: "stream", to: channelId("general"), topic: "remind", content: "Check the rota" });
  await eventually(() => store(acting).messages.byId.get(sent.id));
  const r = await setReminder(acting, sent.id, nowSecs() + 2, "before standup");
  expect(r.ok).toBe(true);
  await eventually(() => reminderRows(store(watching)).find((x) => x.messageId === sent.id));
  const notice = await eventually(
    () => [...store(watching).messages.byId.values()].find((m) => m.type === "private" && m.sender_email.startsWith("notification-bot@") && m.content.includes("Check the rota")),
    15_000,
  );
  expect(notice.content).toContain("Note:\n > before standup");
  expect(notice.flags).not.toContain("read");
  await eventually(() => reminderRows(store(watching)).length === 0 && reminderRows(store(acting)).length === 0);
});

it("read receipts list a reader after the reader's client marks the message read", async () => {
  const mine = await sendMessage(ctx.client(), { type: "stream", to: channelId("general"), topic: "receipts", content: "did you see this?" });
  expect(await readReceipts(acting, mine.id)).toEqual({ ok: true, value: [] });
  const reader = ctx.account("member");
  await updateMessageFlags(ctx.client(reader), { messages: [mine.id], op: "add", flag: "read" });
  expect(await readReceipts(acting, mine.id)).toEqual({ ok: true, value: [reader.userId] });
});

it("snippets and navigation views: each change reaches the other client", async () => {
  const created = await createSnippet(acting, { title: "Thanks", content: "Thanks, **merged**!" });
  if (!created.ok) throw new Error(created.error.message);
  await eventually(() => snippetsByTitle(store(watching), "thank")[0]?.id === created.value);
  expect((await editSnippet(acting, created.value, { title: "Merged" })).ok).toBe(true);
  await eventually(() => snippetsByTitle(store(watching))[0]?.title === "Merged");
  expect((await deleteSnippet(acting, created.value)).ok).toBe(true);
  await eventually(() => snippetsByTitle(store(watching)).length === 0);

  const row = (fragment: string) => navigationViewRows(store(watching)).find((v) => v.fragment === fragment);
  expect((await editNavigationView(acting, "recent", { isPinned: false })).ok).toBe(true);
  await eventually(() => row("recent")?.isPinned === false);
  const general = channelId("general");
  const fragment = `narrow/channel/${general}-general/topic/plans`;
  expect((await createNavigationView(acting, { fragment, isPinned: true, name: "Plans" })).ok).toBe(true);
  await eventually(() => row(fragment)?.name === "Plans");
  expect(row(fragment)?.opens).toEqual({ narrow: { kind: "topic", channelId: general, topic: "plans" } });
  expect((await editNavigationView(acting, fragment, { name: "Planning" })).ok).toBe(true);
  await eventually(() => row(fragment)?.name === "Planning");
  expect((await removeNavigationView(acting, fragment)).ok).toBe(true);
  expect((await removeNavigationView(acting, "recent")).ok).toBe(true);
  await eventually(() => row(fragment) === undefined && row("recent")?.isPinned === true);
});
