import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { sendMessage } from "../../src/api/routes/messages.js";
import { setTypingStatus } from "../../src/api/routes/typing.js";
import { defaultKeymap } from "../../src/ui/hooks/use-ui-state.js";
import { KEY, channelId, renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("the main screen", () => {
  it("shows the sidebar with channels and unread counts, and the status line", async () => {
    app = await renderApp();
    const f = await app.waitFor("connected");
    expect(f).toContain("Combined feed");
    expect(f).toMatch(/#engineering\s+\d+/); // pinned channel first, with its unread count
    expect(f.indexOf("engineering")).toBeLessThan(f.indexOf("general"));
    expect(f).toContain("Lighthouse Labs");
  });

  it("expands a channel into its topics and opens a topic", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.sidebarTo("engineering");
    await app.press(KEY.enter);
    const f = await app.waitFor("deploys");
    expect(f).toContain("▾#engineering");
    await app.press("j", KEY.enter);
    await app.waitFor(/#engineering > \S/);
  });

  it("replies to the open conversation; the text survives a refused send", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.sidebarTo("engineering");
    await app.press(KEY.enter, "j", KEY.enter); // a topic of #engineering
    await app.waitFor(/#engineering > /);
    await app.press("r");
    await app.waitFor("Enter send");
    for (const ch of "shipping it") await app.press(ch);
    await app.waitFor("shipping it");
    await app.press(KEY.enter);
    await app.waitFor(/Maya Okafor\s+\d/);
    await app.waitFor("shipping it");
    expect(app.frame()).not.toContain("Enter send");

    // A message over the organization's limit is refused locally, and the text stays.
    await app.press("r");
    await app.waitFor("Enter send");
    const long = "x".repeat(10_001);
    await app.press(long);
    await app.press(KEY.enter);
    const f = await app.waitFor("the organization allows");
    expect(f).toContain("Enter send");
  });

  it("shows a message another user sends while the conversation is open", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.sidebarTo("Combined feed");
    await app.press(KEY.enter, "G"); // the combined feed, at its newest message
    const other = app.ctx.account("member");
    const general = [...app.machine.store!.channels.values()].find((c) => c.name === "general")!;
    await sendMessage(app.ctx.client(other), { type: "stream", to: general.stream_id, topic: "ui test", content: "fresh from the server" });
    const f = await app.waitFor("fresh from the server");
    expect(f).toContain("#general › ui test");
  });

  it("says who is typing in the open conversation, and stops saying it when they stop", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.sidebarTo("engineering");
    await app.press(KEY.enter, "j", KEY.enter); // its first topic
    const title = /#engineering > (\S[^\n]*?) *\n/.exec(await app.waitFor(/#engineering > \S/))![1]!;
    const omar = app.ctx.client("omar");
    const where = { type: "channel" as const, stream_id: channelId(app, "engineering"), topic: title };
    await setTypingStatus(omar, { op: "start", ...where });
    await app.waitFor("Omar Haddad is typing…");
    await setTypingStatus(omar, { op: "stop", ...where });
    await app.until(() => !app!.frame().includes("is typing"), "the notice to go");
    // Typing elsewhere is not shown here.
    await setTypingStatus(omar, { op: "start", ...where, topic: "somewhere else" });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(app.frame()).not.toContain("is typing");
  });

  it("opens the help generated from the keymap, and closes it", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("?");
    const f = await app.waitFor("termchat keys");
    expect(f).toContain("Anywhere");
    expect(f).toContain("Show the keys");
    // Scroll a line at a time until the message keys show (bounded: the help is a few pages long),
    // keeping each line that comes into view: no description is cut off, long ones go on over more lines.
    const inner = (frame: string) => frame.split("\n").map((l) => /│(.*)│/.exec(l)?.[1]?.trim()).filter((l): l is string => l !== undefined);
    const seen = inner(app.frame()).slice(1); // below the title
    for (let i = 0; i < 150 && !seen.some((l) => l.includes("Reply to the selected message")); i++) {
      await app.press("j");
      seen.push(inner(app.frame()).at(-1) ?? "");
    }
    expect(app.frame()).toContain("Reply to the selected message");
    const inside = seen.join(" ").replace(/\s+/g, " ");
    const shown = defaultKeymap().keymap.helpRows().filter((r) => r.context === "global" || r.context === "sidebar");
    expect(shown.length).toBeGreaterThan(10);
    for (const r of shown) expect(inside).toContain(r.help.replace(/\s+/g, " "));
    await app.press(KEY.escape);
    await app.waitFor("Combined feed");
    expect(app.frame()).not.toContain("termchat keys");
  });
});
