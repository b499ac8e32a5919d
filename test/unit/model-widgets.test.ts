/**
 * Polls and to-do lists folded from submessages: the widget formats of the
 * service's web app, the store following `submessage` events, hostile or
 * malformed submessages skipped, and the lines the message pane draws.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Submessage } from "../../src/api/schemas/common.js";
import { messageSchema } from "../../src/api/schemas/common.js";
import { parseEvent } from "../../src/api/schemas/events.js";
import {
  foldWidget,
  newOptionContent,
  newTaskContent,
  strikeContent,
  voteContent,
  widgetOf,
  type PollWidget,
  type TodoWidget,
} from "../../src/model/widgets.js";
import { LayoutCache } from "../../src/ui/layout-cache.js";
import { layoutMessage, renderContext } from "../../src/ui/message-layout.js";
import { widgetLines } from "../../src/ui/widget-lines.js";
import * as eg from "../fixtures/example.js";

const OWNER = 2;
const SELF = 1;
const THIRD = 3;
let nextSub = 1;

function sub(sender: number, content: unknown, msgType = "widget"): Submessage {
  return { id: nextSub++, message_id: 500, sender_id: sender, msg_type: msgType, content: typeof content === "string" ? content : JSON.stringify(content) };
}

const pollStart = (question = "Lunch?", options: unknown[] = ["Pizza", "Tacos"]) =>
  sub(OWNER, { widget_type: "poll", extra_data: { question, options } });
const todoStart = (title = "Launch", tasks: unknown[] = [{ task: "Write notes", desc: "for users" }, { task: "Tag it", desc: "" }]) =>
  sub(OWNER, { widget_type: "todo", extra_data: { task_list_title: title, tasks } });

function poll(subs: Submessage[]): PollWidget {
  const w = foldWidget(500, OWNER, subs);
  if (w?.kind !== "poll") throw new Error("not a poll");
  return w;
}
function todo(subs: Submessage[]): TodoWidget {
  const w = foldWidget(500, OWNER, subs);
  if (w?.kind !== "todo") throw new Error("not a to-do list");
  return w;
}

beforeEach(() => {
  nextSub = 1;
  eg.resetIds();
});

describe("polls", () => {
  it("counts votes, takes votes back, adds options with who added them, and follows the owner's question edits", () => {
    const p = poll([
      pollStart(),
      sub(SELF, { type: "vote", key: "canned,0", vote: 1 }),
      sub(THIRD, { type: "vote", key: "canned,0", vote: 1 }),
      sub(THIRD, { type: "new_option", idx: 1, option: "Sushi" }),
      sub(SELF, { type: "vote", key: `${THIRD},1`, vote: 1 }),
      sub(THIRD, { type: "vote", key: "canned,0", vote: -1 }),
      sub(OWNER, { type: "question", question: "Lunch on Friday?" }),
    ]);
    expect(p.question).toBe("Lunch on Friday?");
    expect(p.questionEdited).toBe(true);
    expect(p.options.map((o) => [o.key, o.text, o.voters, o.addedBy])).toEqual([
      ["canned,0", "Pizza", [SELF], undefined],
      ["canned,1", "Tacos", [], undefined],
      [`${THIRD},1`, "Sushi", [SELF], THIRD],
    ]);
  });

  it("ignores a question change from anyone but the owner, votes for missing options, repeated votes and duplicate option keys", () => {
    const p = poll([
      pollStart(),
      sub(THIRD, { type: "question", question: "Hijacked" }),
      sub(SELF, { type: "vote", key: "canned,7", vote: 1 }),
      sub(SELF, { type: "vote", key: "canned,1", vote: 1 }),
      sub(SELF, { type: "vote", key: "canned,1", vote: 1 }),
      sub(SELF, { type: "vote", key: "canned,1", vote: 2 }),
      sub(THIRD, { type: "new_option", idx: 1, option: "First" }),
      sub(THIRD, { type: "new_option", idx: 1, option: "Overwrite" }),
    ]);
    expect(p.question).toBe("Lunch?");
    expect(p.options.map((o) => [o.text, o.voters.length])).toEqual([["Pizza", 0], ["Tacos", 1], ["First", 0]]);
  });

  it("skips malformed submessages of every kind without throwing", () => {
    const start = pollStart("Q", ["A", 7, null, "B"]);
    const hostile = [
      sub(SELF, "{not json"),
      sub(SELF, "null"),
      sub(SELF, "[1,2]"),
      sub(SELF, '"a string"'),
      sub(SELF, { type: "vote", key: { toString: 1 }, vote: 1 }),
      sub(SELF, { type: "vote", key: "__proto__", vote: 1 }),
      sub(SELF, { type: "new_option", idx: -1, option: "negative" }),
      sub(SELF, { type: "new_option", idx: 1e9, option: "huge" }),
      sub(SELF, { type: "new_option", idx: 1.5, option: "fraction" }),
      sub(SELF, { type: "new_option", idx: 2, option: 42 }),
      sub(SELF, { type: "new_option", idx: 3, option: "   " }),
      sub(SELF, { type: "mystery" }),
      sub(SELF, { type: "vote", key: "canned,0", vote: 1 }, "other_kind"),
    ];
    const p = poll([start, ...hostile]);
    expect(p.options.map((o) => [o.key, o.text, o.voters.length])).toEqual([["canned,0", "A", 0], ["canned,3", "B", 0]]);
  });

  it("has no widget when the first submessage is not the sender's, not a widget, or not readable", () => {
    expect(foldWidget(500, OWNER, [])).toBeUndefined();
    expect(foldWidget(500, OWNER, [sub(THIRD, { widget_type: "poll", extra_data: { question: "Q", options: [] } })])).toBeUndefined();
    expect(foldWidget(500, OWNER, [sub(OWNER, "{oops")])).toBeUndefined();
    expect(foldWidget(500, OWNER, [sub(OWNER, { widget_type: "zform", extra_data: {} })])).toBeUndefined();
    // A start without extra data is an empty poll, not a crash.
    expect(foldWidget(500, OWNER, [sub(OWNER, { widget_type: "poll", extra_data: "nope" })])).toMatchObject({ question: "", options: [] });
  });

  it("makes the vote and new-option submessages the web app reads", () => {
    const p = poll([pollStart(), sub(SELF, { type: "vote", key: "canned,1", vote: 1 }), sub(SELF, { type: "new_option", idx: 4, option: "Mine" })]);
    expect(JSON.parse(voteContent(p, "canned,0", SELF)!)).toEqual({ type: "vote", key: "canned,0", vote: 1 });
    expect(JSON.parse(voteContent(p, "canned,1", SELF)!)).toEqual({ type: "vote", key: "canned,1", vote: -1 });
    expect(voteContent(p, "canned,9", SELF)).toBeUndefined();
    expect(newOptionContent(p, "  Curry ", SELF)).toEqual({ content: JSON.stringify({ type: "new_option", idx: 5, option: "Curry" }) });
    expect(newOptionContent(p, "Pizza", SELF)).toEqual({ problem: "The poll already has that option" });
    expect(newOptionContent(p, " ", SELF)).toEqual({ problem: "An option needs some text" });
  });
});

describe("to-do lists", () => {
  it("checks tasks off and on (remembering who), adds tasks, and follows the owner's title edits", () => {
    const t = todo([
      todoStart(),
      sub(THIRD, { type: "strike", key: "0,canned" }),
      sub(SELF, { type: "new_task", key: 1, task: "Celebrate", desc: "cake", completed: false }),
      sub(SELF, { type: "strike", key: `1,${SELF}` }),
      sub(THIRD, { type: "strike", key: `1,${SELF}` }),
      sub(OWNER, { type: "new_task_list_title", title: "Launch 2.0" }),
      sub(THIRD, { type: "new_task_list_title", title: "Hijacked" }),
    ]);
    expect(t.title).toBe("Launch 2.0");
    expect(t.tasks.map((x) => [x.key, x.task, x.desc, x.completed, x.completedBy, x.addedBy])).toEqual([
      ["0,canned", "Write notes", "for users", true, THIRD, undefined],
      ["1,canned", "Tag it", "", false, undefined, undefined],
      [`1,${SELF}`, "Celebrate", "cake", false, undefined, SELF],
    ]);
  });

  it("skips duplicate task names, empty tasks, strikes of missing tasks and malformed tasks", () => {
    const t = todo([
      todoStart("L", [{ task: "A" }, "junk", null, { task: "" }, { task: 5 }]),
      sub(SELF, { type: "new_task", key: 1, task: "A", desc: "", completed: false }),
      sub(SELF, { type: "new_task", key: "x", task: "B" }),
      sub(SELF, { type: "new_task", key: 2, task: "" }),
      sub(SELF, { type: "strike", key: "9,canned" }),
      sub(SELF, { type: "strike", key: 0 }),
    ]);
    expect(t.tasks.map((x) => [x.task, x.completed])).toEqual([["A", false]]);
  });

  it("makes the strike and new-task submessages the web app reads", () => {
    const t = todo([todoStart()]);
    expect(JSON.parse(strikeContent(t, "1,canned")!)).toEqual({ type: "strike", key: "1,canned" });
    expect(strikeContent(t, "5,canned")).toBeUndefined();
    expect(newTaskContent(t, "Ship it: on Monday", SELF)).toEqual({ content: JSON.stringify({ type: "new_task", key: 1, task: "Ship it", desc: "on Monday", completed: false }) });
    expect(newTaskContent(t, "Tag it", SELF)).toEqual({ problem: "The list already has that task" });
    expect(newTaskContent(t, ": only a description", SELF)).toMatchObject({ problem: expect.stringContaining("needs a name") });
  });
});

describe("submessages in the store", () => {
  it("reads a message's submessages (leaving out a malformed entry) and adds live ones from submessage events, once each", () => {
    const parsed = messageSchema.parse({
      ...eg.streamMessage({ content: "/poll Lunch?\nPizza\nTacos" }),
      submessages: [pollStart(), { id: "bad" }, sub(SELF, { type: "vote", key: "canned,0", vote: 1 })].map((s) =>
        "message_id" in s ? { ...s, message_id: 5000 } : s,
      ),
    });
    expect(parsed.submessages).toHaveLength(2);
    const m = { ...parsed, sender_id: OWNER };
    for (const s of m.submessages!) s.sender_id = s === m.submessages![0] ? OWNER : s.sender_id;
    const store = eg.store();
    store.addFetched({ kind: "feed" }, [m], { foundOldest: true, foundNewest: true, direction: "around" });
    expect((widgetOf(m) as PollWidget).options[0]!.voters).toEqual([SELF]);

    const event = { type: "submessage", id: 7, msg_type: "widget", message_id: m.id, submessage_id: 90, sender_id: THIRD, content: JSON.stringify({ type: "vote", key: "canned,1", vote: 1 }) };
    const before = store.version;
    store.apply(parseEvent(event));
    store.apply(parseEvent({ ...event, id: 8 })); // the same submessage again: no change
    expect(store.version).toBe(before + 1);
    expect((widgetOf(m) as PollWidget).options.map((o) => o.voters)).toEqual([[SELF], [THIRD]]);
    // A submessage for a message the client does not have changes nothing.
    store.apply(parseEvent({ ...event, id: 9, message_id: 99_999, submessage_id: 91 }));
    expect(store.version).toBe(before + 1);
  });

  it("refuses a submessage event without its fields as malformed", () => {
    expect(() => parseEvent({ type: "submessage", id: 1, message_id: 3 })).toThrow(/malformed submessage/);
  });
});

describe("drawing widgets", () => {
  const names: Record<number, string> = { [SELF]: "Self User", [OWNER]: "Other Person", [THIRD]: "Third Person" };
  const name = (id: number) => names[id] ?? `user ${id}`;

  it("shows the question, each option's votes with the reader's own checked, and voters when there is room", () => {
    const p = poll([pollStart(), sub(SELF, { type: "vote", key: "canned,0", vote: 1 }), sub(THIRD, { type: "vote", key: "canned,0", vote: 1 })]);
    const wide = widgetLines(p, 60, SELF, name);
    expect(wide.map((l) => l.text)).toEqual(["Poll: Lunch?  (2 voters)", "  [x] 2  Pizza  (you, Third Person)", "  [ ] 0  Tacos"]);
    expect(wide.map((l) => l.tone)).toEqual(["title", "mine", undefined]);
    const narrow = widgetLines(p, 16, SELF, name);
    expect(narrow[1]!.text).toBe("  [x] 2  Pizza");
  });

  it("shows a checklist with descriptions", () => {
    const t = todo([todoStart(), sub(THIRD, { type: "strike", key: "1,canned" })]);
    expect(widgetLines(t, 60, SELF, name).map((l) => l.text)).toEqual(["To-do: Launch  (1/2 done)", "  [ ] Write notes: for users", "  [x] Tag it"]);
  });

  it("never lets escape sequences or control characters from options, tasks or titles through", () => {
    const evil = "\x1b]0;pwned\x07\x1b[2J\x9b31m\r\b";
    const p = poll([pollStart(`Q${evil}`, [`A${evil}`]), sub(THIRD, { type: "new_option", idx: 1, option: `B${evil}` })]);
    const t = todo([todoStart(`T${evil}`, [{ task: `x${evil}`, desc: `d${evil}` }])]);
    for (const l of [...widgetLines(p, 80, SELF, () => `N${evil}`), ...widgetLines(t, 80, SELF, name)]) {
      expect(l.text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    }
  });

  it("draws the widget in place of the /poll text in the message pane, and redraws when a vote arrives", () => {
    const store = eg.store();
    const m = eg.streamMessage({ content: "/poll Lunch?\nPizza\nTacos", sender_id: OWNER });
    m.submessages = [{ ...pollStart(), message_id: m.id }];
    store.addFetched({ kind: "feed" }, [m], { foundOldest: true, foundNewest: true, direction: "around" });
    const o = { width: 60, showRecipients: true, color: false, cache: new LayoutCache() };
    const ctx = renderContext(store, false);
    const first = layoutMessage(store, m, undefined, o, ctx).lines.map((l) => l.text);
    expect(first).toContain("Poll: Lunch?  (0 voters)");
    expect(first.join("\n")).not.toContain("/poll");
    store.apply(parseEvent({ type: "submessage", id: 3, msg_type: "widget", message_id: m.id, submessage_id: 50, sender_id: SELF, content: JSON.stringify({ type: "vote", key: "canned,1", vote: 1 }) }));
    const after = layoutMessage(store, m, undefined, o, ctx).lines.map((l) => l.text);
    expect(after).toContain("  [x] 1  Tacos  (you)");
  });
});
