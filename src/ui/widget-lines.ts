/**
 * Polls and to-do lists as message pane lines, in place of their `/poll` or
 * `/todo` text: the question with each option's votes (the reader's own
 * marked, voters named when the line has room), or the title with a
 * checklist of tasks. Every text from the server is sanitized here.
 */
import type { PollWidget, TodoWidget, Widget } from "../model/widgets.js";
import { t } from "../render/glyphs.js";
import { sanitizeInline } from "../render/sanitize.js";
import { displayWidth, truncate } from "../render/wrap.js";
import type { Line } from "./message-layout.js";

/** More items than this are summed up in one line (the widget popup lists them all). */
export const MAX_ITEMS_SHOWN = 20;

/** The names of people as shown: "you" for the reader. */
export function peopleNames(ids: readonly number[], selfId: number, name: (id: number) => string): string {
  return ids.map((id) => (id === selfId ? "you" : sanitizeInline(name(id)))).join(", ");
}

export function checkbox(on: boolean): string {
  return on ? "[x]" : "[ ]";
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** How many different people voted. */
export function voterCount(poll: PollWidget): number {
  const people = new Set<number>();
  for (const o of poll.options) for (const v of o.voters) people.add(v);
  return people.size;
}

export function pollTitle(poll: PollWidget): string {
  return `Poll: ${sanitizeInline(poll.question).trim() || "(no question yet)"}`;
}

/** "(4 voters)": how many people voted, said the same in the message and in its popup. */
export function voterCountText(poll: PollWidget): string {
  return `(${plural(voterCount(poll), "voter", "voters")})`;
}

export function todoTitle(todo: TodoWidget): string {
  return `To-do: ${sanitizeInline(todo.title).trim() || "(untitled list)"}`;
}

/** A task with its description, as one line of text. */
export function taskText(t: { task: string; desc: string }): string {
  const task = sanitizeInline(t.task);
  const desc = sanitizeInline(t.desc).trim();
  return desc ? `${task}: ${desc}` : task;
}

function pollLines(poll: PollWidget, width: number, selfId: number, name: (id: number) => string): Line[] {
  const room = Math.max(10, width);
  const lines: Line[] = [
    { text: truncate(`${pollTitle(poll)}  ${voterCountText(poll)}`, room), style: "widget", tone: "title" },
  ];
  if (poll.options.length === 0) lines.push({ text: "  (no options yet)", style: "widget", tone: "dim" });
  const countWidth = Math.max(1, ...poll.options.map((o) => String(o.voters.length).length));
  for (const o of poll.options.slice(0, MAX_ITEMS_SHOWN)) {
    const mine = o.voters.includes(selfId);
    const head = `  ${checkbox(mine)} ${String(o.voters.length).padStart(countWidth)}  `;
    const option = truncate(sanitizeInline(o.text), Math.max(4, room - displayWidth(head)));
    let text = head + option;
    const left = room - displayWidth(text) - 4;
    if (o.voters.length > 0 && left >= 8) text += `  (${truncate(peopleNames(o.voters, selfId, name), left)})`;
    lines.push({ text, style: "widget", tone: mine ? "mine" : undefined });
  }
  const more = poll.options.length - MAX_ITEMS_SHOWN;
  if (more > 0) lines.push({ text: t`  … ${plural(more, "more option", "more options")}`, style: "widget", tone: "dim" });
  return lines;
}

function todoLines(todo: TodoWidget, width: number): Line[] {
  const room = Math.max(10, width);
  const done = todo.tasks.filter((t) => t.completed).length;
  const lines: Line[] = [{ text: truncate(`${todoTitle(todo)}  (${done}/${todo.tasks.length} done)`, room), style: "widget", tone: "title" }];
  if (todo.tasks.length === 0) lines.push({ text: "  (no tasks yet)", style: "widget", tone: "dim" });
  for (const t of todo.tasks.slice(0, MAX_ITEMS_SHOWN)) {
    const head = `  ${checkbox(t.completed)} `;
    lines.push({ text: head + truncate(taskText(t), Math.max(4, room - displayWidth(head))), style: "widget", tone: t.completed ? "done" : undefined });
  }
  const more = todo.tasks.length - MAX_ITEMS_SHOWN;
  if (more > 0) lines.push({ text: t`  … ${plural(more, "more task", "more tasks")}`, style: "widget", tone: "dim" });
  return lines;
}

/** The lines that show a widget, `width` columns wide. */
export function widgetLines(w: Widget, width: number, selfId: number, name: (id: number) => string): Line[] {
  return w.kind === "poll" ? pollLines(w, width, selfId, name) : todoLines(w, width);
}

/** What in a widget the drawn lines depend on (for the layout cache). */
export function widgetSignature(w: Widget | undefined, subCount: number): string {
  return w ? `${w.kind}:${subCount}` : "";
}
