/**
 * Who is typing where. Pure: a start is stamped with the store's clock and
 * lasts the server's expiry period unless renewed or stopped; the sync layer
 * calls `expire(now)` (on a timer, at `nextExpiry()`).
 */
import type { TypingEvent } from "../api/schemas/events.js";
import { dmParticipants, topicKey } from "./narrow.js";

/** Fallback for servers that do not send server_typing_started_expiry_period_milliseconds. */
export const DEFAULT_TYPING_EXPIRY_MS = 15_000;

/** Key of a conversation for typing: `dm:1,2` (participants but self) or `topic:10:lunch`. */
export function typingKey(where: { channelId: number; topic: string } | { userIds: number[] }, selfId: number): string {
  if ("userIds" in where) return `dm:${dmParticipants(where.userIds, selfId).join(",")}`;
  return `topic:${where.channelId}:${topicKey(where.topic)}`;
}

export class Typing {
  /** Conversation key → user id → expiry time (ms). */
  readonly byConversation = new Map<string, Map<number, number>>();

  constructor(
    private readonly selfId: number,
    readonly expiryMs = DEFAULT_TYPING_EXPIRY_MS,
  ) {}

  apply(e: TypingEvent, nowMs: number): boolean {
    const key = this.keyOf(e);
    if (key === undefined) return false;
    const userId = e.sender.user_id;
    if (userId === this.selfId) return false;
    if (e.op === "start") {
      let users = this.byConversation.get(key);
      if (!users) this.byConversation.set(key, (users = new Map()));
      users.set(userId, nowMs + this.expiryMs);
      return true;
    }
    const users = this.byConversation.get(key);
    if (!users?.delete(userId)) return false;
    if (users.size === 0) this.byConversation.delete(key);
    return true;
  }

  /** Drops typists whose notice expired; returns whether any did. */
  expire(nowMs: number): boolean {
    let changed = false;
    for (const [key, users] of this.byConversation) {
      for (const [id, until] of users) {
        if (until <= nowMs) {
          users.delete(id);
          changed = true;
        }
      }
      if (users.size === 0) this.byConversation.delete(key);
    }
    return changed;
  }

  /** When the next notice expires (ms), if any. */
  nextExpiry(): number | undefined {
    let next: number | undefined;
    for (const users of this.byConversation.values()) for (const until of users.values()) if (next === undefined || until < next) next = until;
    return next;
  }

  /** Users typing in a conversation, in the order they started. */
  typists(key: string): number[] {
    return [...(this.byConversation.get(key)?.keys() ?? [])];
  }

  private keyOf(e: TypingEvent): string | undefined {
    // Where, from the fields (a newer server may name the message type differently).
    if (e.message_type === "stream" || e.stream_id !== undefined) {
      if (e.stream_id === undefined || e.topic === undefined) return undefined;
      return typingKey({ channelId: e.stream_id, topic: e.topic }, this.selfId);
    }
    const ids = (e.recipients ?? []).map((r) => r.user_id);
    if (ids.length === 0) return undefined;
    return typingKey({ userIds: ids }, this.selfId);
  }
}
