/**
 * Read marking on a fake session: the message pane with the App's own hooks
 * (the window, the place the view opened at, the report of what is on
 * screen) and the account's own view upkeep deciding what to mark, a server
 * stand-in that applies each mark as the server's flag event would. Only what is shown
 * whole becomes read; the view does not move as it does; the user's setting
 * decides, live.
 */
import { Box } from "ink";
import { useEffect, useState } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schemas/common.js";
import { FEED, narrowKey, type Narrow } from "../../src/model/narrow.js";
import { EMPTY_EDITOR } from "../../src/ui/compose-editor.js";
import { useScreenActions, useScreenState } from "../../src/ui/contexts.js";
import { useLanding, useMessageWindow } from "../../src/ui/hooks/use-message-window.js";
import { ViewUpkeep } from "../../src/sync/upkeep/view-upkeep.js";
import { useViewReport } from "../../src/ui/hooks/use-view-report.js";
import { useStoreVersion } from "../../src/ui/hooks/use-store.js";
import { currentNarrow, type UiState } from "../../src/ui/ui-state.js";
import { MessagesView } from "../../src/ui/views/MessagesView.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";

const ROWS = 12;
const general = eg.subscription({ stream_id: 10, name: "general" });

/** The server's side: marks arrive as flag events a moment later, as over the network. */
function markingServer(fake: FakeSession) {
  const marked: number[] = [];
  const idle = async () => undefined;
  const commands = {
    markRead(ids: number[]) {
      marked.push(...ids);
      setTimeout(() => eg.apply(fake.store, eg.flagsEvent("add", "read", ids)), 5);
    },
    loadNarrow: idle,
    fetchTopics: idle,
    fetchTopicsOf: idle,
    checkNarrowMatches: idle,
    fetchOlder: idle,
    fetchNewer: idle,
  };
  return { commands, marked };
}

/**
 * The pane as the App draws it, with the App's hooks for its window, its landing and its report
 * of what it shows, told to a view upkeep that runs on every change of the store as the account does.
 */
function ReadingPane({ commands }: { commands: ConstructorParameters<typeof ViewUpkeep>[0]["commands"] }) {
  const { store, ui } = useScreenState();
  const { dispatch } = useScreenActions();
  const [upkeep] = useState(() => new ViewUpkeep({ store: () => store, live: () => true, commands }));
  useEffect(() => store.subscribe(() => upkeep.run()), [store, upkeep]);
  const narrow = currentNarrow(ui);
  const version = useStoreVersion(store);
  const w = useMessageWindow({ store, version, narrow, ui, paneHeight: ROWS, width: 60, color: false, markdownReady: true });
  useLanding(dispatch, { narrow, selection: w.selection, list: w.list, messages: w.messages, selectedIndex: w.selectedIndex, live: true });
  useViewReport((v) => upkeep.set(v), {
    narrow,
    focus: ui.focus,
    expandedChannel: undefined,
    filtering: false,
    selectedIndex: w.selectedIndex,
    count: w.messages.length,
    blocks: w.blocks,
    skip: w.skip,
    selectedId: w.selected?.id,
    rows: ROWS,
    covered: false,
    settled: w.settled,
  });
  if (!narrow) return null;
  return (
    <Box width={62}>
      <MessagesView
        narrow={narrow}
        blocks={w.blocks}
        skip={w.skip}
        selectedId={w.selected?.id}
        unread={w.unreadShown}
        pending={[]}
        width={62}
        paneHeight={ROWS}
        focused
        editor={EMPTY_EDITOR}
        sending={false}
        placeholder=""
        loadingMore={false}
      />
    </Box>
  );
}

/** Forty messages in the feed, each two lines of text ("m07 starts" / "m07 ends"), ten minutes apart; the first five read. */
function feedMessages(): Message[] {
  return Array.from({ length: 40 }, (_, i) => {
    const label = `m${String(i).padStart(2, "0")}`;
    return eg.streamMessage({
      stream: general,
      subject: i < 20 ? "first half" : "second half",
      content: `${label} starts\n\n${label} ends`,
      timestamp: 1_763_600_000 + i * 700,
      flags: i < 5 ? ["read"] : i === 12 ? ["mentioned"] : [],
    });
  });
}

function feedFake(messages: Message[], o: { settings?: Record<string, unknown>; ui?: Partial<UiState>; narrow?: Narrow } = {}) {
  const unread = messages.filter((m) => !m.flags.includes("read"));
  const narrow = o.narrow ?? FEED;
  return fakeSession({
    register: { subscriptions: [general], unread_msgs: eg.unreadMessages(unread), user_settings: { ...o.settings } },
    loaded: { narrow, messages },
    ui: { view: { kind: "narrow", narrow }, focus: "messages", ...o.ui },
  });
}

/** Labels of the messages whose both lines are on screen, top to bottom. */
function wholeOnScreen(frame: string, messages: Message[]): number[] {
  return messages.filter((m) => frame.includes(`${label(m)} starts`) && frame.includes(`${label(m)} ends`)).map((m) => m.id);
}
const label = (m: Message) => m.content.slice(0, 3);

/** Renders until nothing more is marked for a good number of rounds (each mark comes back as an event). */
async function settle(screen: Awaited<ReturnType<typeof renderOnFake>>, marked: number[]) {
  let seen = -1;
  let quiet = 0;
  await screen.until(() => {
    quiet = marked.length === seen ? quiet + 1 : 0;
    seen = marked.length;
    return quiet >= 20;
  }, "the marks to stop");
}

beforeEach(() => eg.resetIds());
afterEach(() => expect(eg.checkStores()).toEqual([]));

describe("read marking on the fake session", () => {
  it("opening the combined feed marks only what is on screen whole; the view stays where it opened", async () => {
    const messages = feedMessages();
    const fake = feedFake(messages);
    const server = markingServer(fake);
    const screen = await renderOnFake(fake, <ReadingPane commands={server.commands} />);
    await screen.until(() => server.marked.length > 0, "a first mark");
    await settle(screen, server.marked);

    const frame = screen.frame();
    const whole = wholeOnScreen(frame, messages);
    // It opened at the first unread message (m05), the read ones above it for context.
    expect(frame).toContain("m05 starts");
    expect(fake.ctx.latest().selection[narrowKey(FEED)]).toEqual({ id: messages[5]!.id, follow: false });
    // Only what is wholly on screen, each once; nothing above the first unread was unread, nothing below is marked.
    expect(server.marked.length).toBe(new Set(server.marked).size);
    for (const id of server.marked) expect(whole).toContain(id);
    expect(server.marked.length).toBeGreaterThanOrEqual(whole.filter((id) => messages.findIndex((m) => m.id === id) >= 5).length - 1);
    const last = Math.max(...server.marked.map((id) => messages.findIndex((m) => m.id === id)));
    expect(last).toBeLessThan(12);
    // The mention and everything after stay unread, on the "server" too.
    for (const m of messages.slice(last + 1)) expect(fake.store.unreads.has(m.id)).toBe(true);
  });

  it("opened at a message further down, what is above the screen stays unread too", async () => {
    const messages = feedMessages();
    const at = messages[25]!.id;
    const fake = feedFake(messages, { ui: { selection: { [narrowKey(FEED)]: { id: at, follow: false } } } });
    const server = markingServer(fake);
    const screen = await renderOnFake(fake, <ReadingPane commands={server.commands} />);
    await screen.until(() => server.marked.length > 0, "a first mark");
    await settle(screen, server.marked);
    const whole = wholeOnScreen(screen.frame(), messages);
    expect(whole).toContain(at);
    for (const id of server.marked) expect(whole).toContain(id);
    for (const m of messages) if (!whole.includes(m.id) && !m.flags.includes("read")) expect(fake.store.unreads.has(m.id), label(m)).toBe(true);
    expect(fake.store.unreads.has(messages[12]!.id)).toBe(true); // the mention far above
  });

  it("with the setting at conversation views, the feed marks nothing, until the setting changes to always", async () => {
    const messages = feedMessages();
    const fake = feedFake(messages, { settings: { web_mark_read_on_scroll_policy: 2 } });
    const server = markingServer(fake);
    const screen = await renderOnFake(fake, <ReadingPane commands={server.commands} />);
    await screen.until(() => screen.frame().includes("m05 starts"), "the feed at its first unread");
    await settle(screen, server.marked);
    expect(server.marked).toEqual([]);
    eg.apply(fake.store, { type: "user_settings", op: "update", property: "web_mark_read_on_scroll_policy", value: 1 });
    await screen.until(() => server.marked.length > 0, "marks once the setting allows them");
    await settle(screen, server.marked);
    for (const id of server.marked) expect(wholeOnScreen(screen.frame(), messages)).toContain(id);
  });

  it("in a topic, conversation views mark what is shown; never marks nothing", async () => {
    const topic: Narrow = { kind: "topic", channelId: 10, topic: "first half" };
    for (const [setting, marks] of [
      [2, true],
      [3, false],
    ] as const) {
      eg.resetIds();
      const messages = feedMessages().slice(0, 20);
      const fake = feedFake(messages, { settings: { web_mark_read_on_scroll_policy: setting }, narrow: topic });
      const server = markingServer(fake);
      const screen = await renderOnFake(fake, <ReadingPane commands={server.commands} />);
      await screen.until(() => screen.frame().includes("m05 starts"), "the topic at its first unread");
      await settle(screen, server.marked);
      expect(server.marked.length > 0, `setting ${setting}`).toBe(marks);
      await screen.unmount();
    }
  });
});

