import { afterEach, describe, expect, it } from "vitest";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { HIGHLIGHT_OFF, HIGHLIGHT_ON } from "../../src/ui/search-highlight.js";
import { KEY, channelId, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Starts the app, with a way for Omar to post to #general. */
async function startWithOmarInGeneral() {
  const a = (app = await renderApp());
  await a.waitFor("connected");
  const omar = a.ctx.client("omar");
  const to = channelId(a, "general");
  return { a, post: (topic: string, content: string) => sendMessage(omar, { type: "stream", to, topic, content }) };
}

async function typeText(a: AppHarness, text: string): Promise<void> {
  for (const ch of text) await a.press(ch);
}

describe("search (/)", () => {
  it("shows results with the matched words highlighted, and leaves them unread", async () => {
    const { a, post } = await startWithOmarInGeneral();
    const sent = await post("zanzibar trip", "Booked the Zanzibar ferry for Friday.");
    await post("other", "nothing to see here");

    await a.press("/");
    await a.waitFor("channel:name");
    await typeText(a, "zanzibar sender:omar@lighthouse.test");
    await a.waitFor("zanzibar sender:omar@lighthouse.test");
    await a.press(KEY.enter);
    const f = await a.waitFor("ferry for Friday");
    expect(f).toContain("Search: zanzibar sender:omar@lighthouse.test");
    expect(f).not.toContain("nothing to see here");
    // The word in the body and in the topic, marked (inverse video) from the server's match_content/match_subject.
    expect(f).toContain(`${HIGHLIGHT_ON}Zanzibar${HIGHLIGHT_OFF} ferry`);
    expect(f).toContain(`${HIGHLIGHT_ON}zanzibar${HIGHLIGHT_OFF} trip`);

    // Reading search results does not mark them read: not locally, not on the server.
    await new Promise((r) => setTimeout(r, 800));
    await a.commands.flushRead();
    expect(a.machine.store!.unreads.has(sent.id)).toBe(true);
    const check = await getMessages(a.ctx.client(), { anchor: sent.id, num_before: 0, num_after: 0, narrow: [], apply_markdown: false });
    expect(check.messages[0]?.flags).not.toContain("read");
  });

  it("explains a query it cannot use, and walks earlier searches with ↑/↓", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("/");
    await app.waitFor("channel:name");
    await typeText(app, "near:soon");
    await app.press(KEY.enter);
    await app.waitFor("near: takes a message id");
    // Fix it: clear the line, search for something real.
    for (let i = 0; i < 9; i++) await app.press(KEY.backspace);
    await typeText(app, "deploys");
    await app.press(KEY.enter);
    await app.waitFor("Search: deploys");

    await app.press("/");
    await app.waitFor("channel:name");
    await typeText(app, "is:starred");
    await app.press(KEY.up);
    await app.waitFor(/\/ deploys/);
    await app.press(KEY.down);
    await app.waitFor(/\/ is:starred/);
    await app.press(KEY.escape);
    await app.waitFor("Search: deploys");
    expect(app.frame()).not.toContain("channel:name");
  });

  it("near:id opens the results at that message, selected, with its neighbours around it", async () => {
    const { a, post } = await startWithOmarInGeneral();
    const target = await post("near test", "the message to find");
    for (let i = 0; i < 40; i++) await post("near test", `later message ${i}`);

    await a.press("/");
    await a.waitFor("channel:name");
    await typeText(a, `channel:general near:${target.id}`);
    await a.press(KEY.enter);
    const f = await a.waitFor("the message to find");
    expect(f).toMatch(/▌ *the message to find/); // selected
    expect(f).toContain("later message 0"); // what came after it
    expect(f).not.toContain("later message 39"); // not the newest end
  });
});
