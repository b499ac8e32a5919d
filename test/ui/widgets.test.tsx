/**
 * Polls and to-do lists on a fake session: the message pane draws the widget
 * instead of its /poll text (hostile text made harmless), `v` opens the
 * widget popup only on a widget, the popup's keys ask for the right action
 * (recorded, never sent), and the compose box explains /poll and /todo.
 */
import chalk from "chalk";
import { afterEach, describe, expect, it } from "vitest";
import { THEMES } from "../../src/config/settings.js";
import { BLACK, WHITE } from "../../src/ui/contrast.js";
import { resolveTheme, ThemeContext } from "../../src/ui/theme.js";
import type { Message, Submessage } from "../../src/api/schemas/common.js";
import { Compose } from "../../src/ui/components/Compose.js";
import { MessagePane } from "../../src/ui/components/MessagePane.js";
import { featureAction } from "../../src/ui/features/index.js";
import { layoutWindow, renderContext } from "../../src/ui/message-layout.js";
import { WidgetPopup } from "../../src/ui/popups/WidgetPopup.js";
import * as eg from "../fixtures/example.js";
import { fakeSession, renderOnFake } from "../fixtures/fake-session.js";

let unmount: (() => Promise<void>) | undefined;
afterEach(async () => {
  await unmount?.();
  unmount = undefined;
});

const general = eg.subscription({ stream_id: 10, name: "general" });
const narrow = { kind: "topic" as const, channelId: 10, topic: "lunch" };
const SELF = eg.selfUser.user_id;
const OTHER = eg.otherUser.user_id;
const THIRD = eg.thirdUser.user_id;

function widgetMessage(content: string, subs: Array<[number, unknown]>): Message {
  const m = eg.streamMessage({ stream: general, subject: "lunch", content, sender_id: OTHER });
  m.submessages = subs.map(([sender, c], i): Submessage => ({ id: i + 1, message_id: m.id, sender_id: sender, msg_type: "widget", content: JSON.stringify(c) }));
  return m;
}

const EVIL = "\x1b]0;owned\x07\x1b[2J";
const poll = () =>
  widgetMessage("/poll Lunch?\nPizza\nTacos", [
    [OTHER, { widget_type: "poll", extra_data: { question: "Lunch?", options: ["Pizza", "Tacos"] } }],
    [SELF, { type: "vote", key: "canned,0", vote: 1 }],
    [THIRD, { type: "vote", key: "canned,0", vote: 1 }],
    [THIRD, { type: "new_option", idx: 1, option: `Sushi${EVIL}` }],
  ]);
const todo = () =>
  widgetMessage("/todo Launch\n- Write notes: for users\n- Tag it", [
    [OTHER, { widget_type: "todo", extra_data: { task_list_title: "Launch", tasks: [{ task: "Write notes", desc: "for users" }, { task: "Tag it", desc: "" }] } }],
    [THIRD, { type: "strike", key: "1,canned" }],
  ]);

function setup(messages: Message[]) {
  return fakeSession({ register: { subscriptions: [general] }, loaded: { narrow, messages }, narrow });
}

describe("widgets in the message pane", () => {
  it("shows the poll with counts, my vote checked and voters named, and no raw /poll text or escape sequence", async () => {
    const fake = setup([poll()]);
    const { blocks } = layoutWindow(fake.store, fake.ctx.messages, 0, 10, { width: 70, showRecipients: true, color: false }, renderContext(fake.store, false));
    const screen = await renderOnFake(fake, <MessagePane blocks={blocks} selectedId={fake.ctx.selected?.id} unread={new Set()} height={10} width={70} focused />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("Poll: Lunch?"), "the poll");
    const f = screen.frame();
    expect(f).toContain("Poll: Lunch?  (2 voters)");
    expect(f).toContain("[x] 2  Pizza  (you, Third Person)");
    expect(f).toContain("[ ] 0  Tacos");
    expect(f).toContain("[ ] 0  Sushi");
    expect(f).not.toContain("/poll");
    expect(f).not.toMatch(/\x1b\]|\x07|\x1b\[2J/);
  });

  it("shows the to-do list as a checklist with descriptions", async () => {
    const fake = setup([todo()]);
    const { blocks } = layoutWindow(fake.store, fake.ctx.messages, 0, 10, { width: 70, showRecipients: true, color: false }, renderContext(fake.store, false));
    const screen = await renderOnFake(fake, <MessagePane blocks={blocks} selectedId={undefined} unread={new Set()} height={10} width={70} focused={false} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("To-do: Launch"), "the list");
    expect(screen.frame()).toContain("To-do: Launch  (1/2 done)");
    expect(screen.frame()).toContain("[ ] Write notes: for users");
    expect(screen.frame()).toContain("[x] Tag it");
  });
});

/** What the popup said it did, in order (the recording client also records the requests it made). */
function attempts(fake: { recorded: { name: string; args: unknown[] }[] }) {
  return fake.recorded.filter((r) => r.name === "attempt");
}

describe("the widget key and popup", () => {
  it("v opens the popup on a poll, and says so on a plain message", () => {
    const fake = setup([poll()]);
    featureAction("msgView")!(fake.ctx);
    expect(fake.names()).toEqual(["openPopup"]);
    const plain = setup([eg.streamMessage({ stream: general, subject: "lunch", content: "/pollen is high today" })]);
    featureAction("msgView")!(plain.ctx);
    expect(plain.recorded).toEqual([{ name: "notify", args: ["Nothing to view in this message: no poll, to-do list or image"] }]);
  });

  it("lists options with voters and who added them; Space votes, Enter on my vote takes it back, a adds an option", async () => {
    const fake = setup([poll()]);
    let closed = 0;
    const id = fake.ctx.selected!.id;
    const screen = await renderOnFake(fake, <WidgetPopup messageId={id} close={() => closed++} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("Poll: Lunch?"), "the popup");
    const f = screen.frame();
    expect(f).toContain("Poll: Lunch?  (2 voters)"); // said as in the message, not "2 voting"
    expect(f).toContain("▌ [x] 2 Pizza"); // the cursor's mark, as in every list
    expect(f).toContain("you, Third Person");
    expect(f).toContain("added by Third Person");
    expect(f).not.toMatch(/\x1b\]|\x07/);

    await screen.press("j", " ");
    await screen.until(() => fake.names().includes("attempt"), "a vote");
    expect(attempts(fake).at(-1)).toEqual({ name: "attempt", args: ["Voted for Tacos"] });
    await screen.press("k", "\r");
    await screen.until(() => attempts(fake).length === 2, "the vote taken back");
    expect(attempts(fake).at(-1)).toEqual({ name: "attempt", args: ["Took back your vote for Pizza"] });

    await screen.press("a");
    await screen.until(() => screen.frame().includes("New option:"), "the new option line");
    await screen.press(..."Curry", "\r");
    await screen.until(() => attempts(fake).length === 3, "the option added");
    expect(attempts(fake).at(-1)).toEqual({ name: "attempt", args: ["Added the option Curry"] });
    expect(screen.frame()).not.toContain("New option:");
    expect(fake.requests().filter((r) => r[0] === "POST" && r[1] === "submessage")).toHaveLength(3);
    expect(closed).toBe(0);
    await screen.press("\x1b");
    await screen.until(() => closed === 1, "closed");
  });

  it("draws the cursor's row on my vote in the terminal's own colours, inverse, in every theme (not white on cyan)", async () => {
    const level = chalk.level;
    chalk.level = 3;
    try {
      for (const name of THEMES) {
        for (const bg of [BLACK, WHITE]) {
          const fake = setup([poll()]);
          const theme = resolveTheme(name, bg, 3);
          const screen = await renderOnFake(
            fake,
            <ThemeContext.Provider value={theme}>
              <WidgetPopup messageId={fake.ctx.selected!.id} close={() => {}} />
            </ThemeContext.Provider>,
          );
          await screen.until(() => screen.frame().includes("Pizza"), "the popup");
          const row = screen.frame().split("\n").find((l) => l.includes("Pizza"))!;
          // Inverse and bold, and no colour of its own from the inverse on to the text: the
          // terminal's foreground and background swapped, readable whatever they are.
          const upToText = row.slice(row.indexOf("\x1b[7m"), row.indexOf("Pizza"));
          expect(upToText, `${name} theme`).not.toMatch(/\x1b\[(3[0-79]|9[0-7]|38;)/);
          expect(row).toContain("\x1b[7m");
          // The other option, my vote not on it, is not inverse.
          expect(screen.frame().split("\n").find((l) => l.includes("Tacos"))).not.toContain("\x1b[7m");
          await screen.unmount();
        }
      }
    } finally {
      chalk.level = level;
    }
  });

  it("checks a task off or back on and adds a task with its description", async () => {
    const fake = setup([todo()]);
    const screen = await renderOnFake(fake, <WidgetPopup messageId={fake.ctx.selected!.id} close={() => undefined} />);
    unmount = screen.unmount;
    await screen.until(() => screen.frame().includes("To-do: Launch"), "the popup");
    expect(screen.frame()).toContain("done by Third Person");
    await screen.press("\r");
    await screen.until(() => attempts(fake).length === 1, "checked off");
    expect(attempts(fake).at(-1)).toEqual({ name: "attempt", args: ["Checked off Write notes: for users"] });
    await screen.press("j", " ");
    await screen.until(() => attempts(fake).length === 2, "unchecked");
    expect(attempts(fake).at(-1)).toEqual({ name: "attempt", args: ["Unchecked Tag it"] });
    await screen.press("a", ..."Ship: on Monday", "\r");
    await screen.until(() => attempts(fake).length === 3, "task added");
    expect(attempts(fake).at(-1)).toEqual({ name: "attempt", args: ["Added the task Ship: on Monday"] });
  });
});

describe("composing a poll or a to-do list", () => {
  it("explains the format while the message starts with /poll or /todo, and not otherwise", async () => {
    const fake = setup([]);
    const at = (text: string) => <Compose label="general > lunch" editor={{ text, cursor: text.length }} width={100} maxLines={5} sending={false} />;
    const poll = await renderOnFake(fake, at("/poll Lunch?\nPizza"));
    await poll.until(() => poll.frame().includes("Pizza"), "the compose box");
    expect(poll.frame()).toContain("Poll: the question on this line, then one option per line (Ctrl-J new line)");
    await poll.unmount();
    const list = await renderOnFake(fake, at("/todo Launch"));
    await list.until(() => list.frame().includes("Launch"), "the compose box");
    expect(list.frame()).toContain('To-do list: the title on this line, then one task per line as "task: description"');
    await list.unmount();
    const plain = await renderOnFake(fake, at("/pollen today"));
    unmount = plain.unmount;
    await plain.until(() => plain.frame().includes("pollen"), "the compose box");
    expect(plain.frame()).not.toContain("one option per line");
  });
});
