/**
 * When viewing a message makes it read, and where a view opens: the
 * service's rules, as its web app applies them.
 *
 * The user's setting `web_mark_read_on_scroll_policy` (register's
 * `user_settings`, kept current by `user_settings` events) says when messages
 * on screen become read: 1 always, 2 only in conversation views (one topic, or
 * one direct message conversation), 3 never. Servers before feature level 175
 * have no such setting and behave as "always", which is also its default.
 *
 * Whatever the setting, only views that show every message of the
 * conversations they show mark anything read: the combined feed, a channel, a
 * topic, a DM conversation and all DMs. Mentions, starred messages and search
 * results are slices of conversations: reading them there marks nothing.
 */
import type { Narrow } from "./narrow.js";

export type MarkReadPolicy = "always" | "conversations" | "never";

/** The setting's values on the wire. */
export const MARK_READ_ON_SCROLL = { always: 1, conversations: 2, never: 3 } as const;

/** The user's policy from their settings; a missing or unknown value is the service's default, "always". */
export function markReadPolicy(settings: Readonly<Record<string, unknown>>): MarkReadPolicy {
  switch (settings["web_mark_read_on_scroll_policy"]) {
    case MARK_READ_ON_SCROLL.conversations:
      return "conversations";
    case MARK_READ_ON_SCROLL.never:
      return "never";
    default:
      return "always";
  }
}

/** A conversation view: one topic, or one DM conversation (a channel's view is not one). */
export function isConversationView(n: Narrow): boolean {
  return n.kind === "topic" || n.kind === "dm";
}

/** Views that hold whole conversations, where what is read on screen may count as read. */
function showsWholeConversations(n: Narrow): boolean {
  switch (n.kind) {
    case "feed":
    case "channel":
    case "topic":
    case "dm":
    case "all-dms":
      return true;
    case "mentioned":
    case "starred":
    case "search":
      return false;
  }
}

/** Whether messages seen in this view become read under this policy. */
export function viewMarksRead(n: Narrow, policy: MarkReadPolicy): boolean {
  if (policy === "never" || !showsWholeConversations(n)) return false;
  return policy === "always" || isConversationView(n);
}

/**
 * Whether the view opens at its first unread message (else at the newest):
 * every view that marks read, and the personal filters but starred messages
 * (mentions, and searches with an `is:` term such as `is:unread`).
 */
export function opensAtFirstUnread(n: Narrow): boolean {
  switch (n.kind) {
    case "starred":
      return false;
    case "search":
      return (n.terms ?? []).some((t) => t.operator === "is" && !t.negated && t.operand !== "starred");
    default:
      return true;
  }
}
