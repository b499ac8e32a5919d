/**
 * Changing what was written: editing a message's content and topic with a
 * propagate mode (e, Tab), refusals, deleting with a confirmation (d), and
 * the drafts list (D) with local and server drafts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDrafts, getDrafts } from "../../src/api/routes/drafts.js";
import { deleteMessage, getMessage, sendMessage } from "../../src/api/routes/messages.js";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

const K = { ...KEY, tab: "\t", right: "\u001b[C", ctrlA: "\u0001", ctrlK: "\u000b", ctrlU: "\u0015" };

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function channelId(a: AppHarness, name: string): number {
  const c = [...a.machine.store!.channels.values()].find((s) => s.name === name);
  if (!c) throw new Error(`no channel ${name}`);
  return c.stream_id;
}

function paneTitle(title: string): RegExp {
  return new RegExp(`^[^\\n]{31}${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} *\\n`);
}

async function openChannel(a: AppHarness, name: string): Promise<void> {
  await a.press("h", "h");
  await a.sidebarTo(name);
  await a.press(KEY.enter, K.tab, "G");
  await a.waitFor(paneTitle(`#${name}`));
}

/** Starts the app, posts a message of mine to #general and shows it there selected: the app and the message's id. */
async function withMyMessageInGeneral(topic: string, content: string): Promise<[AppHarness, number]> {
  const a = (app = await renderApp());
  await a.waitFor("connected");
  const sent = await sendMessage(a.ctx.client(), { type: "stream", to: channelId(a, "general"), topic, content });
  await openChannel(a, "general");
  await a.waitFor(content);
  await a.press("G");
  return [a, sent.id];
}

async function until<T>(what: string, get: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  let v = await get();
  for (let i = 0; i < 60 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 50));
    v = await get();
  }
  if (!ok(v)) throw new Error(`the server never showed ${what}: ${JSON.stringify(v)}`);
  return v;
}

describe("editing and deleting your messages", () => {
  it("e edits the content and, with Tab, moves the topic with the chosen propagate mode", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const general = channelId(app, "general");
    const me = app.ctx.client();
    const first = await sendMessage(me, { type: "stream", to: general, topic: "edit me", content: "first version" });
    const second = await sendMessage(me, { type: "stream", to: general, topic: "edit me", content: "second one" });
    await openChannel(app, "general");
    await app.waitFor("second one");
    await app.press("k", "e");
    await app.waitFor(/Editing · #general > edit me\s+Enter save · Tab topic/);
    await app.press(K.ctrlA, K.ctrlK, "first, edited");
    await app.press(K.tab);
    await app.waitFor("Move to which topic of #general?");
    await app.press(K.ctrlU, "edited topic", K.right);
    await app.press(KEY.enter);
    await app.waitFor("#general > edited topic (moves this and later messages)");
    await app.press(KEY.enter);
    await app.waitFor("Message edited and moved to #general > edited topic.");

    const omar = app.ctx.client("omar");
    const m1 = await until("the edit", () => getMessage(omar, first.id, { apply_markdown: false }), (r) => r.message.subject === "edited topic");
    expect(m1.message.content).toBe("first, edited");
    const m2 = await getMessage(omar, second.id, { apply_markdown: false });
    expect(m2.message).toMatchObject({ subject: "edited topic", content: "second one" });
  });

  it("moves a message to another channel: Tab to the topic, Tab again to pick the channel", async () => {
    const [a, sentId] = await withMyMessageInGeneral("wrong place", "this belongs in design");
    const design = channelId(a, "design");
    await a.press("e");
    await a.waitFor(/Editing · #general > wrong place/);
    await a.press(K.tab);
    await a.waitFor("Move to which topic of #general?");
    await a.press(K.tab);
    await a.waitFor("Move to which channel?");
    await a.press("desi");
    const list = await a.waitFor("│ ▌ #design"); // the only match, under the cursor's mark
    expect(list.split("\n").filter((l) => /│ [▌ ] #/.test(l)).map((l) => l.split("│")[1]!.replace("▌", "").trim())).toEqual(["#design"]);
    await a.press(KEY.enter);
    await a.waitFor("Move to which topic of #design?");
    expect(a.frame()).toContain("(moves to another channel)");
    await a.press(KEY.enter); // the topic as it was
    await a.waitFor("#design > wrong place (moves only this message)");
    await a.press(KEY.enter);
    await a.waitFor("Message moved to #design > wrong place.");

    const omar = a.ctx.client("omar");
    const moved = await until("the move", () => getMessage(omar, sentId, { apply_markdown: false }), (r) => r.message.stream_id === design);
    expect(moved.message).toMatchObject({ subject: "wrong place", content: "this belongs in design" });
  });

  it("moving the open topic's messages on (this and later) follows them to where they went", async () => {
    const [a] = await withMyMessageInGeneral("relocate", "we are moving");
    await a.press("S");
    await a.waitFor(paneTitle("#general > relocate"));
    await a.press("e", K.tab);
    await a.waitFor("Move to which topic of #general?");
    await a.press(K.tab, "desi", KEY.enter, K.right, KEY.enter);
    await a.waitFor("#design > relocate (moves this and later messages)");
    await a.press(KEY.enter);
    await a.waitFor("Moved to #design > relocate; showing it there.");
    await a.waitFor(paneTitle("#design > relocate"));
    await a.waitFor("we are moving");
  });

  it("in the channel field, Esc goes back to the topic with the channel unchanged", async () => {
    const [a] = await withMyMessageInGeneral("stay", "staying put");
    await a.press("e");
    await a.waitFor(/Editing · #general > stay/);
    await a.press(K.tab);
    await a.waitFor("Move to which topic of #general?");
    await a.press(K.tab, "desi", KEY.escape);
    await a.waitFor("Move to which topic of #general?");
    expect(a.frame()).not.toContain("moves to another channel");
  });

  it("refuses to edit others' messages, and shows the server's refusal with the text kept", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const general = channelId(app, "general");
    await sendMessage(app.ctx.client("omar"), { type: "stream", to: general, topic: "not yours", content: "omar wrote this" });
    await openChannel(app, "general");
    await app.waitFor("omar wrote this");
    await app.press("e");
    await app.waitFor("You can only edit your own messages.");

    const mine = await sendMessage(app.ctx.client(), { type: "stream", to: general, topic: "vanishing", content: "soon gone" });
    await app.waitFor("soon gone");
    await app.press("G", "e");
    await app.waitFor(/Editing · #general > vanishing/);
    await app.press(" and edited");
    await deleteMessage(app.ctx.client(), mine.id); // deleted elsewhere meanwhile
    await app.press(KEY.enter);
    const f = await app.waitFor("Not saved:");
    expect(f).toContain("soon gone and edited");
  });

  it("d deletes your message after asking; n keeps it", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const general = channelId(app, "general");
    const sent = await sendMessage(app.ctx.client(), { type: "stream", to: general, topic: "to delete", content: "delete me please" });
    await openChannel(app, "general");
    await app.waitFor("delete me please");
    await app.press("d");
    await app.waitFor("Delete this message?");
    await app.press("n");
    await app.waitFor("delete me please");
    expect(app.frame()).not.toContain("Delete this message?");
    await app.press("d", "y");
    await app.waitFor("Message deleted.");
    const omar = app.ctx.client("omar");
    await until("the deletion", () => getMessage(omar, sent.id).then(() => "still there", () => "gone"), (v) => v === "gone");
    expect(app.frame()).not.toContain("delete me please");
  });
});

describe("the drafts list", () => {
  it("lists local and server drafts, resumes one in its conversation, and deletes one with x", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const design = channelId(app, "design");
    const me = app.ctx.client();
    await createDrafts(me, [{ type: "stream", to: [design], topic: "plans", content: "server side draft", timestamp: Math.floor(Date.now() / 1000) - 60 }]);
    await until("the draft in the journal", async () => app!.runtime.journal.all().map((e) => e.text), (t) => t.includes("server side draft"));

    await app.press(K.tab, "x", "omar", KEY.enter);
    await app.waitFor(/Omar Haddad\s+Enter send/);
    await app.press("draft for omar", KEY.escape);
    await app.press("D");
    let f = await app.waitFor(/Drafts \(\d+\)/);
    const count = Number(/Drafts \((\d+)\)/.exec(f)?.[1]);
    expect(f).toMatch(/Omar Haddad[^\n]*\n[^\n]*draft for omar/);
    expect(f).toMatch(/#design > plans[^\n]*\n[^\n]*server side draft/);

    await app.press(KEY.enter); // the newest: Omar's
    f = await app.waitFor(/Omar Haddad\s+Enter send/);
    expect(f).toContain("draft for omar");
    expect(f).toMatch(paneTitle("Omar Haddad"));
    await app.press(KEY.escape, "D", "j", "x");
    await app.waitFor(`Drafts (${count - 1})`);
    expect(app.frame()).not.toContain("server side draft");
    await until("the server draft deleted", () => getDrafts(me), (r) => !r.drafts.some((d) => d.content === "server side draft"));
    await app.press(KEY.escape);
  });
});
