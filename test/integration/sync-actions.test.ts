/**
 * The UI's actions against the reference server over HTTP on 127.0.0.1:
 * what the server holds afterwards, what the store shows once the events
 * arrive, and the failure line a refusal becomes.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createDrafts, getDrafts } from "../../src/api/routes/drafts.js";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { deleteServerDraft } from "../../src/sync/actions/drafts.js";
import { setStarred } from "../../src/sync/actions/flags.js";
import { editKey, editMessage } from "../../src/sync/actions/messages.js";
import { toggleReaction } from "../../src/sync/actions/reactions.js";
import { draftKey } from "../../src/sync/draft-journal.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture;
let dir: string;
let session: AccountRuntime;

beforeEach(async () => {
  ctx = await withServer({ heartbeatMs: 500 });
  dir = await mkdtemp(join(tmpdir(), "termchat-actions-live-"));
  const client = ctx.client();
  session = await AccountRuntime.open({ client, account: { site: client.site.href, email: ctx.owner.email }, stateDir: dir, drafts: { debounceMs: 20, retryMs: 50 } });
  await session.machine.start();
  await eventually(() => session.machine.state.kind === "live" && session.machine.store);
});

afterEach(async () => {
  await session.dispose();
  await ctx.close();
  await rm(dir, { recursive: true, force: true });
});

function channelId(name: string): number {
  const c = [...session.machine.store!.channels.values()].find((s) => s.name === name);
  if (!c) throw new Error(`no channel ${name}`);
  return c.stream_id;
}

it("an edit of one's own message reaches the server and the store; someone else's is refused in the one failure shape", async () => {
  const store = session.machine.store!;
  const mine = await sendMessage(ctx.client(), { type: "stream", to: channelId("general"), topic: "edits", content: "first try" });
  session.journal.update(editKey(mine.id), "second try");
  expect(await editMessage(session, mine.id, { content: "second try" })).toEqual({ ok: true, value: "saved" });
  await eventually(() => store.messages.byId.get(mine.id)?.content === "second try");
  expect(session.journal.get(editKey(mine.id))).toBeUndefined();

  const theirs = await sendMessage(ctx.client(ctx.account("member")), { type: "stream", to: channelId("general"), topic: "edits", content: "not yours" });
  session.journal.update(editKey(theirs.id), "hijacked");
  const r = await editMessage(session, theirs.id, { content: "hijacked" });
  expect(r.ok).toBe(false);
  if (!r.ok) {
    expect(r.error.code).toMatch(/^[A-Z_]+$/);
    expect(r.error.message).toMatch(new RegExp(`\\(${r.error.code}\\)$`));
  }
  expect(session.journal.get(editKey(theirs.id))).toBe("hijacked");
  const onServer = await getMessages(ctx.client(), { message_ids: [theirs.id], apply_markdown: false });
  expect(onServer.messages[0]?.content).toBe("not yours");
});

it("a server draft taken into the journal is deleted through draft sync, on the server too", async () => {
  const general = channelId("general");
  const { ids } = await createDrafts(ctx.client(), [{ type: "stream", to: [general], topic: "later", content: "from another device" }]);
  const key = draftKey({ type: "stream", channelId: general, topic: "later" });
  await eventually(() => session.journal.get(key) === "from another device");
  expect(await deleteServerDraft(session, ids[0]!)).toEqual({ ok: true, value: undefined });
  expect(session.journal.get(key)).toBeUndefined();
  const left = await getDrafts(ctx.client());
  expect(left.drafts.map((d) => d.id)).not.toContain(ids[0]);
});

it("starring and a reaction show in the store once the server's events arrive", async () => {
  const store = session.machine.store!;
  const sent = await sendMessage(ctx.client(), { type: "stream", to: channelId("general"), topic: "stars", content: "shine" });
  await eventually(() => store.messages.byId.get(sent.id));
  expect(await setStarred(session, sent.id, true)).toEqual({ ok: true, value: undefined });
  await eventually(() => store.messages.starred.has(sent.id));
  const m = store.messages.byId.get(sent.id)!;
  expect(await toggleReaction(session, store, m, { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" })).toEqual({ ok: true, value: "added" });
  await eventually(() => store.messages.byId.get(sent.id)?.reactions.some((x) => x.user_id === store.selfId && x.emoji_name === "+1"));
});
