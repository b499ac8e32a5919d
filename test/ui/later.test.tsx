/**
 * The time and personal-list screens on a fake session: the scheduled
 * messages list (state, edit, reschedule, send now, cancel), the "When?" form
 * as compose's send later uses it, reminders (set from a message, listed,
 * cancelled), read receipts in message info (and the line where they are
 * off), saved snippets (insert from compose by title, create, edit, delete)
 * and navigation views (pinned in the sidebar; create, edit, remove from the
 * palette). Requests are recorded by the fake session's client, never sent.
 */
import { useEffect, type ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { buildSidebarRows } from "../../src/ui/sidebar-rows.js";
import { laterCommands } from "../../src/ui/palette-commands-later.js";
import { screenCommands } from "../../src/ui/screens.js";
import { openEditText } from "../../src/ui/popups/EditText.js";
import { openMessageInfo } from "../../src/ui/popups/MessageInfo.js";
import { PopupHost, usePopupStack } from "../../src/ui/popups/PopupHost.js";
import { openReminders, remindAbout } from "../../src/ui/popups/RemindersList.js";
import { openScheduledList } from "../../src/ui/popups/ScheduledList.js";
import { openSnippets } from "../../src/ui/popups/SnippetsList.js";
import { scheduleFromCompose } from "../../src/ui/send-later.js";
import * as eg from "../fixtures/example.js";
import { FeatureKeys, fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";
import { KEY } from "./render-app.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const HOUR = 3600;

/** The fake session's popups drawn as the App draws them: a stack, the top one shown and given the keys. */
function Popups({ fake, ready }: { fake: FakeSession; ready: () => void }): ReactNode {
  const stack = usePopupStack();
  useEffect(() => {
    fake.ctx.openPopup = stack.open;
    ready();
  }, [fake, stack.open, ready]);
  return <PopupHost stack={stack.stack} onClose={stack.closeTop} width={100} height={16} />;
}

async function show(fake: FakeSession, open: () => void) {
  let hosted = false;
  const ready = () => void (hosted = true);
  const screen = await renderOnFake(
    fake,
    <>
      <Popups fake={fake} ready={ready} />
      <FeatureKeys />
    </>,
  );
  unmount = screen.unmount;
  await screen.until(() => hosted, "the popup host");
  open();
  return screen;
}

function withScheduled(extra: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return fakeSession({
    register: {
      subscriptions: [general],
      scheduled_messages: [
        { scheduled_message_id: 7, type: "stream", to: 10, topic: "plans", content: "Standup moved to 10", scheduled_delivery_timestamp: now + 2 * HOUR, failed: false },
        { scheduled_message_id: 8, type: "private", to: [eg.otherUser.user_id], content: "Happy birthday!", scheduled_delivery_timestamp: now - 60, failed: true },
      ],
      ...extra,
    },
  });
}

describe("scheduled messages", () => {
  it("are a screen of the table: the palette's entry says how many wait and opens the list", async () => {
    const fake = withScheduled();
    const entry = screenCommands(fake.ctx.store).find((c) => c.title === "Scheduled messages");
    expect(entry?.detail).toBe("2 waiting, 1 failed");
    const screen = await show(fake, () => entry!.run(fake.ctx));
    await screen.until(() => screen.frame().includes("Scheduled messages (2)"), "the list");
    expect(screen.frame()).toContain("Standup moved to 10");
  });

  it("lists them soonest first with their state, a failed delivery said as such", async () => {
    const fake = withScheduled();
    const screen = await show(fake, () => openScheduledList(fake.ctx));
    await screen.until(() => screen.frame().includes("Scheduled messages (2)"), "the list");
    const f = screen.frame();
    expect(f.indexOf("Happy birthday!")).toBeLessThan(f.indexOf("Standup moved to 10"));
    expect(f).toContain("general > plans");
    expect(f).toMatch(/failed: *│\n│ +not sent at its time/);
    expect(f).toContain("scheduled");
  });

  it("a failed one gives the reason the notification bot sent, when that message is here", async () => {
    const now = Math.floor(Date.now() / 1000);
    const bot = eg.user({ user_id: 90, full_name: "Notification Bot", email: "notification-bot@example.test", is_bot: true });
    const when = new Date((now - 60) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const notice = eg.dmMessage({ from: bot, to: [eg.selfUser], content: `The message you scheduled for <time:${when}> was not sent because of the following error:\n\n> Not authorized to send to channel 'leadership'\n\n[View scheduled messages](#scheduled)` });
    const fake = withScheduled({ realm_users: [eg.selfUser, eg.otherUser, bot] });
    fake.store.addFetched({ kind: "all-dms" }, [notice], { foundOldest: true, foundNewest: true, direction: "around" });
    const screen = await show(fake, () => openScheduledList(fake.ctx));
    await screen.until(() => screen.frame().includes("Happy birthday!"), "the list");
    expect(screen.frame()).toContain("Not authorized to send to channel 'leadership'");
  });

  it("x cancels after a question; r gives a new time; e edits the text", async () => {
    const fake = withScheduled();
    const screen = await show(fake, () => openScheduledList(fake.ctx));
    await screen.until(() => screen.frame().includes("Standup moved"), "the list");
    await screen.press("j", "x");
    await screen.until(() => screen.frame().includes("Cancel this scheduled message?"), "the question");
    await screen.press("y");
    await screen.until(() => fake.requests().some((r) => r[0] === "DELETE"), "the cancel");
    expect(fake.requests()).toContainEqual(["DELETE", "scheduled_messages/7", undefined]);

    await screen.until(() => screen.frame().includes("Scheduled messages (2)"), "back to the list");
    await screen.press("r");
    await screen.until(() => screen.frame().includes("Reschedule"), "the When form");
    expect(screen.frame()).toContain("As it is");
    await screen.press(KEY.down); // to the typed line
    for (const ch of "in 3 hours") await screen.press(ch);
    await screen.until(() => screen.frame().includes("→"), "the typed time read");
    const before = Date.now();
    await screen.press(KEY.enter);
    await screen.until(() => fake.requests().some((r) => r[0] === "PATCH"), "the reschedule");
    const patch = fake.requests().find((r) => r[0] === "PATCH")!;
    expect(patch[1]).toBe("scheduled_messages/7");
    const at = Number((patch[2] as Record<string, unknown>)["scheduled_delivery_timestamp"]);
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 3 * HOUR);
    expect(at).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 3 * HOUR);

    await screen.until(() => screen.frame().includes("Scheduled messages (2)"), "back to the list");
    await screen.press("e");
    await screen.until(() => screen.frame().includes("Edit the scheduled message"), "the editor");
    for (const ch of " sharp") await screen.press(ch);
    await screen.press(KEY.enter);
    await screen.until(() => fake.requests().filter((r) => r[0] === "PATCH").length === 2, "the edit saved");
    expect(fake.requests().filter((r) => r[0] === "PATCH")[1]).toEqual(["PATCH", "scheduled_messages/7", expect.objectContaining({ content: "Standup moved to 10 sharp" })]);
  });

  it("a long text is edited in a window that follows the cursor and keeps to the popup", async () => {
    const fake = withScheduled();
    const long = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join("\n");
    const screen = await show(fake, () => openEditText(fake.ctx, { title: "Edit the scheduled message", initial: long, save: async () => ({ ok: true, value: undefined }), saved: "saved" }));
    await screen.until(() => screen.frame().includes("line 40"), "the end, where the cursor is");
    expect(screen.frame().split("\n")).toHaveLength(16);
    expect(screen.frame()).not.toContain("line 1\n");
    for (let i = 0; i < 39; i++) await screen.press(KEY.up);
    await screen.until(() => screen.frame().includes("line 1 "), "the start");
    expect(screen.frame()).not.toContain("line 40");
  });

  it("s sends it now through the account's action", async () => {
    const fake = withScheduled();
    const sent: number[] = [];
    (fake.ctx.account.actions as { sendScheduledNow: (id: number) => Promise<unknown> }).sendScheduledNow = async (id) => (sent.push(id), { ok: true, value: "x" });
    const screen = await show(fake, () => openScheduledList(fake.ctx));
    await screen.until(() => screen.frame().includes("Happy birthday!"), "the list");
    await screen.press("s");
    await screen.until(() => sent.length === 1, "send now");
    expect(sent).toEqual([8]);
  });
});

describe("send later from the compose box", () => {
  it("the quick choice first: tomorrow 9:00 in the local zone, and the box empties once the server has it", async () => {
    const fake = fakeSession({ register: { subscriptions: [general] } });
    let emptied = 0;
    const screen = await show(fake, () => scheduleFromCompose(fake.ctx, { target: { type: "stream", channelId: 10, topic: "plans" }, label: "general > plans" }, "See you all", () => emptied++));
    await screen.until(() => screen.frame().includes("Send later"), "the When form");
    expect(screen.frame()).toContain("Tomorrow 9:00");
    await screen.press(KEY.enter);
    await screen.until(() => emptied === 1, "scheduled");
    const post = fake.requests().find((r) => r[0] === "POST")!;
    expect(post[1]).toBe("scheduled_messages");
    const p = post[2] as Record<string, unknown>;
    expect(p).toMatchObject({ type: "stream", to: 10, topic: "plans", content: "See you all" });
    const at = new Date(Number(p["scheduled_delivery_timestamp"]) * 1000);
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    expect([at.getDate(), at.getHours(), at.getMinutes()]).toEqual([tomorrow.getDate(), 9, 0]);
    expect(fake.recorded.some((r) => r.name === "notify" && String(r.args[0]).startsWith("Scheduled for"))).toBe(true);
  });

  it("a time gone is refused in the form, which stays open; nothing is sent", async () => {
    const fake = fakeSession({ register: { subscriptions: [general] } });
    const screen = await show(fake, () => scheduleFromCompose(fake.ctx, { target: { type: "direct", userIds: [eg.otherUser.user_id] }, label: "Other Person" }, "hi", () => undefined));
    await screen.until(() => screen.frame().includes("Send later"), "the When form");
    await screen.press(KEY.down);
    for (const ch of "yesterday") await screen.press(ch);
    await screen.press(KEY.enter);
    await screen.until(() => screen.frame().includes("has passed: choose a time ahead"), "the refusal");
    expect(fake.requests()).toEqual([]);
  });
});

describe("reminders", () => {
  const m = eg.streamMessage({ stream: general, subject: "plans", content: "Ship it on Friday" });
  it("!'s form sets a reminder with a note; the list shows it and x cancels it", async () => {
    const now = Math.floor(Date.now() / 1000);
    const fake = fakeSession({
      register: {
        subscriptions: [general],
        reminders: [{ reminder_id: 3, type: "private", to: [eg.selfUser.user_id], content: "quote", scheduled_delivery_timestamp: now + HOUR, failed: false, reminder_target_message_id: m.id }],
      },
      loaded: { narrow: { kind: "topic", channelId: 10, topic: "plans" }, messages: [m] },
    });
    const screen = await show(fake, () => remindAbout(fake.ctx, m));
    await screen.until(() => screen.frame().includes("Remind me about this message"), "the form");
    expect(screen.frame()).toContain("1 reminder already set");
    await screen.press(KEY.down, KEY.down);
    for (const ch of "check the build") await screen.press(ch);
    await screen.press(KEY.enter);
    await screen.until(() => fake.requests().some((r) => r[1] === "reminders"), "the reminder set");
    expect(fake.requests().find((r) => r[1] === "reminders")?.[2]).toMatchObject({ message_id: m.id, note: "check the build" });

    openReminders(fake.ctx);
    await screen.until(() => screen.frame().includes("Reminders (1)"), "the list");
    expect(screen.frame()).toContain("Ship it on Friday");
    await screen.press("x");
    await screen.until(() => fake.requests().some((r) => r[0] === "DELETE"), "the cancel");
    expect(fake.requests()).toContainEqual(["DELETE", "reminders/3", undefined]);
  });
});

describe("read receipts in message info", () => {
  const m = eg.streamMessage({ stream: general, subject: "plans", content: "Read me", sender: eg.selfUser });
  const answers = { [`GET messages/${m.id}`]: { message: { ...m } , raw_content: "Read me" }, [`GET messages/${m.id}/history`]: { message_history: [] } };
  it("lists who has read it", async () => {
    const fake = fakeSession({ register: { subscriptions: [general] }, loaded: { narrow: { kind: "feed" }, messages: [m] }, answers: { ...answers, [`GET messages/${m.id}/read_receipts`]: { user_ids: [eg.otherUser.user_id] } } });
    const screen = await show(fake, () => openMessageInfo(fake.ctx, m.id));
    await screen.until(() => screen.frame().includes("1 person: Other Person"), "the readers");
    expect(screen.frame()).toContain("Read by");
  });

  it("says plainly when the organization has turned them off, and asks nothing", async () => {
    const fake = fakeSession({ register: { subscriptions: [general], realm_enable_read_receipts: false }, loaded: { narrow: { kind: "feed" }, messages: [m] }, answers });
    const screen = await show(fake, () => openMessageInfo(fake.ctx, m.id));
    await screen.until(() => screen.frame().includes("Read receipts are turned off in this organization."), "the line");
    expect(fake.requests().some((r) => String(r[1]).endsWith("read_receipts"))).toBe(false);
  });
});

describe("saved snippets", () => {
  const snippets = [
    { id: 1, title: "Welcome", content: "Welcome aboard! Start with #general.", date_created: 1 },
    { id: 2, title: "Weekly report", content: "Done:\nNext:", date_created: 2 },
  ];
  it("from the compose box: typing searches by title, Enter inserts the text at the cursor", async () => {
    const fake = fakeSession({ register: { saved_snippets: snippets } });
    const inserted: string[] = [];
    fake.ctx.insertIntoCompose = (text, key) => (key === "draft-key" ? (inserted.push(text), true) : false);
    const screen = await show(fake, () => openSnippets(fake.ctx, "draft-key"));
    await screen.until(() => screen.frame().includes("Saved snippets (2)"), "the list");
    for (const ch of "week") await screen.press(ch);
    await screen.until(() => screen.frame().includes("Saved snippets (1)"), "the search");
    await screen.press(KEY.enter);
    await screen.until(() => inserted.length === 1, "the insert");
    expect(inserted).toEqual(["Done:\nNext:"]);
  });

  it("Ctrl-O makes one (title, then text), Ctrl-E edits, Ctrl-D deletes after a question", async () => {
    const fake = fakeSession({ register: { saved_snippets: snippets } });
    const screen = await show(fake, () => openSnippets(fake.ctx));
    await screen.until(() => screen.frame().includes("Saved snippets (2)"), "the list");
    await screen.press("\u000f"); // Ctrl-O
    await screen.until(() => screen.frame().includes("New saved snippet"), "the title form");
    for (const ch of "Thanks") await screen.press(ch);
    await screen.press(KEY.enter);
    await screen.until(() => screen.frame().includes("Snippet: Thanks"), "the text editor");
    for (const ch of "Thank you!") await screen.press(ch);
    await screen.press(KEY.ctrlJ);
    for (const ch of "-- me") await screen.press(ch);
    await screen.press(KEY.enter);
    await screen.until(() => fake.requests().some((r) => r[0] === "POST"), "created");
    expect(fake.requests().find((r) => r[0] === "POST")).toEqual(["POST", "saved_snippets", { title: "Thanks", content: "Thank you!\n-- me" }]);

    await screen.until(() => screen.frame().includes("Saved snippets (2)"), "back to the list");
    await screen.press(KEY.down, "\u0005"); // Ctrl-E on the second by title (Welcome)
    await screen.until(() => screen.frame().includes("Edit the snippet Welcome"), "the title form");
    await screen.press(KEY.enter);
    await screen.until(() => screen.frame().includes("Snippet: Welcome"), "the text editor");
    for (const ch of " Hi!") await screen.press(ch);
    await screen.press(KEY.enter);
    await screen.until(() => fake.requests().some((r) => r[0] === "PATCH"), "edited");
    expect(fake.requests().find((r) => r[0] === "PATCH")).toEqual(["PATCH", "saved_snippets/1", expect.objectContaining({ content: "Welcome aboard! Start with #general. Hi!" })]);

    await screen.until(() => screen.frame().includes("Saved snippets (2)"), "back to the list");
    await screen.press("\u0004"); // Ctrl-D, the cursor still on Welcome
    await screen.until(() => screen.frame().includes("Delete the snippet Welcome?"), "the question");
    await screen.press("y");
    await screen.until(() => fake.requests().some((r) => r[0] === "DELETE"), "deleted");
    expect(fake.requests()).toContainEqual(["DELETE", "saved_snippets/1", undefined]);
  });
});

describe("navigation views", () => {
  const views = [
    { fragment: "inbox", is_pinned: false, name: null },
    { fragment: "narrow/channel/10-general/topic/plans", is_pinned: true, name: "Plans" },
    { fragment: "narrow/is/starred/has/link", is_pinned: false, name: "Starred links" },
  ];
  it("the sidebar honours them: an unpinned built-in view leaves, a pinned custom one opens its narrow", () => {
    const fake = fakeSession({ register: { subscriptions: [general], navigation_views: views } });
    const rows = buildSidebarRows(fake.store);
    const labels = rows.filter((r) => r.kind === "view" || r.kind === "navView").map((r) => ("label" in r ? r.label : ""));
    expect(labels).not.toContain("Inbox");
    expect(labels).toContain("Combined feed");
    expect(labels).toContain("Plans");
    expect(labels).not.toContain("Starred links");
    expect(rows.find((r) => r.kind === "navView")?.narrow).toEqual({ kind: "topic", channelId: 10, topic: "plans" });
  });

  it("Enter on a pinned view's sidebar row opens its narrow", async () => {
    const probe = fakeSession({ register: { subscriptions: [general], navigation_views: views } });
    const cursor = buildSidebarRows(probe.store).findIndex((r) => r.kind === "navView");
    const fake = fakeSession({ register: { subscriptions: [general], navigation_views: views }, ui: { focus: "sidebar", sidebar: { cursor, filter: null, collapsedFolders: [] } } });
    const screen = await show(fake, () => undefined);
    await screen.press(KEY.enter);
    await screen.until(() => fake.names().includes("openNarrow"), "the view opened");
    expect(fake.recorded.find((r) => r.name === "openNarrow")?.args[0]).toEqual({ kind: "topic", channelId: 10, topic: "plans" });
  });

  it("the palette pins the open view, renames and unpins a view, and removes a custom one", async () => {
    const fake = fakeSession({ register: { subscriptions: [general], navigation_views: views }, narrow: { kind: "channel", channelId: 10 } });
    const run = (id: string) => laterCommands(fake.ctx).find((c) => c.id === id)!.run(fake.ctx);
    const screen = await show(fake, () => run("views.create"));
    await screen.until(() => screen.frame().includes("Pin this view to the sidebar"), "the form");
    expect(screen.frame()).toContain("narrow/channel/10-general");
    await screen.press(KEY.enter);
    await screen.until(() => fake.requests().some((r) => r[0] === "POST"), "created");
    expect(fake.requests().find((r) => r[0] === "POST")).toEqual(["POST", "navigation_views", expect.objectContaining({ fragment: "narrow/channel/10-general", is_pinned: true, name: "#general" })]);

    run("views.edit.narrow/channel/10-general/topic/plans");
    await screen.until(() => screen.frame().includes("The view Plans"), "the edit form");
    await screen.press(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace);
    for (const ch of "Roadmap") await screen.press(ch);
    await screen.press(KEY.down, " ", KEY.enter);
    await screen.until(() => fake.requests().some((r) => r[0] === "PATCH"), "edited");
    expect(fake.requests().find((r) => r[0] === "PATCH")).toEqual(["PATCH", `navigation_views/${encodeURIComponent("narrow/channel/10-general/topic/plans")}`, expect.objectContaining({ name: "Roadmap", is_pinned: false })]);

    run("views.remove.narrow/is/starred/has/link");
    await screen.until(() => screen.frame().includes("Remove the view Starred links?"), "the question");
    await screen.press("y");
    await screen.until(() => fake.requests().some((r) => r[0] === "DELETE"), "removed");
    expect(fake.requests()).toContainEqual(["DELETE", `navigation_views/${encodeURIComponent("narrow/is/starred/has/link")}`, undefined]);
    expect(laterCommands(fake.ctx).some((c) => c.id === "views.remove.inbox")).toBe(true); // a built-in view with a record can be reset
  });
});

describe("on an older server", () => {
  it("reminders, their list and snippets say what the server lacks, and open nothing", () => {
    const m = eg.streamMessage({ stream: general, subject: "plans", content: "x" });
    const fake = fakeSession({ register: { subscriptions: [general], svc_feature_level: 250 } });
    remindAbout(fake.ctx, m);
    openReminders(fake.ctx);
    openSnippets(fake.ctx, "key");
    const said = fake.recorded.filter((r) => r.name === "notify").map((r) => String(r.args[0]));
    expect(said).toEqual([
      expect.stringMatching(/too old for message reminders \(feature level 250; 381 or newer/),
      expect.stringMatching(/too old for listing and cancelling reminders/),
      expect.stringMatching(/too old for saved snippets/),
    ]);
    expect(fake.names()).not.toContain("openPopup");
    expect(laterCommands(fake.ctx).some((c) => c.id.startsWith("views."))).toBe(false);
  });
});
