/**
 * Reading as a spectator (no account): the keys that would write, or open a
 * view only an account has, say one line instead of opening a box or a popup
 * that could lead nowhere. The account's actions refuse the same way
 * underneath (sync/spectator.ts), for what is reached by other ways.
 */
import type { Action } from "./app-context.js";
import { SPECTATOR_LINE } from "../sync/account-handle.js";

/** Said for the views only an account has. */
export const SPECTATOR_PERSONAL_LINE = "Reading as a spectator: starred messages, mentions and direct messages need an account";
/** Said for people's lists and cards (a spectator is told nothing of the organization's people). */
export const SPECTATOR_PEOPLE_LINE = "Reading as a spectator: people's profiles need an account";

/** Actions that need an account, and what a spectator is told instead: writing, reacting, editing, marking, the personal views, people. */
const NEEDS_ACCOUNT: ReadonlyMap<string, string> = new Map([
  ...["reply", "newTopic", "newDm", "dmSender", "replyMention", "quoteReply", "editMessage", "deleteMessage", "drafts", "attachFile", "send",
    "markRead", "msgThumbsUp", "msgEmojiPicker", "msgToggleReaction", "msgStar",
    // The palette's commands change settings, subscriptions, the organization (its links and files are under L).
    "palette"].map((a): [string, string] => [a, SPECTATOR_LINE]),
  ...["starredView", "mentionsView", "allDms", "nextUnreadDm"].map((a): [string, string] => [a, SPECTATOR_PERSONAL_LINE]),
  ...["people", "msgSenderCard"].map((a): [string, string] => [a, SPECTATOR_PEOPLE_LINE]),
]);

/** What a key's action does: as it is, or for a spectator where it needs an account, the one line. */
export function forSpectators(name: string, run: Action | undefined): Action | undefined {
  const line = NEEDS_ACCOUNT.get(name);
  if (!run || line === undefined) return run;
  return (ctx) => (ctx.account.spectator ? ctx.notify(line) : run(ctx));
}
