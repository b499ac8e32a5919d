import { afterEach, describe, expect, it } from "vitest";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { HIGHLIGHT_OFF, HIGHLIGHT_ON } from "../../src/ui/search-highlight.js";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function typeText(a: AppHarness, text: string): Promise<void> {
  for (const ch of text) await a.press(ch);
}

describe("search (/)", () => {
  it("shows results with the matched words highlighted, and leaves them unread", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    const omar = app.ctx.client("omar");
    const general = [...app.machine.store!.channels.values()].find((c) => c.name === "general")!;
    const sent = await sendMessage(omar, { type: "stream", to: general.stream_id, topic: "zanzibar trip", content: "Booked the Zanzibar ferry for Friday." });
    await sendMessage(omar, { type: "stream", to: general.stream_id, topic: "other", content: "nothing to see here" });

    await app.press("/");
    await app.waitFor("channel:name");
    await typeText(app, "zanzibar sender:omar@lighthouse.test");
    await app.waitFor("zanzibar sender:omar@lighthouse.test");
    await app.press(KEY.enter);
    const f = await app.waitFor("ferry for Friday");
    expect(f).toContain("Search: zanzibar sender:omar@lighthouse.test");
    expect(f).not.toContain("nothing to see here");
    // The word in the body and in the topic, marked (inverse video) from the server's match_content/match_subject.
    expect(f).toContain(`${HIGHLIGHT_ON}Zanzibar${HIGHLIGHT_OFF} ferry`);
    expect(f).toContain(`${HIGHLIGHT_ON}zanzibar${HIGHLIGHT_OFF} trip`);

    // Reading search results does not mark them read: not locally, not on the server.
    await new Promise((r) => setTimeout(r, 800));
    await app.commands.flushRead();
    expect(app.machine.store!.unreads.has(sent.id)).toBe(true);
    const check = await getMessages(app.ctx.client(), { anchor: sent.id, num_before: 0, num_after: 0, narrow: [], apply_markdown: false });
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
    app = await renderApp();
    await app.waitFor("connected");
    const omar = app.ctx.client("omar");
    const general = [...app.machine.store!.channels.values()].find((c) => c.name === "general")!;
    const target = await sendMessage(omar, { type: "stream", to: general.stream_id, topic: "near test", content: "the message to find" });
    for (let i = 0; i < 40; i++) await sendMessage(omar, { type: "stream", to: general.stream_id, topic: "near test", content: `later message ${i}` });

    await app.press("/");
    await app.waitFor("channel:name");
    await typeText(app, `channel:general near:${target.id}`);
    await app.press(KEY.enter);
    const f = await app.waitFor("the message to find");
    expect(f).toMatch(/▌ *the message to find/); // selected
    expect(f).toContain("later message 0"); // what came after it
    expect(f).not.toContain("later message 39"); // not the newest end
  });
});
