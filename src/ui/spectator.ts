/**
 * Reading as a spectator (no account): the keys that would write, or open a
 * view only an account has, say one line instead of opening a box or a popup
 * that could lead nowhere. The account's actions refuse the same way
 * underneath (sync/spectator.ts), for what is reached by other ways.
 */
import type { Action } from "./app-context.js";
import { SPECTATOR_LINE } from "../sync/account-handle.js";

/** Actions that need an account: writing, reacting, editing, marking, and the personal views. */
const NEEDS_ACCOUNT: ReadonlySet<string> = new Set([
  "reply", "newTopic", "newDm", "dmSender", "replyMention", "quoteReply", "editMessage", "deleteMessage", "drafts", "attachFile", "send",
  "markRead", "msgThumbsUp", "msgEmojiPicker", "msgToggleReaction", "msgStar",
  "starredView", "mentionsView", "allDms", "nextUnreadDm",
]);

/** What a key's action does: as it is, or for a spectator where it needs an account, the one line. */
export function forSpectators(name: string, run: Action | undefined): Action | undefined {
  if (!run || !NEEDS_ACCOUNT.has(name)) return run;
  return (ctx) => (ctx.account.spectator ? ctx.notify(SPECTATOR_LINE) : run(ctx));
}
