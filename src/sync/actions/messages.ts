/**
 * Message actions: edit (content, topic, channel), delete, and reading one
 * message's source and edit history. An edit's text lives in the draft
 * journal under `edit:<id>` until the server took it: a refusal or a lost
 * connection keeps it there, to be saved again.
 */
import { getMessage, getMessageHistory, deleteMessage as deleteMessageRoute, updateMessage, type UpdateMessageParams } from "../../api/routes/messages.js";
import { command, request, type ActionResult, type ActionSession } from "./result.js";

export type { UpdateMessageParams, PropagateMode } from "../../api/routes/messages.js";

/** The journal key of an edit in progress of a message. */
export function editKey(messageId: number): string {
  return `edit:${messageId}`;
}

/** Saves an edit or a move; on success the journal forgets the edit's text. */
export async function editMessage(session: ActionSession, messageId: number, p: UpdateMessageParams): Promise<ActionResult> {
  const r = await command(session, (c) => updateMessage(c, messageId, p));
  if (r.ok) session.journal.clear(editKey(messageId));
  return r;
}

/**
 * Saves an edit, or, offline, keeps a change of text only for when the
 * connection is back (moves need the server's answer and are not kept).
 */
export async function editOrKeep(session: ActionSession, messageId: number, p: UpdateMessageParams): Promise<ActionResult<"saved" | "kept">> {
  const textOnly = p.content !== undefined && p.topic === undefined && p.stream_id === undefined;
  if (textOnly && session.edits && session.machine.state.kind !== "live") {
    session.edits.enqueue(messageId, p.content as string);
    session.journal.clear(editKey(messageId));
    return { ok: true, value: "kept" };
  }
  const r = await editMessage(session, messageId, p);
  return r.ok ? { ok: true, value: "saved" } : r;
}

export function deleteMessage(session: ActionSession, messageId: number): Promise<ActionResult> {
  return command(session, (c) => deleteMessageRoute(c, messageId));
}

/** The message's source as the server has it now (Markdown, not rendered). */
export async function messageSource(session: ActionSession, messageId: number): Promise<ActionResult<string>> {
  const r = await request(session, (c) => getMessage(c, messageId, { apply_markdown: false, allow_empty_topic_name: true }));
  return r.ok ? { ok: true, value: r.value.message.content } : r;
}

export type MessageHistory = Awaited<ReturnType<typeof getMessageHistory>>["message_history"];

export async function messageHistory(session: ActionSession, messageId: number): Promise<ActionResult<MessageHistory>> {
  const r = await request(session, (c) => getMessageHistory(c, messageId, { allow_empty_topic_name: true }));
  return r.ok ? { ok: true, value: r.value.message_history } : r;
}

