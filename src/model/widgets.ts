/**
 * Polls and to-do lists, folded from a message's submessages. The first
 * submessage, from the message's sender, says which widget it is and what
 * it starts with; later ones (from anyone who can read the message) vote,
 * add options or tasks, check tasks off, or change the question or title.
 *
 * Pure and defensive: a submessage that is not valid JSON, has the wrong
 * shape, or refers to something that does not exist is skipped, never
 * thrown. Texts are kept as sent; whoever draws them sanitizes them.
 */
import type { Message, Submessage } from "../api/schemas/common.js";

/** One person adds at most this many options or tasks (their indexes stay below it). */
export const MAX_ITEM_INDEX = 1000;
/** Longer texts are cut here (a poll question, an option, a task, its description). */
export const MAX_TEXT = 1000;

export interface PollOption {
  /** `canned,<n>` for the options the poll started with, `<sender>,<idx>` for added ones. */
  key: string;
  text: string;
  /** Who added the option; undefined for the options the poll started with. */
  addedBy?: number;
  /** Voters, in the order they voted. */
  voters: number[];
}

export interface PollWidget {
  kind: "poll";
  messageId: number;
  ownerId: number;
  question: string;
  /** Whether the owner changed the question after starting the poll. */
  questionEdited: boolean;
  options: PollOption[];
}

export interface TodoTask {
  /** `<n>,canned` for the tasks the list started with, `<idx>,<sender>` for added ones. */
  key: string;
  task: string;
  desc: string;
  completed: boolean;
  /** Who added the task; undefined for the tasks the list started with. */
  addedBy?: number;
  /** Who last checked the task off, while it is completed. */
  completedBy?: number;
}

export interface TodoWidget {
  kind: "todo";
  messageId: number;
  ownerId: number;
  title: string;
  titleEdited: boolean;
  tasks: TodoTask[];
}

export type Widget = PollWidget | TodoWidget;

type Json = Record<string, unknown>;

function parse(content: string): Json | undefined {
  try {
    const v: unknown = JSON.parse(content);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;
  } catch {
    return undefined;
  }
}

function text(v: unknown): string | undefined {
  return typeof v === "string" ? (v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) : v) : undefined;
}

function index(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 && v < MAX_ITEM_INDEX ? v : undefined;
}

/** The widget of a message, or undefined when it has none (or its start is unreadable). */
export function foldWidget(messageId: number, senderId: number, subs: readonly Submessage[]): Widget | undefined {
  const ordered = subs.every((s, i) => i === 0 || subs[i - 1]!.id < s.id) ? subs : [...subs].sort((a, b) => a.id - b.id);
  const first = ordered[0];
  if (!first || first.msg_type !== "widget" || first.sender_id !== senderId) return undefined;
  const start = parse(first.content);
  const extra = start?.["extra_data"];
  const data = extra && typeof extra === "object" && !Array.isArray(extra) ? (extra as Json) : {};
  const rest = ordered.slice(1).filter((s) => s.msg_type === "widget");
  if (start?.["widget_type"] === "poll") return foldPoll(messageId, senderId, data, rest);
  if (start?.["widget_type"] === "todo") return foldTodo(messageId, senderId, data, rest);
  return undefined;
}

function foldPoll(messageId: number, ownerId: number, data: Json, subs: readonly Submessage[]): PollWidget {
  const options: PollOption[] = [];
  const byKey = new Map<string, PollOption>();
  const add = (o: PollOption) => {
    if (byKey.has(o.key)) return;
    byKey.set(o.key, o);
    options.push(o);
  };
  const canned = Array.isArray(data["options"]) ? data["options"] : [];
  canned.forEach((v, i) => {
    const t = text(v);
    if (t !== undefined && i < MAX_ITEM_INDEX) add({ key: `canned,${i}`, text: t, voters: [] });
  });
  const poll: PollWidget = { kind: "poll", messageId, ownerId, question: text(data["question"]) ?? "", questionEdited: false, options };
  for (const s of subs) {
    const e = parse(s.content);
    if (!e) continue;
    if (e["type"] === "new_option") {
      const idx = index(e["idx"]);
      const t = text(e["option"]);
      if (idx !== undefined && t !== undefined && t.trim() !== "") add({ key: `${s.sender_id},${idx}`, text: t, addedBy: s.sender_id, voters: [] });
    } else if (e["type"] === "vote") {
      const o = typeof e["key"] === "string" ? byKey.get(e["key"]) : undefined;
      if (!o) continue;
      const at = o.voters.indexOf(s.sender_id);
      if (e["vote"] === 1 && at < 0) o.voters.push(s.sender_id);
      else if (e["vote"] === -1 && at >= 0) o.voters.splice(at, 1);
    } else if (e["type"] === "question" && s.sender_id === ownerId) {
      const q = text(e["question"]);
      if (q !== undefined) {
        poll.question = q;
        poll.questionEdited = true;
      }
    }
  }
  return poll;
}

function foldTodo(messageId: number, ownerId: number, data: Json, subs: readonly Submessage[]): TodoWidget {
  const tasks: TodoTask[] = [];
  const byKey = new Map<string, TodoTask>();
  const names = new Set<string>();
  const add = (t: TodoTask) => {
    if (byKey.has(t.key) || names.has(t.task)) return;
    byKey.set(t.key, t);
    names.add(t.task);
    tasks.push(t);
  };
  const canned = Array.isArray(data["tasks"]) ? data["tasks"] : [];
  canned.forEach((v, i) => {
    if (!v || typeof v !== "object" || i >= MAX_ITEM_INDEX) return;
    const task = text((v as Json)["task"]);
    if (task === undefined || task.trim() === "") return;
    add({ key: `${i},canned`, task, desc: text((v as Json)["desc"]) ?? "", completed: false });
  });
  const todo: TodoWidget = { kind: "todo", messageId, ownerId, title: text(data["task_list_title"]) ?? "", titleEdited: false, tasks };
  for (const s of subs) {
    const e = parse(s.content);
    if (!e) continue;
    if (e["type"] === "new_task") {
      const idx = index(e["key"]);
      const task = text(e["task"]);
      if (idx === undefined || task === undefined || task.trim() === "") continue;
      const completed = e["completed"] === true;
      add({ key: `${idx},${s.sender_id}`, task, desc: text(e["desc"]) ?? "", completed, addedBy: s.sender_id, ...(completed && { completedBy: s.sender_id }) });
    } else if (e["type"] === "strike") {
      const t = typeof e["key"] === "string" ? byKey.get(e["key"]) : undefined;
      if (!t) continue;
      t.completed = !t.completed;
      t.completedBy = t.completed ? s.sender_id : undefined;
    } else if (e["type"] === "new_task_list_title" && s.sender_id === ownerId) {
      const title = text(e["title"]);
      if (title !== undefined) {
        todo.title = title;
        todo.titleEdited = true;
      }
    }
  }
  return todo;
}

/** The widget of a message (undefined: it has none), folded from its submessages. */
export function widgetOf(m: Message): Widget | undefined {
  const subs = m.submessages;
  return subs && subs.length > 0 ? foldWidget(m.id, m.sender_id, subs) : undefined;
}

/** One store's widgets, each folded again only when its message's submessages changed (`store.widgets`). */
export class WidgetFolds {
  private readonly folded = new WeakMap<Message, { subs: readonly Submessage[]; count: number; widget: Widget | undefined }>();

  of(m: Message): Widget | undefined {
    const subs = m.submessages;
    if (!subs || subs.length === 0) return undefined;
    const hit = this.folded.get(m);
    if (hit && hit.subs === subs && hit.count === subs.length) return hit.widget;
    const widget = foldWidget(m.id, m.sender_id, subs);
    this.folded.set(m, { subs, count: subs.length, widget });
    return widget;
  }
}

// ---- what the reader sends ------------------------------------------------------------------

/** Whether the reader has voted for an option. */
export function votedFor(o: PollOption, selfId: number): boolean {
  return o.voters.includes(selfId);
}

/** A vote for an option, or taking one's vote back. */
export function voteContent(poll: PollWidget, key: string, selfId: number): string | undefined {
  const o = poll.options.find((x) => x.key === key);
  if (!o) return undefined;
  return JSON.stringify({ type: "vote", key, vote: votedFor(o, selfId) ? -1 : 1 });
}

/** The next free index among the items the reader added (keys with the reader's id at `side`). */
function nextIndex(keys: readonly string[], selfId: number, side: 0 | 1): number {
  let max = 0;
  for (const k of keys) {
    const parts = k.split(",");
    if (parts[side === 0 ? 0 : 1] !== String(selfId)) continue;
    const n = Number(parts[side === 0 ? 1 : 0]);
    if (Number.isInteger(n) && n > max) max = n;
  }
  return max + 1;
}

/** A new poll option; why not, when it cannot be added. */
export function newOptionContent(poll: PollWidget, option: string, selfId: number): { content: string } | { problem: string } {
  const t = option.trim();
  if (t === "") return { problem: "An option needs some text" };
  if (t.length > MAX_TEXT) return { problem: `An option is at most ${MAX_TEXT} characters` };
  if (poll.options.some((o) => o.text.trim() === t)) return { problem: "The poll already has that option" };
  const idx = nextIndex(poll.options.map((o) => o.key), selfId, 0);
  if (idx >= MAX_ITEM_INDEX) return { problem: "You have added as many options as a poll takes" };
  return { content: JSON.stringify({ type: "new_option", idx, option: t }) };
}

/** Checking a task off, or back on. */
export function strikeContent(todo: TodoWidget, key: string): string | undefined {
  return todo.tasks.some((t) => t.key === key) ? JSON.stringify({ type: "strike", key }) : undefined;
}

/** Reads "task: description" (the description is optional), as a /todo line does. */
export function splitTask(line: string): { task: string; desc: string } {
  const t = line.trim().replace(/^[-*]\s+/, "");
  const colon = t.indexOf(":");
  return colon < 0 ? { task: t.trim(), desc: "" } : { task: t.slice(0, colon).trim(), desc: t.slice(colon + 1).trim() };
}

/** A new task; why not, when it cannot be added. */
export function newTaskContent(todo: TodoWidget, line: string, selfId: number): { content: string } | { problem: string } {
  const { task, desc } = splitTask(line);
  if (task === "") return { problem: "A task needs a name (write it as task: description)" };
  if (task.length > MAX_TEXT || desc.length > MAX_TEXT) return { problem: `A task and its description are at most ${MAX_TEXT} characters each` };
  if (todo.tasks.some((t) => t.task === task)) return { problem: "The list already has that task" };
  const key = nextIndex(todo.tasks.map((t) => t.key), selfId, 1);
  if (key >= MAX_ITEM_INDEX) return { problem: "You have added as many tasks as a list takes" };
  return { content: JSON.stringify({ type: "new_task", key, task, desc, completed: false }) };
}
