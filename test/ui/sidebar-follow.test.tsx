/**
 * The sidebar's cursor follows a conversation opened from elsewhere, on a
 * fake session: resuming a draft (D, Enter) moves it from the view that was
 * open to the draft's topic, whose channel shows its topics.
 */
import { act } from "react";
import { afterEach, expect, it } from "vitest";
import type { Narrow } from "../../src/model/narrow.js";
import { narrowKey } from "../../src/model/narrow.js";
import { Sidebar } from "../../src/ui/components/Sidebar.js";
import { useFeatureContext, useScreenActions } from "../../src/ui/contexts.js";
import { useSidebarFollowsView } from "../../src/ui/hooks/use-sidebar-follow.js";
import { resumeDraft } from "../../src/ui/popups/DraftsList.js";
import { buildSidebarRows, sidebarRowKey } from "../../src/ui/sidebar-rows.js";
import { INITIAL_UI } from "../../src/ui/ui-state.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

/** The sidebar as the App draws it, with the App's cursor upkeep. */
function SidebarWithUpkeep() {
  const ctx = useFeatureContext();
  const { store, ui } = ctx;
  const rows = buildSidebarRows(store, { filter: ui.sidebar.filter, expanded: ui.sidebar.expanded, collapsedFolders: ui.sidebar.collapsedFolders });
  const openKey = ui.view.kind === "narrow" ? narrowKey(ui.view.narrow) : `view:${ui.view.kind}`;
  useSidebarFollowsView(useScreenActions(), store, openKey, rows);
  return <Sidebar rows={rows} cursor={ui.sidebar.cursor} width={30} height={20} focused={false} openKey={openKey} rowKey={sidebarRowKey} filter={ui.sidebar.filter} />;
}

it("resuming a draft moves the sidebar's cursor from the view left behind to the draft's topic", async () => {
  const general = eg.subscription({ stream_id: 10, name: "general" });
  const design = eg.subscription({ stream_id: 11, name: "design" });
  const fake = fakeSession({
    register: { subscriptions: [general, design] },
    // The Inbox is open, the cursor on its row (the first).
    ui: { view: { kind: "screen", id: "inbox" }, focus: "messages", sidebar: { ...INITIAL_UI.sidebar, cursor: 0 } },
  });
  eg.apply(fake.store, eg.messageEvent(eg.streamMessage({ id: 40, stream: design, subject: "icons" })));
  // The App opens a narrow by dispatching it.
  fake.ctx.openNarrow = (narrow: Narrow, o = {}) => fake.ctx.dispatch({ type: "open", narrow, focus: o.focus ?? "messages", select: o.select });
  const screen = await renderOnFake(fake, <SidebarWithUpkeep />);
  unmount = screen.unmount;
  await screen.until(() => screen.frame().includes("design"), "the sidebar");
  const rowsNow = () => buildSidebarRows(fake.store, { expanded: fake.ctx.latest().sidebar.expanded });
  expect(sidebarRowKey(rowsNow()[fake.ctx.latest().sidebar.cursor]!)).toBe("view:inbox");

  await act(async () => resumeDraft(fake.ctx, { key: "stream:11:icons", target: { type: "stream", channelId: 11, topic: "icons" }, text: "draft", updatedAt: 1 }));
  const topic = narrowKey({ kind: "topic", channelId: 11, topic: "icons" });
  await screen.until(() => sidebarRowKey(rowsNow()[fake.ctx.latest().sidebar.cursor]!) === topic, "the cursor on the draft's topic");
  expect(fake.ctx.latest().sidebar.expanded).toBe(11);
  expect(screen.frame()).toMatch(/›\s+icons/); // the open topic, shown (its channel's topics are listed)
});
