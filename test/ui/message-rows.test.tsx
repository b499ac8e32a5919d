/**
 * The message pane's memoised rows on a fake session, laid out as the App lays them out (the
 * message window hook): moving the selection draws again only the gutter's marks that changed, and
 * no row's text; every change to what a row shows still reaches the screen — a person renamed where a message
 * names them, a reaction added, the selection moved back.
 */
import { act, useState } from "react";
import { afterEach, beforeAll, expect, it } from "vitest";
import type { Narrow } from "../../src/model/narrow.js";
import { loadMarkdown } from "../../src/render/markdown.js";
import { useScreenState } from "../../src/ui/contexts.js";
import { useMessageWindow } from "../../src/ui/hooks/use-message-window.js";
import { useStoreVersion } from "../../src/ui/hooks/use-store.js";
import { LayoutCache } from "../../src/ui/layout-cache.js";
import type { Block } from "../../src/ui/message-layout.js";
import { RenderProbe } from "../../src/ui/render-probe.js";
import { MessagesView } from "../../src/ui/views/MessagesView.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";

beforeAll(async () => {
  await loadMarkdown();
});

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
  expect(eg.checkStores()).toEqual([]);
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const lunch: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };

/** The pane as the App lays it out; the blocks it drew are handed to `seen`. */
function WindowPane({ seen }: { seen: (blocks: Block[]) => void }) {
  const { store, ui, narrow, account } = useScreenState();
  const version = useStoreVersion(store);
  const [cache] = useState(() => new LayoutCache());
  const w = useMessageWindow({ store, version, narrow, ui, paneHeight: 12, width: 60, color: false, markdownReady: true, account: account.key, cache });
  seen(w.blocks);
  return (
    <MessagesView
      narrow={narrow!}
      blocks={w.blocks}
      skip={w.skip}
      selectedId={w.selected?.id}
      unread={w.unreadShown}
      pending={[]}
      width={60}
      paneHeight={12}
      focused
      editor={{ text: "", cursor: 0 }}
      sending={false}
      placeholder="No messages here yet."
      loadingMore={false}
    />
  );
}

async function setUp() {
  const ann = eg.user({ user_id: 41, full_name: "Ann Archer" });
  const bo = eg.user({ user_id: 42, full_name: "Bo Brandt" });
  const at = 1_763_600_000;
  const messages = [
    eg.streamMessage({ stream: general, subject: "lunch", content: "Pizza or soup?", sender_id: 41, sender_full_name: "Ann Archer", timestamp: at }),
    eg.streamMessage({ stream: general, subject: "lunch", content: "Soup, surely, ask @**Bo Brandt|42**", sender_id: 42, sender_full_name: "Bo Brandt", timestamp: at + 60 }),
    eg.streamMessage({ stream: general, subject: "lunch", content: "Both, then", sender_id: 41, sender_full_name: "Ann Archer", timestamp: at + 7200 }),
  ];
  const fake = fakeSession({
    register: { subscriptions: [general], realm_users: [eg.selfUser, eg.otherUser, ann, bo] },
    loaded: { narrow: lunch, messages },
    narrow: lunch,
    ui: { focus: "messages", view: { kind: "narrow", narrow: lunch } },
  });
  const renders = { rows: 0, marks: 0 };
  let blocks: Block[] = [];
  const screen = await renderOnFake(
    fake,
    <RenderProbe.Provider value={(name) => void (name === "message row" ? renders.rows++ : name === "pane mark" && renders.marks++)}>
      <WindowPane seen={(b) => (blocks = b)} />
    </RenderProbe.Provider>,
  );
  unmount = screen.unmount;
  await screen.until(() => screen.frame().includes("Both, then"), "the messages");
  const linesOf = (id: number) => blocks.find((b) => b.id === id)?.lines.length ?? 0;
  const rowsShown = () => blocks.reduce((n, b) => n + b.lines.length, 0);
  const select = (id: number) => act(async () => fake.ctx.dispatch({ type: "select", id, follow: false }));
  /** The screen's line holding `text`, and whether it carries the selection's mark. */
  const marked = (text: string) => screen.frame().split("\n").find((l) => l.includes(text))?.startsWith("▌") ?? false;
  return { fake, screen, messages, renders, linesOf, rowsShown, select, marked };
}

it("moving the selection draws again only the marks of the two messages' rows, and no row's text", async () => {
  const { screen, messages, renders, linesOf, rowsShown, select, marked } = await setUp();
  const [first, , last] = messages;
  expect(marked("Both, then")).toBe(true);
  renders.rows = 0;
  renders.marks = 0;
  await select(first!.id);
  await screen.until(() => marked("Pizza or soup?"), "the first message selected");
  expect(marked("Both, then")).toBe(false);
  expect(renders.marks).toBe(linesOf(first!.id) + linesOf(last!.id));
  expect(renders.marks).toBeLessThan(rowsShown());
  expect(renders.rows).toBe(0);
  // And back: the rows follow the selection both ways.
  await select(last!.id);
  await screen.until(() => marked("Both, then") && !marked("Pizza or soup?"), "the last message selected again");
});

it("a person renamed shows by the new name where a message mentions them, on a row not selected", async () => {
  const { fake, screen, marked } = await setUp();
  expect(screen.frame()).toContain("ask @Bo Brandt");
  await act(async () => eg.apply(fake.store, { type: "realm_user", op: "update", person: { user_id: 42, full_name: "Bo Carver" } }));
  await screen.until(() => screen.frame().includes("ask @Bo Carver"), "the new name");
  expect(screen.frame()).not.toContain("ask @Bo Brandt");
  expect(marked("Both, then")).toBe(true);
});

it("a reaction added to a message shows under it at once, whether it is selected or not", async () => {
  const { fake, screen, messages } = await setUp();
  const [, middle, last] = messages;
  const react = (id: number, name: string, code: string) =>
    act(async () => eg.apply(fake.store, { type: "reaction", op: "add", message_id: id, user_id: 41, emoji_name: name, emoji_code: code, reaction_type: "unicode_emoji" }));
  await react(middle!.id, "tada", "1f389");
  await screen.until(() => screen.frame().includes("🎉 1"), "the reaction on the message not selected");
  await react(last!.id, "octopus", "1f419");
  await screen.until(() => screen.frame().includes("🐙 1"), "the reaction on the selected message");
});
