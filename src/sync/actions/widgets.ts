/**
 * The reader's part in polls and to-do lists: voting, adding an option,
 * checking a task off, adding a task. Each sends one submessage; the store
 * follows through the `submessage` event that comes back.
 */
import { sendSubmessage } from "../../api/routes/submessages.js";
import type { Store } from "../../model/store.js";
import {
  newOptionContent,
  newTaskContent,
  strikeContent,
  voteContent,
  votedFor,
  type PollWidget,
  type TodoWidget,
} from "../../model/widgets.js";
import { command, failed, type ActionResult, type ActionSession } from "./result.js";

function send(session: Pick<ActionSession, "machine">, messageId: number, content: string): Promise<ActionResult> {
  return command(session, (client) => sendSubmessage(client, { message_id: messageId, msg_type: "widget", content }));
}

function pollOf(store: Store, messageId: number): PollWidget | undefined {
  const m = store.messages.byId.get(messageId);
  const w = m ? store.widgets.of(m) : undefined;
  return w?.kind === "poll" ? w : undefined;
}

function todoOf(store: Store, messageId: number): TodoWidget | undefined {
  const m = store.messages.byId.get(messageId);
  const w = m ? store.widgets.of(m) : undefined;
  return w?.kind === "todo" ? w : undefined;
}

/** Votes for an option, or takes the reader's vote back; the value says which. */
export async function togglePollVote(session: Pick<ActionSession, "machine">, store: Store, messageId: number, optionKey: string): Promise<ActionResult<"voted" | "unvoted">> {
  const poll = pollOf(store, messageId);
  if (!poll) return failed("That message is not a poll (any more)");
  const option = poll.options.find((o) => o.key === optionKey);
  const content = voteContent(poll, optionKey, store.selfId);
  if (!option || !content) return failed("That option is not on the poll");
  const had = votedFor(option, store.selfId);
  const r = await send(session, messageId, content);
  if (!r.ok) return r;
  return { ok: true, value: had ? "unvoted" : "voted" };
}

/** Adds an option to a poll. */
export async function addPollOption(session: Pick<ActionSession, "machine">, store: Store, messageId: number, option: string): Promise<ActionResult> {
  const poll = pollOf(store, messageId);
  if (!poll) return failed("That message is not a poll (any more)");
  const made = newOptionContent(poll, option, store.selfId);
  if ("problem" in made) return failed(made.problem);
  return send(session, messageId, made.content);
}

/** Checks a task off, or back on; the value says which. */
export async function toggleTask(session: Pick<ActionSession, "machine">, store: Store, messageId: number, taskKey: string): Promise<ActionResult<"done" | "undone">> {
  const todo = todoOf(store, messageId);
  if (!todo) return failed("That message is not a to-do list (any more)");
  const content = strikeContent(todo, taskKey);
  if (!content) return failed("That task is not on the list");
  const wasDone = todo.tasks.find((t) => t.key === taskKey)?.completed ?? false;
  const r = await send(session, messageId, content);
  if (!r.ok) return r;
  return { ok: true, value: wasDone ? "undone" : "done" };
}

/** Adds a task ("task: description") to a to-do list. */
export async function addTodoTask(session: Pick<ActionSession, "machine">, store: Store, messageId: number, line: string): Promise<ActionResult> {
  const todo = todoOf(store, messageId);
  if (!todo) return failed("That message is not a to-do list (any more)");
  const made = newTaskContent(todo, line, store.selfId);
  if ("problem" in made) return failed(made.problem);
  return send(session, messageId, made.content);
}
