/**
 * More screens on a fake session: the message pane with its keys, message
 * info, the user card, the compose box, the sidebar filter and the inbox.
 * Each test checks what the user sees and which action the screen asked for
 * (requests are recorded by the fake session's client, never sent).
 */
import { act, useState, type ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schemas/common.js";
import type { Narrow } from "../../src/model/narrow.js";
import { loadMarkdown } from "../../src/render/markdown.js";
import { Compose } from "../../src/ui/components/Compose.js";
import { Sidebar } from "../../src/ui/components/Sidebar.js";
import { useScreenState } from "../../src/ui/contexts.js";
import { useMessageWindow } from "../../src/ui/hooks/use-message-window.js";
import { useStoreVersion } from "../../src/ui/hooks/use-store.js";
import { LayoutCache } from "../../src/ui/layout-cache.js";
import { layoutWindow, renderContext } from "../../src/ui/message-layout.js";
import { buildSidebarRows, sidebarRowKey } from "../../src/ui/sidebar-rows.js";
import { INITIAL_UI } from "../../src/ui/ui-state.js";
import { FollowedView } from "../../src/ui/views/FollowedView.js";
import { InboxView } from "../../src/ui/views/InboxView.js";
import { MessagesView } from "../../src/ui/views/MessagesView.js";
import * as eg from "../fixtures/example.js";
import { FeatureKeys, fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";

beforeAll(async () => {
  await loadMarkdown(); // as the App does before its first frame with messages
});

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
  expect(eg.checkStores()).toEqual([]);
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });
const lunch: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };

async function show(fake: FakeSession, node: ReactNode) {
  await unmount?.();
  const screen = await renderOnFake(fake, node);
  unmount = screen.unmount;
  return screen;
}

/** The message pane as the App lays it out, with the App's key routing. */
function Pane() {
  const { store, messages, selected, narrow, ui } = useScreenState();
  const layout = { width: 60, showRecipients: false, color: false, openSpoilers: ui.openSpoilers };
  const { blocks } = layoutWindow(store, messages, messages.length - 1, 10, layout, renderContext(store, false, "UTC", false));
  return (
    <>
      <PaneView narrow={narrow!} blocks={blocks} selectedId={selected?.id} unread={new Set()} />
      <FeatureKeys />
    </>
  );
}

/** The messages view 60 columns wide and 10 rows high, in the message pane's focus. */
function PaneView(p: Pick<Parameters<typeof MessagesView>[0], "narrow" | "blocks" | "skip" | "selectedId" | "unread">) {
  return (
    <MessagesView
      {...p}
      pending={[]}
      width={60}
      paneHeight={10}
      focused
      editor={{ text: "", cursor: 0 }}
      sending={false}
      placeholder="No messages here yet."
      loadingMore={false}
    />
  );
}

/** Two messages in general > lunch, the newer selected; `answers` are the server's, for what the screen reads. */
function lunchTalk(answers: (reply: Message) => Record<string, unknown> = () => ({}), content = "Soup, surely") {
  const question = eg.streamMessage({ stream: general, subject: "lunch", content: "Pizza or soup?" });
  const reply = eg.streamMessage({ stream: general, subject: "lunch", content });
  const fake = fakeSession({
    register: { subscriptions: [general, design] },
    loaded: { narrow: lunch, messages: [question, reply] },
    narrow: lunch,
    ui: { focus: "messages" },
    answers: answers(reply),
  });
  return { fake, question, reply };
}

/** The popup a key asked for, rendered on the same fake screen. */
function popupOf(fake: FakeSession, close: () => void): ReactNode {
  const open = fake.recorded.find((r) => r.name === "openPopup");
  if (!open) throw new Error("no popup was opened");
  return (open.args[0] as (close: () => void) => ReactNode)(close);
}

describe("message pane on a fake session", () => {
  it("shows the conversation; * stars the selected message", async () => {
    const { fake, reply } = lunchTalk();
    const screen = await show(fake, <Pane />);
    await screen.until(() => screen.frame().includes("Soup, surely"), "the messages");
    expect(screen.frame()).toContain("general > lunch");
    expect(screen.frame()).toContain("Pizza or soup?");
    expect(screen.frame()).toContain("Other Person");
    await screen.press("*");
    await screen.until(() => fake.names().includes("succeeded"), "the star made");
    expect(fake.requests()).toEqual([["POST", "messages/flags", { messages: [reply.id], op: "add", flag: "starred" }]]);
    expect(fake.recorded.find((r) => r.name === "attempt")?.args).toEqual(["Starred the message ★"]);
  });

  it("+ reacts to the selected message with a thumbs up", async () => {
    const { fake, reply } = lunchTalk();
    const screen = await show(fake, <Pane />);
    await screen.until(() => screen.frame().includes("Soup, surely"), "the messages");
    await screen.press("+");
    await screen.until(() => fake.names().includes("succeeded"), "the reaction made");
    expect(fake.requests()).toEqual([["POST", `messages/${reply.id}/reactions`, expect.objectContaining({ emoji_name: "+1" })]]);
  });
});

/** The pane laid out as the App lays it out: the message window hook, the account's key, a layout cache of the screen's. */
function WindowPane() {
  const { store, ui, narrow, account } = useScreenState();
  const version = useStoreVersion(store);
  const [cache] = useState(() => new LayoutCache());
  const w = useMessageWindow({ store, version, narrow, ui, paneHeight: 10, width: 60, color: false, markdownReady: true, account: account.key, cache });
  return <PaneView narrow={narrow!} blocks={w.blocks} skip={w.skip} selectedId={w.selected?.id} unread={w.unreadShown} />;
}

describe("names in the message pane on a fake session", () => {
  it("a person renamed elsewhere shows by the new name at once where a message mentions them", async () => {
    const ann = eg.user({ user_id: 41, full_name: "Ann Archer" });
    const m = eg.streamMessage({ stream: general, subject: "lunch", content: "ask @**Ann Archer|41** about lunch" });
    const fake = fakeSession({
      register: { subscriptions: [general], realm_users: [eg.selfUser, eg.otherUser, ann] },
      loaded: { narrow: lunch, messages: [m] },
      narrow: lunch,
      ui: { focus: "messages", view: { kind: "narrow", narrow: lunch } },
    });
    const screen = await show(fake, <WindowPane />);
    await screen.until(() => screen.frame().includes("@Ann Archer about lunch"), "the mention");
    await act(async () => eg.apply(fake.store, { type: "realm_user", op: "update", person: { user_id: 41, full_name: "Ann Brook" } }));
    await screen.until(() => screen.frame().includes("@Ann Brook about lunch"), "the new name");
    expect(screen.frame()).not.toContain("Archer");
  });
});

describe("copying and spoilers on a fake session", () => {
  it("y copies the raw text (OSC 52) and says how long it was", async () => {
    const { fake } = lunchTalk(undefined, "copy **me**");
    const screen = await show(fake, <Pane />);
    await screen.until(() => screen.frame().includes("copy me"), "the messages");
    await screen.press("y");
    await screen.until(() => fake.names().includes("notify"), "the copy done");
    expect(fake.recorded.find((r) => r.name === "notify")?.args[0]).toBe("Copied the message's text (11 characters)");
    const sequence = fake.recorded.find((r) => r.name === "writeTerminal")?.args[0] as string;
    expect(sequence).toBe(`\u001b]52;c;${Buffer.from("copy **me**").toString("base64")}\u0007`);
  });

  it("o opens and closes the spoilers of the selected message", async () => {
    const { fake } = lunchTalk(undefined, "```spoiler Who did it\nthe butler\n```");
    const screen = await show(fake, <Pane />);
    await screen.until(() => screen.frame().includes("▶ Who did it (spoiler)"), "the closed spoiler");
    expect(screen.frame()).not.toContain("the butler");
    await screen.press("o");
    await screen.until(() => screen.frame().includes("the butler"), "the spoiler opened");
    expect(screen.frame()).toContain("▼ Who did it (spoiler)");
    await screen.press("o");
    await screen.until(() => !screen.frame().includes("the butler"), "the spoiler closed");
    expect(screen.frame()).toContain("▶ Who did it (spoiler)");
  });
});

describe("message info and user card on a fake session", () => {
  it("i opens the selected message's info: sender, where, its source and history from the server", async () => {
    const { fake, reply } = lunchTalk((m) => ({
      [`GET messages/${m.id}`]: { message: { content: "Soup, **surely**" } },
      [`GET messages/${m.id}/history`]: { message_history: [{ topic: "lunch", content: "Soup, surely", rendered_content: "<p>Soup, surely</p>", timestamp: m.timestamp, user_id: 2 }] },
    }));
    let screen = await show(fake, <Pane />);
    await screen.until(() => screen.frame().includes("Soup, surely"), "the messages");
    await screen.press("i");
    await screen.until(() => fake.names().includes("openPopup"), "the info asked for");
    let closed = 0;
    screen = await show(fake, popupOf(fake, () => closed++));
    await screen.until(() => screen.frame().includes("Never edited or moved."), "the info loaded");
    expect(screen.frame()).toContain("From: Other Person <other@example.test>");
    expect(screen.frame()).toMatch(/In: +#general › lunch/);
    expect(screen.frame()).toContain("Soup, **surely**");
    // Who read it is asked too (the fake has no answer: the info says it could not load).
    expect(fake.requests().map((r) => `${r[0]} ${r[1]}`).sort()).toEqual([`GET messages/${reply.id}`, `GET messages/${reply.id}/history`, `GET messages/${reply.id}/read_receipts`]);
  });

  it("message info shows each edit as a word diff and each move from channel › topic to channel › topic", async () => {
    const { fake } = lunchTalk(
      (m) => ({
        [`GET messages/${m.id}`]: { message: { content: "Soup, surely not" } },
        [`GET messages/${m.id}/history`]: {
          message_history: [
            { topic: "food", content: "Soup, surely", rendered_content: "", timestamp: m.timestamp, user_id: 2 },
            { topic: "food", content: "Soup, surely not", prev_content: "Soup, surely", rendered_content: "", timestamp: m.timestamp + 60, user_id: 2 },
            { topic: "lunch", prev_topic: "food", stream: 10, prev_stream: 11, timestamp: m.timestamp + 120, user_id: 1 },
          ],
        },
      }),
      "Soup, surely not",
    );
    let screen = await show(fake, <Pane />);
    await screen.until(() => screen.frame().includes("Soup, surely not"), "the messages");
    await screen.press("i");
    await screen.until(() => fake.names().includes("openPopup"), "the info asked for");
    screen = await show(fake, popupOf(fake, () => {}));
    await screen.until(() => screen.frame().includes("{+not+}"), "the edit's diff");
    expect(screen.frame()).toContain("Soup, surely {+not+}");
    // Headings wrap in the popup: read them with the borders taken out.
    const text = screen.frame().replace(/\s*│\s*/g, " ").replace(/ +/g, " ");
    expect(text).toContain("Other Person · edited the content");
    expect(text).toContain("Self User · moved from #design › food to #general › lunch");
  });

  it("message info says so when the server cannot give the source", async () => {
    const { fake } = lunchTalk();
    let screen = await show(fake, <Pane />);
    await screen.until(() => screen.frame().includes("Soup, surely"), "the messages");
    await screen.press("i");
    await screen.until(() => fake.names().includes("openPopup"), "the info asked for");
    screen = await show(fake, popupOf(fake, () => {}));
    await screen.until(() => screen.frame().includes("Could not load"), "the failure shown");
    expect(screen.frame()).toContain("No answer prepared for GET");
  });

  it("u opens the sender's card with the server's fresh copy of the person; Esc closes it", async () => {
    const fresh = { ...eg.otherUser, full_name: "Other Person (fresh)", role: 300 };
    const { fake } = lunchTalk(() => ({ [`GET users/${eg.otherUser.user_id}`]: { user: fresh } }));
    let screen = await show(fake, <Pane />);
    await screen.until(() => screen.frame().includes("Soup, surely"), "the messages");
    await screen.press("u");
    await screen.until(() => fake.names().includes("openPopup"), "the card asked for");
    let closed = 0;
    screen = await show(fake, popupOf(fake, () => closed++));
    await screen.until(() => screen.frame().includes("Other Person (fresh)"), "the fresh copy");
    expect(screen.frame()).toContain("Moderator");
    expect(fake.requests()).toEqual([["GET", `users/${eg.otherUser.user_id}`, {}]]);
    await screen.press("\u001b");
    await screen.until(() => closed === 1, "closed by Esc");
  });
});

describe("compose box on a fake session", () => {
  it("shows the recipient, the text and the keys; editing says save and offers the topic", async () => {
    const fake = fakeSession({ register: { subscriptions: [general] } });
    let screen = await show(fake, <Compose label="general > lunch" editor={{ text: "See you at noon", cursor: 15 }} width={60} maxLines={4} sending={false} />);
    await screen.until(() => screen.frame().includes("See you at noon"), "the text");
    expect(screen.frame()).toContain("general > lunch");
    expect(screen.frame()).toMatch(/Enter send/);
    expect(screen.frame()).not.toMatch(/topic/);

    const editing = fakeSession({
      register: { subscriptions: [general] },
      ui: { compose: { target: { type: "stream", channelId: 10, topic: "lunch" }, label: "general > lunch", key: "k", editing: { messageId: 5 } } },
    });
    screen = await show(editing, <Compose label="general > lunch" editor={{ text: "Fixed", cursor: 5 }} width={80} maxLines={4} sending={false} error="Not saved: no — your text is kept" />);
    await screen.until(() => screen.frame().includes("Fixed"), "the edit");
    expect(screen.frame()).toMatch(/Enter save/);
    expect(screen.frame()).toMatch(/Tab topic/);
    expect(screen.frame()).toContain("Not saved: no — your text is kept");
  });
});

/** The sidebar as the App feeds it: rows and filter from the UI state. */
function SidebarOnFake() {
  const { store, ui } = useScreenState();
  const rows = buildSidebarRows(store, { filter: ui.sidebar.filter ?? undefined, expanded: ui.sidebar.expanded ?? undefined });
  return (
    <>
      <Sidebar rows={rows} cursor={ui.sidebar.cursor} width={30} height={20} focused rowKey={sidebarRowKey} filter={ui.sidebar.filter} />
      <FeatureKeys />
    </>
  );
}

describe("sidebar on a fake session", () => {
  it("q filters the channels by what is typed; Enter opens the one found", async () => {
    const fake = fakeSession({ register: { subscriptions: [general, design] }, ui: { focus: "sidebar", sidebar: { ...INITIAL_UI.sidebar, cursor: 0 } } });
    const screen = await show(fake, <SidebarOnFake />);
    await screen.until(() => screen.frame().includes("general") && screen.frame().includes("design"), "the channels");
    await screen.press("q", "d", "e", "s");
    await screen.until(() => !screen.frame().includes("general"), "general filtered out");
    expect(screen.frame()).toContain("design");
    await screen.press("\r");
    await screen.until(() => fake.names().includes("openNarrow"), "the channel opened");
    expect(fake.recorded.find((r) => r.name === "openNarrow")?.args[0]).toEqual({ kind: "channel", channelId: 11 });
    expect(fake.ctx.latest().sidebar.filter).toBeNull();
  });

  it("r in the sidebar replies in the open conversation", async () => {
    const fake = fakeSession({ register: { subscriptions: [general, design] }, narrow: lunch, ui: { focus: "sidebar" } });
    const screen = await show(fake, <SidebarOnFake />);
    await screen.until(() => screen.frame().includes("general"), "the channels");
    await screen.press("r");
    await screen.until(() => fake.names().includes("openCompose"), "the compose box asked for");
    expect(fake.recorded.find((r) => r.name === "openCompose")?.args[0]).toEqual({ type: "stream", channelId: 10, topic: "lunch" });
  });
});

describe("inbox on a fake session", () => {
  function inboxFake() {
    const unread = [
      eg.streamMessage({ stream: design, subject: "colours" }),
      eg.streamMessage({ stream: design, subject: "colours" }),
      eg.streamMessage({ stream: general, subject: "lunch" }),
    ];
    return fakeSession({
      register: { subscriptions: [general, design], unread_msgs: eg.unreadMessages(unread) },
      ui: { focus: "messages" },
      answers: { "POST messages/flags/narrow": { processed_count: 1, updated_count: 1, first_processed_id: 1, last_processed_id: 1, found_oldest: true, found_newest: true } },
    });
  }

  it("lists the unread conversations by channel with their counts; Enter on a channel folds its topics", async () => {
    const fake = inboxFake();
    const screen = await show(fake, <InboxView width={60} height={12} focused />);
    await screen.until(() => screen.frame().includes("colours"), "the inbox");
    const line = (word: string) => screen.frame().split("\n").find((l) => l.includes(word)) ?? "";
    expect(line("colours")).toMatch(/\b2\b/);
    expect(line("lunch")).toMatch(/\b1\b/);
    const top = screen.frame().indexOf("design") < screen.frame().indexOf("general") ? "colours" : "lunch";
    await screen.press("\r");
    await screen.until(() => !screen.frame().includes(top), "the first channel folded");
    expect(screen.frame()).toContain(top === "colours" ? "lunch" : "colours");
  });

  it("Enter on a topic opens it; M marks it read on the server", async () => {
    const fake = inboxFake();
    const screen = await show(fake, <InboxView width={60} height={12} focused />);
    await screen.until(() => screen.frame().includes("colours"), "the inbox");
    await screen.press("j");
    await screen.press("M");
    await screen.until(() => fake.names().includes("succeeded"), "the topic marked read");
    expect(fake.recorded.find((r) => r.name === "attempt")?.args).toEqual(["Marked #general > lunch as read"]);
    expect(fake.requests()).toEqual([
      [
        "POST",
        "messages/flags/narrow",
        // From the topic's oldest unread message on ("first_unread" would skip a muted topic altogether).
        expect.objectContaining({ anchor: String(fake.store.unreads.idsInTopic(10, "lunch")[0]), include_anchor: true, narrow: [{ operator: "channel", operand: 10 }, { operator: "topic", operand: "lunch" }], op: "add", flag: "read" }),
      ],
    ]);
    await screen.press("\r");
    await screen.until(() => fake.names().includes("openNarrow"), "the topic opened");
    expect(fake.recorded.find((r) => r.name === "openNarrow")?.args[0]).toEqual(lunch);
  });
});

describe("followed topics on a fake session", () => {
  it("lists the followed topics with their unread counts; Enter opens one, M marks it read", async () => {
    const unread = [eg.streamMessage({ stream: design, subject: "fonts" }), eg.streamMessage({ stream: design, subject: "fonts" })];
    const fake = fakeSession({
      register: {
        subscriptions: [general, design],
        unread_msgs: eg.unreadMessages(unread),
        user_topics: [{ stream_id: 11, topic_name: "fonts", last_updated: 1, visibility_policy: 3 }],
      },
      ui: { focus: "messages" },
      answers: { "POST messages/flags/narrow": { processed_count: 2, updated_count: 2, first_processed_id: 1, last_processed_id: 2, found_oldest: true, found_newest: true } },
    });
    const screen = await show(fake, <FollowedView width={60} height={10} focused />);
    await screen.until(() => screen.frame().includes("fonts"), "the followed topic");
    expect(screen.frame().split("\n").find((l) => l.includes("fonts"))).toMatch(/\b2\b/);
    expect(screen.frame()).not.toContain("lunch");
    await screen.press("M");
    await screen.until(() => fake.names().includes("succeeded"), "marked read");
    expect(fake.requests()).toEqual([
      ["POST", "messages/flags/narrow", expect.objectContaining({ narrow: [{ operator: "channel", operand: 11 }, { operator: "topic", operand: "fonts" }], flag: "read" })],
    ]);
    await screen.press("\r");
    await screen.until(() => fake.names().includes("openNarrow"), "the topic opened");
    expect(fake.recorded.find((r) => r.name === "openNarrow")?.args[0]).toEqual({ kind: "topic", channelId: 11, topic: "fonts" });
  });
});
