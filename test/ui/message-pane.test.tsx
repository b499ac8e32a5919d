/**
 * The message pane and the actions on a message. The pane on its own
 * (windowing, unread marker, OSC 8 links keeping Ink's width measuring
 * right, resizing), then the real App against the reference server for each
 * key: * star, i info, u user card, y/Y copy, o spoilers.
 */
import { act } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Box, Text } from "ink";
import { render } from "ink-testing-library";
import { getMessage, sendMessage, updateMessage } from "../../src/api/routes/messages.js";
import { loadMarkdown } from "../../src/render/markdown.js";
import { displayWidth } from "../../src/render/wrap.js";
import { MessagePane, plainRowText } from "../../src/ui/components/MessagePane.js";
import { cellsKnown, prepareCells } from "../../src/ui/ink-frame/output.js";
import { layoutWindow, renderContext, type LayoutOptions } from "../../src/ui/message-layout.js";
import { ThemeContext, resolveTheme } from "../../src/ui/theme.js";
import * as eg from "../fixtures/example.js";
import { eventually } from "../fixtures/server.js";
import { KEY, renderApp, type AppHarness } from "./render-app.js";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-9;]*m|\x1b\]8;;[^\x07]*\x07/g;
const visible = (s: string) => s.replace(ESCAPES, "");

beforeAll(async () => {
  await loadMarkdown();
});

function Pane({ width, height, unread = [], selected, hyperlinks }: { width: number; height: number; unread?: number[]; selected: number; hyperlinks: boolean }) {
  const store = paneStore;
  const o: LayoutOptions = { width, showRecipients: true, color: true, timeZone: "UTC", now: 1_763_600_000 };
  const index = paneMessages.findIndex((m) => m.id === selected);
  const { blocks } = layoutWindow(store, paneMessages, index, height, o, renderContext(store, true, "UTC", hyperlinks));
  // A sidebar on the left and a column of bars on the right: both must stay where they are.
  return (
    <ThemeContext.Provider value={resolveTheme("dark", undefined, 3)}>
      <Box flexDirection="row">
        <Box width={6} flexShrink={0}>
          <Text>side</Text>
        </Box>
        <MessagePane blocks={blocks} selectedId={selected} unread={new Set(unread)} height={height} width={width} focused />
        <Box flexDirection="column" width={1} flexShrink={0}>
          {Array.from({ length: height }, (_, i) => (
            <Text key={i}>|</Text>
          ))}
        </Box>
      </Box>
    </ThemeContext.Provider>
  );
}

eg.resetIds();
const paneStore = eg.store();
const paneMessages = [
  eg.streamMessage({ content: "see [the docs](https://example.com/docs) and https://example.com/a_very_long_path_that_goes_on" }),
  eg.streamMessage({ content: "second", timestamp: 1_763_600_030 }),
  ...Array.from({ length: 15 }, (_, i) => eg.streamMessage({ content: `filler ${i}`, sender_id: 3, sender_full_name: "Third Person", timestamp: 1_763_600_100 + i * 1000 })),
  eg.streamMessage({ content: `${"漢字".repeat(30)} ${"x".repeat(90)} 👍🏽👍🏽👍🏽`, timestamp: 1_763_615_060 }),
  ...Array.from({ length: 15 }, (_, i) => eg.streamMessage({ content: `filler ${i + 15}`, sender_id: 3, sender_full_name: "Third Person", timestamp: 1_763_615_100 + i * 1000 })),
];

describe("the message pane", () => {
  it("shows links as OSC 8 hyperlinks without upsetting Ink's layout", async () => {
    const first = paneMessages[0]!.id;
    const { lastFrame, unmount } = render(<Pane width={40} height={8} selected={first} hyperlinks />);
    const frame = lastFrame() ?? "";
    expect(frame).toContain("\x1b]8;;https://example.com/docs\x07");
    const lines = frame.split("\n").map(visible);
    expect(lines.join("\n")).toContain("see the docs and");
    expect(lines.join("\n")).not.toContain("(https://example.com/docs)");
    expect(lines[0]!.startsWith("side")).toBe(true);
    for (const l of lines) {
      expect(l.indexOf("|")).toBe(6 + 40); // the right-hand column did not move
      expect(displayWidth(l)).toBe(47);
    }
    unmount();

    const plain = render(<Pane width={40} height={8} selected={first} hyperlinks={false} />);
    expect(plain.lastFrame()).not.toContain("\x1b]8;;");
    expect(visible(plain.lastFrame() ?? "")).toContain("(https://example.com/docs)");
    plain.unmount();
  });

  it("keeps every row inside the pane when a message is wider than it (wide characters, a long unbroken word)", async () => {
    const wide = paneMessages.find((m) => m.content.startsWith("漢"))!.id;
    for (const width of [40, 41]) {
      const inst = render(<Pane width={width} height={8} selected={wide} hyperlinks={false} />);
      const lines = visible(inst.lastFrame() ?? "").split("\n");
      expect(lines.join("\n")).toContain("漢字");
      for (const l of lines) {
        expect(l.slice(0, 6)).toMatch(/^(side  |      )$/);
        expect(displayWidth(l.slice(0, l.lastIndexOf("|")))).toBe(6 + width); // the right-hand column did not move
        expect(displayWidth(l)).toBe(6 + width + 1);
      }
      inst.unmount();
    }
  });

  it("marks unread messages, keeps the selection visible and follows a resize", async () => {
    const last = paneMessages.at(-1)!.id;
    const unreadId = paneMessages.at(-2)!.id;
    const inst = render(<Pane width={48} height={10} selected={last} unread={[unreadId]} hyperlinks={false} />);
    let lines = visible(inst.lastFrame() ?? "").split("\n");
    expect(lines).toHaveLength(10);
    const at = (text: string) => lines.findIndex((l) => l.includes(text));
    expect(lines[at("filler 28") - 1]!.slice(6)).toMatch(/^●Third Person/); // on the message's first line
    expect(lines[at("filler 28")]!.slice(6)).toMatch(/^ /);
    expect(lines[at("filler 29")]!.slice(6)).toMatch(/^▌/);
    expect(lines.join("\n")).not.toContain("filler 0"); // windowed
    await act(async () => inst.rerender(<Pane width={24} height={10} selected={last} hyperlinks={false} />));
    lines = visible(inst.lastFrame() ?? "").split("\n");
    for (const l of lines) expect(l.indexOf("|")).toBe(6 + 24);
    expect(lines.join("\n")).toContain("filler 29");
    inst.unmount();
  });

  it("paints a body line as the text whose cells are prepared ahead (plainRowText), so a page turn finds them parsed", async () => {
    const last = paneMessages.at(-1)!.id;
    const o: LayoutOptions = { width: 37, showRecipients: true, color: true, timeZone: "UTC", now: 1_763_600_000 };
    const { blocks } = layoutWindow(paneStore, paneMessages, paneMessages.length - 1, 10, o, renderContext(paneStore, true, "UTC", false));
    const body = blocks.flatMap((b) => b.lines).filter((l) => plainRowText(l) !== undefined);
    expect(body.length).toBeGreaterThan(2);
    const inst = render(<Pane width={37} height={10} selected={last} hyperlinks={false} />);
    const shown = visible(inst.lastFrame() ?? "");
    // Every body row the frame drew was parsed under exactly the text plainRowText gives.
    const drawn = body.filter((l) => shown.includes(l.text.trim().slice(0, 12)));
    expect(drawn.length).toBeGreaterThan(2);
    for (const line of drawn) expect(cellsKnown(plainRowText(line)!)).toBe(true);
    inst.unmount();
    // And preparing a line parses it under that text.
    const other = { text: "a line never painted, prepared at idle", style: "body" as const };
    expect(cellsKnown(plainRowText(other)!)).toBe(false);
    prepareCells(plainRowText(other)!);
    expect(cellsKnown(plainRowText(other)!)).toBe(true);
    // Styled lines are drawn by Ink with their styles: nothing to prepare.
    expect(plainRowText({ text: "Third Person  10:00", style: "sender" })).toBeUndefined();
  });
});

/** Opens the combined feed at its newest message; another user posts: that message is selected. */
async function postAndSelect(h: AppHarness, content: string, shown = content): Promise<number> {
  await h.waitFor("connected");
  await h.sidebarTo("Combined feed");
  await h.press(KEY.enter, "G");
  const general = [...h.machine.store!.channels.values()].find((c) => c.name === "general")!;
  const sent = await sendMessage(h.ctx.client(h.ctx.account("member")), { type: "stream", to: general.stream_id, topic: "reactions", content });
  await h.waitFor(shown);
  return sent.id;
}

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("actions on the selected message", () => {
  it("* stars and unstars the message (★ on screen, the flag on the server)", async () => {
    app = await renderApp();
    const id = await postAndSelect(app, "worth keeping");
    const flags = async () => (await getMessage(app!.ctx.client(), id)).message.flags;
    await app.press("*");
    await app.waitFor(/Omar Haddad {2}\S+ ★/);
    expect(await flags()).toContain("starred");
    await app.press("*");
    await app.waitFor("Unstarred the message");
    await eventually(async () => !(await flags()).includes("starred") || undefined);
    expect(app.frame()).not.toMatch(/Omar Haddad {2}\S+ ★/);
  });

  it("i shows sender, raw Markdown source and the edit history", async () => {
    app = await renderApp();
    const member = app.ctx.client(app.ctx.account("member"));
    const id = await postAndSelect(app, "first **draft**", "first draft");
    await updateMessage(member, id, { content: "second **draft**", topic: "renamed", send_notification_to_old_thread: false, send_notification_to_new_thread: false });
    await app.waitFor("second draft");
    await app.press("i");
    await app.waitFor("Message info");
    const f = await app.waitFor("Edit history");
    expect(f).toMatch(/From: Omar Haddad <omar@/);
    await app.waitFor("second **draft**"); // the raw source, as written
    // The edit as a word diff (the word that went, the word that came), and the move of its topic.
    const history = await app.waitFor("[-first-]{+second+} **draft**");
    expect(history.replace(/\s*│\s*/g, " ")).toMatch(/moved from #\S+ › reactions to #\S+ › renamed/);
    await app.press(KEY.escape);
    await app.waitFor("second draft");
    expect(app.frame()).not.toContain("Message info");
  });

  it("u shows the sender's card: role, local time, presence", async () => {
    app = await renderApp();
    await postAndSelect(app, "who wrote this?");
    await app.press("u");
    const f = await app.waitFor("Local time");
    expect(f).toContain("Omar Haddad");
    expect(f).toMatch(/Role\s+Member/);
    expect(f).toMatch(/Presence\s+[●◐○] (active|idle|offline)/);
    expect(f).toMatch(/Email\s+omar@lighthouse\.test/);
    await app.press(KEY.escape);
    await app.waitFor("who wrote this?");
  });

  it("Y copies a link to the message (OSC 52)", async () => {
    app = await renderApp();
    await postAndSelect(app, "copy **me**", "copy me");
    await app.press("Y");
    await app.waitFor(`Copied link: ${app.ctx.server.url.replace(/\/$/, "")}/#narrow/channel/`); // the rest: see the e2e test
  });
});
