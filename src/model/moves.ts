/**
 * Moves of messages (an update_message event with a new topic or channel):
 * what an event moved, read once where the events arrive (the account
 * runtime publishes each move on its change feed) and decided on by the
 * screen (ui/move-follow.ts).
 */
import type { UpdateMessageEvent } from "../api/schemas/events.js";

export interface Move {
  from: { channelId: number; topic: string };
  to: { channelId: number; topic: string };
  ids: number[];
  /** "change_one", "change_later", "change_all" (or a newer value, taken as one message at a time). */
  mode: string;
  /** Who moved them (undefined: not said). */
  by: number | undefined;
  /** The message's text changed in the same edit. */
  edited: boolean;
}

/** The move an update_message event makes, if it moves anything. */
export function moveOf(e: UpdateMessageEvent): Move | undefined {
  if (e.stream_id === undefined || e.orig_subject === undefined) return undefined;
  const to = { channelId: e.new_stream_id ?? e.stream_id, topic: e.subject ?? e.orig_subject };
  if (to.channelId === e.stream_id && to.topic === e.orig_subject) return undefined;
  const ids = e.message_ids.includes(e.message_id) ? e.message_ids : [...e.message_ids, e.message_id];
  return {
    from: { channelId: e.stream_id, topic: e.orig_subject },
    to,
    ids,
    mode: e.propagate_mode ?? "change_one",
    by: e.user_id ?? undefined,
    edited: e.content !== undefined,
  };
}
