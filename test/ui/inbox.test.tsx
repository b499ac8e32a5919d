/**
 * The Inbox and Followed topics views on the real App against the reference
 * server's demo organization (signed in as Maya): grouping, the cursor,
 * opening, marking read, and live counts when others post.
 */
import { afterEach, describe, expect, it } from "vitest";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import { homeView } from "../../src/ui/ui-state.js";
import { KEY, renderApp, type AppHarness, channelId } from "./render-app.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Waits until the message pane's title (the end of the first line, right of the sidebar) is `title`. */
async function waitTitle(a: AppHarness, title: string): Promise<string> {
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return a.waitFor(new RegExp(`^[^\\n]* ${escaped} *\\n`));
}

const inboxTotal = (frame: string) => Number(/ Inbox {2}(\d+) unread/.exec(frame)?.[1] ?? NaN);

describe("the first screen", () => {
  it("is the account's home view: Maya's is the Inbox, with its cursor in hand (j moves it, Enter opens)", async () => {
    app = await renderApp({ settings: { ...DEFAULT_SETTINGS, startView: "home" } });
    expect(app.machine.store!.personal.settings.web_home_view).toBe("inbox");
    const f = await app.waitFor(/ Inbox {2}\d+ unread/);
    expect(f).toMatch(/›≡ Inbox/); // the sidebar shows where we are
    await app.press("j"); // from Lena and Diego to Omar
    await app.waitFor(/▌ @ Omar Haddad/); // the cursor's mark
    await app.press(KEY.enter);
    await waitTitle(app, "Omar Haddad");
  });

  it("follows a home view of all messages, and the startView setting overrides it", async () => {
    const store = { personal: { settings: { web_home_view: "all_messages" } as Record<string, unknown> } };
    expect(homeView(store as never)).toBe("feed");
    expect(homeView(store as never, "inbox")).toBe("inbox");
    store.personal.settings.web_home_view = "recent_topics"; // a conversation list: the Inbox is ours
    expect(homeView(store as never)).toBe("inbox");
    expect(homeView(store as never, "feed")).toBe("feed");
    app = await renderApp({ settings: { ...DEFAULT_SETTINGS, startView: "feed" } });
    await waitTitle(app, "Combined feed");
    await app.waitFor(/▌≡ Combined feed/); // the open view, under the sidebar's cursor
  });
});

describe("the Inbox", () => {
  it("groups unread conversations (DMs, then channels with their topics), folds a channel and opens a topic", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("I");
    let f = await app.waitFor(/ Inbox {2}\d+ unread/);
    const dms = f.indexOf("DIRECT MESSAGES", f.indexOf(" Inbox  "));
    expect(dms).toBeGreaterThan(0);
    expect(f.indexOf("CHANNELS", dms)).toBeGreaterThan(dms);
    expect(f).toMatch(/@ Omar Haddad\s+1/);
    expect(f).toMatch(/▾ #engineering\s+@ 4/); // pinned channel first, with Maya's mention marked
    expect(f).toMatch(/release 2\.4 ★\s+@ 4/); // a followed topic
    expect(f).not.toMatch(/ {5}deploys/); // muted topic left out

    // The cursor starts on the first conversation; j skips the section heading.
    await app.press("j", "j", KEY.enter); // Omar, #engineering: Enter folds the channel
    f = await app.waitFor("▸ #engineering");
    expect(f).not.toContain("release 2.4 ★");
    await app.press(KEY.enter, "j", KEY.enter); // unfold, down to its topic, open it
    await waitTitle(app, "#engineering > release 2.4");
  });

  it("M marks the selected conversation read on the server; the counts drop", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("I");
    const before = inboxTotal(await app.waitFor(/ Inbox {2}\d+ unread/));
    await app.press("j", "M"); // Omar's conversation (1 unread)
    await app.waitFor("Marked Omar Haddad as read");
    let f = await app.waitFor(new RegExp(` Inbox {2}${before - 1} unread`));
    expect(f).not.toMatch(/@ Omar Haddad +\d/);
    expect(f).toMatch(/≡ Direct messages\s+1/);
    // The cursor stays in place: now on #engineering; M marks the whole channel read.
    await app.press("M");
    await app.waitFor("Marked #engineering as read");
    f = await app.waitFor(new RegExp(` Inbox {2}${before - 5} unread`));
    expect(f).not.toContain("▾ #engineering");
    // The server agrees: nothing unread from Omar's conversation or in #engineering.
    const unread = await getMessages(app.ctx.client(), { anchor: "newest", num_before: 100, num_after: 0, narrow: [{ operator: "is", operand: "unread" }] });
    const omarId = app.ctx.account("member").userId;
    expect(unread.messages.filter((m) => m.type === "private" && m.sender_id === omarId)).toEqual([]);
    expect(unread.messages.filter((m) => m.stream_id === channelId(app!, "engineering"))).toEqual([]);
  });

  it("follows new messages live: a new topic and a DM from another user show up with their counts", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.press("I");
    const before = inboxTotal(await app.waitFor(/ Inbox {2}\d+ unread/));
    const omar = app.ctx.client("omar");
    await sendMessage(omar, { type: "stream", to: channelId(app, "general"), topic: "inbox live check", content: "anyone?" });
    let f = await app.waitFor(/inbox live check\s+1/);
    expect(inboxTotal(f)).toBe(before + 1);
    await sendMessage(omar, { type: "direct", to: [app.ctx.owner.email], content: "ping" });
    f = await app.waitFor(/@ Omar Haddad\s+2/);
    expect(inboxTotal(f)).toBe(before + 2);
  });
});

describe("Followed topics", () => {
  it("lists followed topics with counts from the sidebar's view row, and opens one", async () => {
    app = await renderApp();
    await app.waitFor("connected");
    await app.sidebarTo("Followed topics");
    await app.press(KEY.enter);
    const f = await app.waitFor(/ Followed topics {2}\d+ unread/);
    expect(f).toMatch(/#engineering › release 2\.4\s+4/);
    expect(f).toMatch(/›≡ Followed topics/); // marked open in the sidebar
    await app.press(KEY.enter);
    await waitTitle(app, "#engineering > release 2.4");
  });
});
