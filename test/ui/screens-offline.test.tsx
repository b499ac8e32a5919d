/**
 * Screens on a fake session, without a server: what the user sees, and which
 * action the screen asked for (recorded, never sent).
 */
import { afterEach, describe, expect, it } from "vitest";
import { Sidebar } from "../../src/ui/components/Sidebar.js";
import { ConfirmDelete } from "../../src/ui/popups/ConfirmDelete.js";
import { DraftsList } from "../../src/ui/popups/DraftsList.js";
import { buildSidebarRows, sidebarRowKey } from "../../src/ui/sidebar-rows.js";
import { INITIAL_UI } from "../../src/ui/ui-state.js";
import { MessagesView } from "../../src/ui/views/MessagesView.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
  expect(eg.checkStores()).toEqual([]);
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });

describe("drafts list on a fake session", () => {
  const drafts = [
    eg.draft({ id: 71, to: [10], topic: "lunch", content: "Shall we try the new place?" }),
    eg.draft({ id: 72, type: "private", to: [eg.otherUser.user_id], topic: "", content: "About tomorrow" }),
  ];

  it("lists the server's drafts with their conversations, and x asks to delete the one under the cursor", async () => {
    const fake = fakeSession({ register: { drafts } });
    let closed = 0;
    const screen = await renderOnFake(fake, <DraftsList close={() => closed++} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("Drafts (2)"), "the drafts popup");
    expect(screen.frame()).toContain("Shall we try the new place?");
    expect(screen.frame()).toContain("About tomorrow");
    expect(screen.frame()).toMatch(/general > lunch/);
    const top = screen.frame().indexOf("About tomorrow") < screen.frame().indexOf("Shall we") ? 72 : 71;
    await screen.press("x");
    await screen.until(() => fake.names().includes("attempt"), "the delete asked for");
    expect(fake.recorded.filter((r) => r.name === "attempt")).toEqual([{ name: "attempt", args: ["Draft deleted."] }]);
    await screen.until(() => fake.names().includes("succeeded"), "the delete made");
    expect(fake.requests()).toEqual([["DELETE", `drafts/${top}`, undefined]]);
    expect(closed).toBe(0);
  });

  it("Enter resumes the draft: opens its conversation and the compose box with its text", async () => {
    const fake = fakeSession({ register: { drafts } });
    let closed = 0;
    const screen = await renderOnFake(fake, <DraftsList close={() => closed++} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("Drafts (2)"), "the drafts popup");
    const first = screen.frame().indexOf("About tomorrow") < screen.frame().indexOf("Shall we") ? "dm" : "topic";
    await screen.press(first === "dm" ? "j" : "k", "\r");
    await screen.until(() => fake.names().includes("openCompose"), "the compose box opened");
    expect(closed).toBe(1);
    expect(fake.recorded.find((r) => r.name === "openNarrow")?.args[0]).toEqual({ kind: "topic", channelId: 10, topic: "lunch" });
    expect(fake.recorded.find((r) => r.name === "openCompose")?.args[1]).toEqual({ initialText: "Shall we try the new place?" });
  });

  it("says there are none when there are none", async () => {
    const fake = fakeSession();
    const screen = await renderOnFake(fake, <DraftsList close={() => {}} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("Drafts (0)"), "the empty popup");
    expect(screen.frame()).toContain("No drafts.");
  });
});

describe("delete confirmation on a fake session", () => {
  it("shows where the message is and what it says; y asks to delete it, n keeps it", async () => {
    const mine = eg.streamMessage({ stream: general, subject: "plans", content: "Meet at noon", sender_id: eg.selfUser.user_id });
    const fake = fakeSession({ register: { subscriptions: [general, design] } });
    let closed = 0;
    const screen = await renderOnFake(fake, <ConfirmDelete message={mine} close={() => closed++} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("Delete this message?"), "the confirmation");
    expect(screen.frame()).toMatch(/general > plans/);
    expect(screen.frame()).toContain("Meet at noon");
    await screen.press("n");
    await screen.until(() => closed === 1, "closed by n");
    expect(fake.names()).toEqual([]);
    await screen.press("y");
    await screen.until(() => fake.names().includes("succeeded"), "the delete made");
    expect(fake.recorded).toEqual([
      { name: "attempt", args: ["Message deleted."] },
      { name: "request", args: ["DELETE", `messages/${mine.id}`, undefined] },
      { name: "succeeded", args: [undefined] },
    ]);
  });
});

describe("messages view and sidebar on a fake session", () => {
  it("the messages view titles the open narrow from the store in the state context", async () => {
    const narrow = { kind: "topic" as const, channelId: 11, topic: "colours" };
    const fake = fakeSession({ register: { subscriptions: [general, design] }, narrow });
    const screen = await renderOnFake(
      fake,
      <MessagesView
        narrow={narrow}
        blocks={[]}
        selectedId={undefined}
        unread={new Set()}
        pending={[]}
        width={60}
        paneHeight={8}
        focused
        editor={{ text: "", cursor: 0 }}
        sending={false}
        placeholder="No messages here yet."
        loadingMore={false}
        typing="Other Person is typing…"
      />,
    );
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("design > colours"), "the title");
    expect(screen.frame()).toContain("No messages here yet.");
    expect(screen.frame()).toContain("Other Person is typing…");
  });

  it("the sidebar shows the channels with their unread counts; typed text goes into the filter", async () => {
    const unread = eg.streamMessage({ stream: design, subject: "colours" });
    const fake = fakeSession({
      register: {
        subscriptions: [general, design],
        unread_msgs: eg.unreadMessages([unread, eg.streamMessage({ stream: design, subject: "fonts" })]),
      },
      ui: { focus: "sidebar", sidebar: { ...INITIAL_UI.sidebar, filter: "" } },
    });
    const rows = buildSidebarRows(fake.store, {});
    const screen = await renderOnFake(fake, <Sidebar rows={rows} cursor={0} width={30} height={20} focused rowKey={sidebarRowKey} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("design"), "the channels");
    expect(screen.frame()).toContain("general");
    expect(screen.frame().split("\n").find((l) => l.includes("design"))).toMatch(/\b2\b/);
    await screen.press("d");
    await screen.until(() => fake.names().includes("dispatch"), "the filter typed");
    expect(fake.ctx.latest().sidebar.filter).toBe("d");
  });
});
