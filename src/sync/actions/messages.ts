/**
 * Message actions: edit (content, topic, channel), delete, and reading one
 * message's source and edit history. Edits go through the outbox's edit
 * lane. An edit's text lives in the draft journal under `edit:<id>` until the
 * server took it: a refusal or a lost connection keeps it there, to be saved
 * again.
 */
import { getMessage, getMessageHistory, deleteMessage as deleteMessageRoute, type UpdateMessageParams } from "../../api/routes/messages.js";
import { editKey } from "../draft-journal.js";
import { command, failed, request, succeeded, type ActionResult, type ActionSession } from "./result.js";

export type { UpdateMessageParams, PropagateMode } from "../../api/routes/messages.js";

export { editKey };

/**
 * Saves an edit or a move through the outbox. `saved`: the server has it (the
 * journal forgets the text). `queued`: a content edit the connection did not
 * carry; it is kept on disk and sent when the server can be reached (the
 * session clears the journal then). A refusal, or any failure of a move, is
 * the failure.
 */
export async function editMessage(session: ActionSession, messageId: number, p: UpdateMessageParams): Promise<ActionResult<"saved" | "queued">> {
  const entry = session.outbox.edits.enqueue(messageId, p);
  const o = await session.outbox.edits.firstAnswer(entry.id);
  if (o.kind === "failed") return failed(o.error, o.code);
  if (o.kind === "saved") session.journal.clear(editKey(messageId));
  return succeeded(o.kind);
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

