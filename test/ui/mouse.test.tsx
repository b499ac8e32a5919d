/**
 * The mouse on a fake session's screen: the sidebar beside the message pane, as the App lays
 * them out, with the screen's mouse hook on. Mouse reports are written to the terminal input
 * as a terminal sends them (SGR), read by the patched Ink's input parser, and land on what the
 * frame shows at that cell: a click on a sidebar row opens it, a click on a message selects it,
 * the wheel moves through messages, a click on a link opens it (copied, as over SSH). Reports
 * never reach the keys; with the mouse off nothing is asked of the terminal and clicks do nothing.
 */
import { Box } from "ink";
import { useState } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Narrow } from "../../src/model/narrow.js";
import { loadMarkdown } from "../../src/render/markdown.js";
import { MessagePane } from "../../src/ui/components/MessagePane.js";
import { Sidebar } from "../../src/ui/components/Sidebar.js";
import { useScreenState } from "../../src/ui/contexts.js";
import { useKeypress } from "../../src/ui/hooks/use-keypress.js";
import { useMessageWindow } from "../../src/ui/hooks/use-message-window.js";
import { useStoreVersion } from "../../src/ui/hooks/use-store.js";
import { LayoutCache } from "../../src/ui/layout-cache.js";
import { withHitMap } from "../../src/ui/mouse/hit-map.js";
import { useMouse } from "../../src/ui/mouse/use-mouse.js";
import { buildSidebarRows, sidebarRowKey } from "../../src/ui/sidebar-rows.js";
import { MOUSE_OFF, MOUSE_ON, resetMouse } from "../../src/ui/terminal/mouse.js";
import { selectionOf, type UiState } from "../../src/ui/ui-state.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";

beforeAll(async () => {
  await loadMarkdown();
});

let unmount: (() => Promise<void>) | undefined;
const ssh = process.env.SSH_CONNECTION;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
  resetMouse();
  if (ssh === undefined) delete process.env.SSH_CONNECTION;
  else process.env.SSH_CONNECTION = ssh;
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const design = eg.subscription({ stream_id: 11, name: "design" });
const lunch: Narrow = { kind: "topic", channelId: 10, topic: "lunch" };
const URL = "https://example.com/menu/today";

function lunchTalk() {
  const question = eg.streamMessage({ stream: general, subject: "lunch", content: "Pizza or soup?" });
  const middle = eg.streamMessage({ stream: general, subject: "lunch", content: "Either works for me" });
  const link = eg.streamMessage({ stream: general, subject: "lunch", content: `The menu: ${URL} (today)` });
  const fake = fakeSession({ register: { subscriptions: [general, design] }, loaded: { narrow: lunch, messages: [question, middle, link] }, narrow: lunch, ui: { focus: "sidebar", view: { kind: "narrow", narrow: lunch } } });
  return { fake, question, middle, link };
}

/** The sidebar (24 columns) and, one column to its right, the message pane: the App's layout, and its mouse. */
function MouseScreen({ fake, on, writes, keys }: { fake: FakeSession; on: boolean; writes: string[]; keys: string[] }) {
  const { store, ui, narrow, account } = useScreenState();
  const version = useStoreVersion(store);
  const [cache] = useState(() => new LayoutCache());
  const w = useMessageWindow({ store, version, narrow, ui, paneHeight: 10, width: 50, color: false, markdownReady: true, account: account.key, cache });
  const uiRef = { get current(): UiState { return fake.ctx.latest(); } };
  const hits = useMouse({ on, uiRef, dispatch: (a) => fake.ctx.dispatch(a), contextFor: (u) => contextAt(fake, u), popupOpen: false, write: (s) => void writes.push(s) });
  useKeypress((name) => {
    keys.push(name);
    fake.recorded.push({ name: `key ${name}`, args: [] });
    return true;
  });
  const rows = buildSidebarRows(store, ui.sidebar);
  return withHitMap(
    hits,
    <Box flexDirection="row">
      <Sidebar rows={rows} cursor={ui.sidebar.cursor} width={24} height={12} focused={ui.focus === "sidebar"} rowKey={sidebarRowKey} filter={ui.sidebar.filter} />
      <Box marginLeft={1} flexDirection="column">
        <MessagePane blocks={w.blocks} skip={w.skip} selectedId={w.selected?.id} unread={new Set()} height={10} width={50} focused={ui.focus === "messages"} />
      </Box>
    </Box>,
  );
}

/** The fake's context at a UI state: its selection as that state has it (the App works it out the same way). */
function contextAt(fake: FakeSession, ui: UiState) {
  const id = selectionOf(ui, lunch).id;
  const index = fake.ctx.messages.findIndex((m) => m.id === id);
  return { ...fake.ctx, ui, selectedIndex: index === -1 ? fake.ctx.messages.length - 1 : index };
}

/** The selected message's id. */
const selectedId = (fake: FakeSession) => selectionOf(fake.ctx.latest(), lunch).id;

/** The cell (from 1, as reports count) of the first place `text` shows. */
function cellOf(frame: string, text: string): { x: number; y: number } {
  const lines = frame.split("\n");
  const y = lines.findIndex((l) => l.includes(text));
  if (y === -1) throw new Error(`${text} is not on the screen:\n${frame}`);
  return { x: [...lines[y]!.slice(0, lines[y]!.indexOf(text))].length + 1, y: y + 1 };
}

const press = (button: number, c: { x: number; y: number }) => `\x1b[<${button};${c.x};${c.y}M`;
const click = (c: { x: number; y: number }) => press(0, c) + `\x1b[<0;${c.x};${c.y}m`;

async function mount(on: boolean) {
  const talk = lunchTalk();
  const writes: string[] = [];
  const keys: string[] = [];
  const screen = await renderOnFake(talk.fake, <MouseScreen fake={talk.fake} on={on} writes={writes} keys={keys} />);
  unmount = screen.unmount;
  await screen.until(() => screen.frame().includes("The menu"), "the messages");
  return { ...talk, screen, writes, keys };
}

/** The line of the frame the selection's mark is on, beside the sidebar. */
const selectedLines = (frame: string) => frame.split("\n").filter((l) => l.slice(25).startsWith("▌") || l.slice(25).startsWith("›"));

describe("the mouse on the screen", () => {
  it("asks the terminal for mouse reports while on; a click on a message selects it and gives the pane the keys", async () => {
    const { fake, screen, writes, keys, question } = await mount(true);
    expect(writes).toEqual([MOUSE_ON]);
    await screen.press(click(cellOf(screen.frame(), "Pizza or soup?")));
    await screen.until(() => fake.ctx.latest().focus === "messages", "the pane focused");
    expect(selectedId(fake)).toBe(question.id);
    await screen.until(() => selectedLines(screen.frame()).some((l) => l.includes("Pizza or soup?")), "the mark on the clicked message");
    // No mouse report became a key.
    expect(keys).toEqual([]);
  });

  it("takes its turn among the keys: a key typed just before a click acts before it, one after it after", async () => {
    const { fake, screen, keys, question } = await mount(true);
    await screen.press(`j${click(cellOf(screen.frame(), "Pizza or soup?"))}k`);
    await screen.until(() => keys.length === 2, "both keys");
    const order = fake.names().filter((n) => n.startsWith("key") || n === "dispatch");
    expect(order[0]).toBe("key j");
    expect(order.at(-1)).toBe("key k");
    expect(order.slice(1, -1)).toContain("dispatch");
    expect(selectedId(fake)).toBe(question.id);
  });

  it("the wheel over the pane moves one message per step; over the sidebar it moves the cursor", async () => {
    const { fake, screen, keys, middle, question } = await mount(true);
    const pane = cellOf(screen.frame(), "The menu");
    await screen.press(press(64, pane));
    await screen.until(() => selectedId(fake) === middle.id, "one message up");
    await screen.press(press(64, pane));
    await screen.until(() => selectedId(fake) === question.id, "two messages up");
    await screen.press(press(65, pane));
    await screen.until(() => selectedId(fake) === middle.id, "one down again");
    const cursor = fake.ctx.latest().sidebar.cursor;
    await screen.press(press(65, cellOf(screen.frame(), "Inbox")));
    await screen.until(() => fake.ctx.latest().sidebar.cursor > cursor, "the sidebar's cursor moved");
    expect(keys).toEqual([]);
  });

  it("a click on a sidebar row opens what it shows", async () => {
    const { fake, screen } = await mount(true);
    await screen.press(click(cellOf(screen.frame(), "design")));
    await screen.until(() => fake.names().includes("openNarrow"), "the channel opened");
    expect(fake.recorded.find((r) => r.name === "openNarrow")?.args[0]).toEqual({ kind: "channel", channelId: 11 });
    const row = buildSidebarRows(fake.store, fake.ctx.latest().sidebar)[fake.ctx.latest().sidebar.cursor];
    expect(row).toMatchObject({ kind: "channel", channelId: 11 });
  });

  it("a click on a link opens it (here copied, as over SSH), and selects its message", async () => {
    process.env.SSH_CONNECTION = "10.0.0.1 1 10.0.0.2 22";
    const { fake, screen, link } = await mount(true);
    await screen.press(click(cellOf(screen.frame(), "example.com/menu")));
    await screen.until(() => fake.names().includes("writeTerminal"), "the link copied");
    const seq = fake.recorded.find((r) => r.name === "writeTerminal")!.args[0] as string;
    expect(Buffer.from(seq.split(";").at(-1)!.replace(/\x07|\x1b\\$/, ""), "base64").toString()).toBe(URL);
    expect(selectedId(fake)).toBe(link.id);
    // A click on the message's other words opens nothing more.
    await screen.press(click(cellOf(screen.frame(), "menu:")));
    await screen.press(click(cellOf(screen.frame(), "Pizza")));
    await screen.until(() => selectedId(fake) !== link.id, "the other message");
    expect(fake.names().filter((n) => n === "writeTerminal")).toHaveLength(1);
  });

  it("off: nothing is asked of the terminal, clicks do nothing, and reports still never become keys", async () => {
    const { fake, screen, writes, keys } = await mount(false);
    await screen.press(click(cellOf(screen.frame(), "Pizza or soup?")), "j");
    await screen.until(() => keys.length > 0, "the key after the click");
    expect(keys).toEqual(["j"]);
    expect(writes).toEqual([]);
    expect(fake.names()).not.toContain("dispatch");
  });

  it("turned off, tells the terminal to stop", async () => {
    const { screen, writes } = await mount(true);
    await screen.unmount();
    unmount = undefined;
    expect(writes).toEqual([MOUSE_ON, MOUSE_OFF]);
  });
});
