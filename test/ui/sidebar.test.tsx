/**
 * The sidebar and the navigation keys, on the real App against the reference
 * server's demo organization (signed in as Maya).
 */
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { displayWidth } from "../../src/render/wrap.js";
import { KEY, channelId, renderApp, type AppHarness } from "./render-app.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Waits until the message pane's title (the end of the first line, right of the sidebar) is `title`. */
async function waitTitle(a: AppHarness, title: string): Promise<void> {
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await a.waitFor(new RegExp(`^[^\\n]* ${escaped} *\\n`));
}

/** The sidebar's part of the screen (its 30 columns of every line but the status line). */
function sidebarOf(frame: string, width = 30): string {
  const lines = frame.split("\n").slice(0, -1);
  return lines
    .map((line) => {
      let out = "";
      for (const ch of line) {
        if (displayWidth(out + ch) > width) break;
        out += ch;
      }
      return out.trimEnd();
    })
    .join("\n");
}

/** Waits until the sidebar's part of the screen matches. */
async function waitSidebar(a: AppHarness, match: RegExp, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 500 && Date.now() < deadline; i++) {
    const f = sidebarOf(a.frame());
    if (match.test(f)) return f;
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
  }
  throw new Error(`waited ${timeoutMs} ms for ${String(match)} in the sidebar:\n${sidebarOf(a.frame())}`);
}

describe("sidebar filter (q)", () => {
  it("filters as you type, Backspace edits, Esc clears and restores the whole list", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("q");
    await app.waitFor("q›");
    await app.press("d", "e", "s");
    const f = sidebarOf(await app.waitFor("q› des"));
    expect(f).toContain("▸#design");
    expect(f).not.toContain("#general");
    expect(f).not.toContain("Combined feed");
    await app.press("x", "y");
    await app.waitFor("Nothing matches.");
    await app.press(KEY.backspace, KEY.backspace);
    await app.waitFor("▸#design");
    await app.press(KEY.escape);
    const all = sidebarOf(await app.waitFor("≡ Combined feed"));
    expect(all).not.toContain("q›");
    expect(all).toContain("#general");
  });

  it("Enter opens the highlighted match (a topic found by its name) and leaves filtering with it selected", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("q", ..."lunch");
    let f = await app.waitFor("lunch on friday");
    expect(f).toContain("▾#general"); // the channel shown because one of its topics matches
    // The cursor starts on the match itself (the topic), not on the channel shown above it.
    await app.press(KEY.enter);
    await waitTitle(app, "#general > lunch on friday");
    f = sidebarOf(app.frame());
    expect(f).not.toContain("q›");
    expect(f).toContain("DIRECT MESSAGES"); // the whole list again
    expect(f).toMatch(/›\s+lunch on friday/); // the open topic, marked in the sidebar
  });

  it("searches the topics of channels never opened, and has one cursor: arrows move it, Enter opens what it is on", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await waitSidebar(app, /▌≡ Combined feed/); // the cursor on the open view, while not filtering
    // "book": the topic "on-call handbook" of #engineering, whose topics were not loaded before filtering.
    await app.press("q", ..."book");
    let f = await waitSidebar(app, /on-call handbook/);
    expect(f.split("\n").slice(1).join("\n")).not.toContain("›"); // the open view's mark is not a second cursor while filtering
    expect(f).toMatch(/#engineering[^\n]*\n▌\s+on-call handbook/); // the one cursor, on the match
    await app.press(KEY.enter);
    await waitTitle(app, "#engineering > on-call handbook");
    // ↓ moves the one cursor to the next match ("book club" in #random), past the folder heading and the channel; Enter opens it.
    await app.press(KEY.escape, "q", ..."book");
    await waitSidebar(app, /book club/);
    await app.press(KEY.down, KEY.enter);
    await waitTitle(app, "#random > book club");
  });
});

describe("sidebar rows", () => {
  it("folds and unfolds a channel folder with Enter", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.sidebarTo("PRODUCT");
    await app.press(KEY.enter);
    let f = sidebarOf(await app.waitFor("▸ PRODUCT"));
    expect(f).not.toContain("#design");
    expect(f).toContain("#engineering"); // pinned, in its own section
    await app.press(KEY.enter);
    f = sidebarOf(await app.waitFor("▾ PRODUCT"));
    expect(f).toContain("▸#design");
  });

  it("t shows and hides a channel's topics without leaving the sidebar", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.sidebarTo("general");
    const openView = app.frame().split("\n")[0];
    await app.press("t");
    await app.waitFor("▾#general");
    await app.waitFor(/\n\s+lunch on friday\s+\d/);
    await app.press("j", "t"); // on a topic row: hides its channel's topics, the cursor back on the channel
    const f = await app.waitFor("▸#general");
    expect(sidebarOf(f)).not.toContain("lunch on friday");
    expect(f.split("\n")[0]).toBe(openView); // the open view did not change
  });
});

describe("navigation keys", () => {
  it("n opens the next unread topic in sidebar order, p the next unread DM conversation", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("n");
    await waitTitle(app, "#engineering > release 2.4"); // pinned channel first; its muted topic "deploys" is skipped
    expect(app.frame()).toMatch(/›\s+release 2.4 ★/);
    await app.press("n");
    await waitTitle(app, "#design > dark mode contrast"); // next folder
    await app.press("p");
    await waitTitle(app, "Lena Fischer, Diego Alvarez");
    await app.press("p");
    await waitTitle(app, "Omar Haddad");
  });

  it("s, S and z narrow around the selected message; a, P, f, # and I open the views", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("n");
    await waitTitle(app, "#engineering > release 2.4");
    const topic = { kind: "topic" as const, channelId: channelId(app, "engineering"), topic: "release 2.4" };
    await app.until(() => (app!.machine.store!.messages.list(topic)?.ids.length ?? 0) > 0, "the topic's messages");
    // s and S in one burst: S acts on the message s kept selected, before the channel's messages arrive.
    await app.press("sS");
    await waitTitle(app, "#engineering > release 2.4");
    expect(app.frame()).not.toContain("Select a message first");
    await app.press("z");
    await waitTitle(app, "#engineering");
    await app.press("z");
    await waitTitle(app, "#engineering > release 2.4");
    await app.press("s");
    await waitTitle(app, "#engineering");
    await app.press("S");
    await waitTitle(app, "#engineering > release 2.4");
    await app.press("P");
    await waitTitle(app, "Direct messages");
    await app.press("f");
    await waitTitle(app, "Starred");
    await app.press("#");
    await waitTitle(app, "Mentions");
    await app.press("a");
    await waitTitle(app, "Combined feed");
    await app.press("I");
    await app.waitFor(/^[^\n]* Inbox {2}\d+ unread/);
  });

  it("M marks the open channel read; on the combined feed it asks first", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.sidebarTo("design");
    await app.press(KEY.enter); // opens #design, the sidebar keeps the focus (nothing is read by looking)
    await waitTitle(app, "#design");
    expect(app.frame()).toMatch(/▾#design\s+7/);
    await app.press("M");
    await app.waitFor("Marked #design as read");
    await app.waitFor("Marked #design as read");
    let f = await waitSidebar(app, /▾#design\n/);
    expect(f).toMatch(/PRODUCT\n/); // the folder count dropped with it

    await app.press("a", "h"); // the combined feed, back in the sidebar
    await waitTitle(app, "Combined feed");
    await app.press("M");
    await app.waitFor("Mark all messages as read?");
    await app.press("n");
    f = await app.waitFor("Combined feed");
    expect(f).not.toContain("Mark all messages");
    expect(sidebarOf(f)).toMatch(/Inbox\s+\d+/);
    await app.press("M");
    await app.waitFor("Mark all messages as read?");
    await app.press("y");
    await app.waitFor("Marked all messages as read");
    f = await waitSidebar(app, /≡ Inbox\n/);
    expect(f).toMatch(/#general\n/);
  });
});
