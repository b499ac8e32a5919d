/**
 * Reactions from the message pane, on the real App against the reference
 * server: + toggles 👍, : opens the emoji picker, = toggles a reaction
 * already on the message. What the server holds is checked over HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { getMessage, sendMessage } from "../../src/api/routes/messages.js";
import { addReaction } from "../../src/api/routes/reactions.js";
import { toggleReaction } from "../../src/sync/actions/reactions.js";
import { eventually } from "../fixtures/server.js";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Opens the combined feed at its newest message; another user posts: that message is selected. */
async function postAndSelect(h: AppHarness, content: string): Promise<number> {
  await h.waitFor("connected");
  await h.sidebarTo("Combined feed");
  await h.press(KEY.enter, "G");
  const general = [...h.machine.store!.channels.values()].find((c) => c.name === "general")!;
  const sent = await sendMessage(h.ctx.client(h.ctx.account("member")), { type: "stream", to: general.stream_id, topic: "reactions", content });
  await h.waitFor(content);
  return sent.id;
}

async function serverReactions(h: AppHarness, id: number) {
  const { message } = await getMessage(h.ctx.client(), id, { apply_markdown: false });
  return message.reactions.map((r) => ({ name: r.emoji_name, user: r.user_id }));
}

describe("reactions in the message pane", () => {
  it("+ adds 👍 (shown with its count, in brackets as mine) and removes it again", async () => {
    app = await renderApp();
    const id = await postAndSelect(app, "thumbs for this one");
    const self = app.machine.store!.selfId;
    await app.press("+");
    await app.waitFor("[👍 1]");
    expect(await serverReactions(app, id)).toEqual([{ name: "+1", user: self }]);

    // Someone else agrees: the count goes up, mine still marked.
    await addReaction(app.ctx.client(app.ctx.account("member")), id, { emoji_name: "+1" });
    await app.waitFor("[👍 2]");

    await app.press("+");
    await app.waitFor(/ 👍 1\s*$/m);
    expect(app.frame()).not.toContain("[👍");
    expect(await serverReactions(app, id)).toEqual([{ name: "+1", user: app.ctx.account("member").userId }]);
  });

  it(": opens the emoji picker; typing searches, Enter reacts, the chosen emoji shows as mine; Esc closes", async () => {
    app = await renderApp();
    const id = await postAndSelect(app, "party time");
    await app.press(":");
    await app.waitFor("Search:");
    await app.press(..."tad");
    const f = await app.waitFor("Search: tad");
    expect(f).toContain("🎉 tada");
    await app.press(KEY.enter);
    await app.waitFor("[🎉 1]");
    expect(app.frame()).not.toContain("Search:");
    expect(await serverReactions(app, id)).toEqual([{ name: "tada", user: app.machine.store!.selfId }]);

    // The picker marks my reaction; Enter on it takes it back.
    await app.press(":", ..."tada");
    await app.waitFor("✓🎉 tada");
    await app.press(KEY.enter);
    await eventually(async () => (await serverReactions(app!, id)).length === 0 || undefined);
    await app.waitFor("Removed your 🎉");

    // Arrows move through the grid; Esc closes without reacting.
    await app.press(":", KEY.down, KEY.escape);
    await app.waitFor("party time");
    expect(app.frame()).not.toContain("Search:");
    expect(await serverReactions(app, id)).toEqual([]);
  });

  it("= toggles a reaction already on the message, choosing among several", async () => {
    app = await renderApp();
    const id = await postAndSelect(app, "vote here");
    const member = app.ctx.client(app.ctx.account("member"));
    await app.press("=");
    await app.waitFor("No reactions on this message yet");

    await addReaction(member, id, { emoji_name: "tada" });
    await app.waitFor(/ 🎉 1\s*$/m);
    await app.press("="); // only one: toggled at once
    await app.waitFor("[🎉 2]");

    await addReaction(member, id, { emoji_name: "heart" });
    await app.waitFor(/ ❤️? 1\s*$/mu);
    await app.press("=");
    await app.waitFor("Reactions");
    await app.press("j", KEY.enter); // the second: the heart
    await app.waitFor(/\[❤️? 2\]/u);
    const mine = (await serverReactions(app, id)).filter((r) => r.user === app!.machine.store!.selfId).map((r) => r.name);
    expect(mine.sort()).toEqual(["heart", "tada"]);
  });

  it("a reaction the server already has (or no longer has) is what was wanted, not an error", async () => {
    app = await renderApp();
    const id = await postAndSelect(app, "double click");
    const store = app.machine.store!;
    const stale = { ...store.messages.byId.get(id)!, reactions: [] };
    await addReaction(app.ctx.client(), id, { emoji_name: "+1" });
    // The model may not have heard of it yet: adding again meets REACTION_ALREADY_EXISTS.
    await expect(toggleReaction(app.runtime, store, stale, { emoji_name: "+1" })).resolves.toEqual({ ok: true, value: "added" });
    const mine = { ...stale, reactions: [{ emoji_name: "tada", emoji_code: "1f389", reaction_type: "unicode_emoji", user_id: store.selfId }] };
    await expect(toggleReaction(app.runtime, store, mine, { emoji_name: "tada" })).resolves.toEqual({ ok: true, value: "removed" });
    expect(await serverReactions(app, id)).toEqual([{ name: "+1", user: store.selfId }]);
  });
});
