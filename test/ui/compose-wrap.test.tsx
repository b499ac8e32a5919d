/**
 * The compose box's soft wrap on a fake session, at the widths the App gives
 * it in 120×36, 80×24 and 50×15 terminals: a long paragraph is shown from its
 * beginning over several lines, ↑/↓ move by those lines keeping the column,
 * the box grows to its limit and then scrolls with the cursor, and what is
 * sent is exactly what was typed. Keys go through the compose hook's own
 * key handler, as in the App.
 */
import { afterEach, describe, expect, it } from "vitest";
import { displayWidth } from "../../src/render/wrap.js";
import { Compose } from "../../src/ui/components/Compose.js";
import { composeTextWidth, layoutText } from "../../src/ui/compose-wrap.js";
import { useFeatureContext } from "../../src/ui/contexts.js";
import { MAX_COMPOSE_LINES, useCompose } from "../../src/ui/hooks/use-compose.js";
import { useKeypress } from "../../src/ui/hooks/use-keypress.js";
import { sidebarWidth } from "../../src/ui/sidebar-rows.js";
import type { ComposeState } from "../../src/ui/ui-state.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake, type FakeSession } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const target = { type: "stream" as const, channelId: 10, topic: "lunch" };
const compose: ComposeState = { target, label: "#general > lunch", key: "stream:10:lunch" };
const KEY = { up: "\u001b[A", down: "\u001b[B", enter: "\r" };

/** The width the App gives the message pane (and the compose box) in a terminal `columns` wide. */
function boxWidth(columns: number): number {
  return Math.max(20, columns - sidebarWidth(columns) - 1);
}

/** The compose box wired as the App wires it: the hook's state and its key handler. */
function ComposeOnFake({ width }: { width: number }) {
  const ctx = useFeatureContext();
  const box = useCompose({ store: ctx.store, account: ctx.account, compose: ctx.ui.compose, dispatch: ctx.dispatch, textWidth: composeTextWidth(width), onSent: () => {} });
  useKeypress((name, input) => box.handleKey(name, input, { ...ctx, ui: ctx.latest() }) || true, { priority: 100 });
  if (!ctx.ui.compose) return null;
  return <Compose label={compose.label} editor={box.editor.current} width={width} maxLines={MAX_COMPOSE_LINES} sending={box.sending} />;
}

async function open(columns: number) {
  const fake = fakeSession({ register: { subscriptions: [general] }, ui: { focus: "compose", compose } });
  const width = boxWidth(columns);
  const screen = await renderOnFake(fake, <ComposeOnFake width={width} />);
  unmount = screen.unmount;
  await screen.until(() => screen.frame().includes("#general > lunch"), "the box");
  return { fake, screen, width };
}

/** The box's text rows: between its border's sides, without the label row. */
function textRows(frame: string): string[] {
  const rows = frame.split("\n").filter((l) => l.startsWith("│"));
  return rows.slice(1).map((l) => l.slice(1, l.lastIndexOf("│")).trimEnd());
}

/** The text the compose box last handed to the draft journal. */
function journaled(fake: FakeSession): string {
  const last = fake.recorded.filter((r) => r.name === "composeChanged").at(-1);
  return (last?.args[1] as string | undefined) ?? "";
}

const WORDS = "Whether the compose box wraps a long paragraph as a web chat would or scrolls it sideways and hides its beginning is the question";

describe.each([120, 80, 50])("compose box in a %i-column terminal", (columns) => {
  it("wraps a long paragraph at the box's width, showing it from its beginning", async () => {
    const { screen, width, fake } = await open(columns);
    await screen.press(WORDS);
    await screen.until(() => journaled(fake) === WORDS, "every key");
    const frame = screen.frame();
    const rows = textRows(frame);
    const expected = layoutText(WORDS, composeTextWidth(width)).map((l) => WORDS.slice(l.start, l.end).trimEnd());
    expect(rows.length).toBe(Math.min(MAX_COMPOSE_LINES, expected.length));
    expect(expected.length).toBeGreaterThan(1);
    // Every line is drawn whole, the last one with the cursor after it.
    expect(rows).toEqual(expected.slice(-rows.length));
    if (expected.length <= MAX_COMPOSE_LINES) expect(rows[0]).toMatch(/^Whether the/);
    for (const line of frame.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    expect(frame).not.toContain("…b chat");
  });

  it("moves by the lines it shows with ↑/↓, keeping the column, and sends exactly what was typed", async () => {
    const { screen, width, fake } = await open(columns);
    const text = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three";
    await screen.press(text);
    await screen.until(() => journaled(fake) === text, "every key");
    const lines = layoutText(text, composeTextWidth(width));
    expect(lines.length).toBeGreaterThan(1);
    // ↑ from the end of the last line goes to the line above it, at the same column (or that line's end).
    await screen.press(KEY.up, "X");
    await screen.until(() => journaled(fake).includes("X"), "the X");
    const above = lines[lines.length - 2]!;
    const column = displayWidth(text.slice(lines.at(-1)!.start));
    const aboveText = text.slice(above.start, above.end);
    const at = column < displayWidth(aboveText) ? above.start + column : above.end - 1; // before its trailing space
    expect(journaled(fake)).toBe(text.slice(0, at) + "X" + text.slice(at));
    // ↓ comes back to the last line; the text is sent as typed, with no line break added by the wrap.
    await screen.press(KEY.down, "Y", KEY.enter);
    await screen.until(() => fake.names().includes("send"), "the send");
    const sent = fake.recorded.find((r) => r.name === "send")!.args[1] as string;
    expect(sent).not.toContain("\n");
    expect(sent.replace("X", "").replace("Y", "")).toBe(text);
  });

  it("grows to its limit, then scrolls to keep the cursor in view, back to the first line with ↑", async () => {
    const { screen, width, fake } = await open(columns);
    const text = Array.from({ length: 30 }, (_, i) => `sentence number ${i + 1} of a long draft`).join(" ");
    await screen.press(text);
    await screen.until(() => journaled(fake) === text, "every key");
    const total = layoutText(text, composeTextWidth(width)).length;
    expect(total).toBeGreaterThan(MAX_COMPOSE_LINES);
    let rows = textRows(screen.frame());
    expect(rows.length).toBe(MAX_COMPOSE_LINES);
    expect(rows.at(-1)).toMatch(/draft$/);
    expect(screen.frame()).toContain(`${total - MAX_COMPOSE_LINES + 1}-${total}/${total}`);
    await screen.press(...Array.from({ length: total - 1 }, () => KEY.up));
    await screen.until(() => textRows(screen.frame())[0]?.startsWith("sentence number 1 ") === true, "the first line");
    rows = textRows(screen.frame());
    expect(rows.length).toBe(MAX_COMPOSE_LINES);
    expect(screen.frame()).toContain(`1-${MAX_COMPOSE_LINES}/${total}`);
  });
});
