// Changing one personal flag on a set of messages for one user, and the
// update_message_flags event that tells the user's clients. Shared by
// POST /messages/flags, POST /messages/flags/narrow and the mark-as-read routes.

import type { ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import { notifyUser } from "../messaging.js";
import type { Flag, Message, User } from "../state.js";
import { clientTopic } from "../wire.js";

const EDITABLE = new Set<string>(["read", "starred", "collapsed"]);
const NOT_EDITABLE = new Set<string>([
  "mentioned",
  "stream_wildcard_mentioned",
  "topic_wildcard_mentioned",
  "wildcard_mentioned",
  "has_alert_word",
  "historical",
]);

export type FlagOp = "add" | "remove";

/** Validates `op` and `flag` parameters. */
export function checkFlagChange(op: string, flag: string): { op: FlagOp; flag: Flag } {
  if (op !== "add" && op !== "remove") throw badRequest(`Invalid message flag operation: '${op}'`);
  if (NOT_EDITABLE.has(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  if (!EDITABLE.has(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  return { op, flag: flag as Flag };
}

export interface FlagChange {
  /** Ids whose flag actually changed, ascending. */
  changed: number[];
  /** Channels whose messages could not be marked unread (not subscribed). */
  ignoredChannels: number[];
}

/**
 * Applies the change to messages the user can read (callers check access).
 * Starring a message outside the user's history adds it to the history as
 * `historical`; unread messages exist only in subscribed channels.
 */
export function applyFlagChange(server: ServerContext, user: User, messages: readonly Message[], op: FlagOp, flag: Flag): FlagChange {
  const { state } = server;
  const changed: number[] = [];
  const ignored = new Set<number>();
  for (const m of [...messages].sort((a, b) => a.id - b.id)) {
    let flags = state.flags(user.id, m.id);
    const markUnread = op === "remove" && flag === "read";
    if (markUnread && m.channelId !== null && !state.subscription(user.id, m.channelId)) {
      ignored.add(m.channelId);
      continue;
    }
    if (!flags) {
      if (!(op === "add" && flag === "starred")) continue;
      flags = new Set<Flag>(["read", "historical"]);
      state.userMessages.get(user.id)?.set(m.id, flags);
    }
    if (op === "add" ? flags.has(flag) : !flags.has(flag)) continue;
    if (op === "add") flags.add(flag);
    else flags.delete(flag);
    changed.push(m.id);
  }
  sendFlagEvent(server, user, op, flag, changed);
  return { changed, ignoredChannels: [...ignored].sort((a, b) => a - b) };
}

/** update_message_flags to the user's queues; removing `read` carries message_details. */
export function sendFlagEvent(server: ServerContext, user: User, op: FlagOp, flag: Flag, ids: number[]): void {
  if (ids.length === 0) return;
  const { state } = server;
  notifyUser(server, user.id, "update_message_flags", (queue) => {
    const event: Record<string, unknown> & { type: string } = {
      type: "update_message_flags",
      op,
      operation: op,
      flag,
      messages: ids,
      all: false,
    };
    if (op === "remove" && flag === "read") {
      const details: Record<string, unknown> = {};
      for (const id of ids) {
        const m = state.messagesById.get(id);
        if (!m) continue;
        const entry: Record<string, unknown> =
          m.type === "stream"
            ? { type: "stream", stream_id: m.channelId, topic: clientTopic(server, m.topic, queue.capability("empty_topic_name")) }
            : { type: "private", user_ids: m.dmUserIds.filter((u) => u !== user.id) };
        // The same rule as the register's `mentions`: personal mentions, and wildcard ones outside muted topics.
        const flags = state.flags(user.id, id);
        if (flags?.has("mentioned") || (flags?.has("wildcard_mentioned") && !mutedFor(server, user.id, m))) entry["mentioned"] = true;
        details[String(id)] = entry;
      }
      event["message_details"] = details;
    }
    return event;
  });
}

/** Whether a message is in a topic the user does not see in the combined feed (muted topic or muted channel). */
function mutedFor(server: ServerContext, userId: number, m: Message): boolean {
  if (m.type !== "stream" || m.channelId === null) return false;
  const policy = server.state.userTopicPolicy(userId, m.channelId, m.topic);
  const sub = server.state.subscription(userId, m.channelId);
  return policy === 1 || (Boolean(sub?.isMuted) && policy !== 2 && policy !== 3);
}
