/**
 * Toggling the reader's reactions on a message (for the message actions
 * and the reaction popups). Kept apart from features/message-actions.ts so
 * that the popups and the feature do not import each other.
 */
import type { Message } from "../api/schemas/common.js";
import { myReaction, reactionParams, type ReactionParams } from "../sync/actions/reactions.js";
import type { ActionContext } from "./app-context.js";

export { myReaction, reactionParams };

export const THUMBS_UP: ReactionParams = { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" };

/** The Unicode emoji code the service uses for a character: code points in hex, without variation selectors. */
export function emojiCode(char: string): string {
  return [...char]
    .map((c) => c.codePointAt(0)!)
    .filter((p) => p !== 0xfe0f && p !== 0xfe0e)
    .map((p) => p.toString(16))
    .join("-");
}

/** Runs a reaction toggle; a refusal shows the server's message. */
export function reactWith(ctx: ActionContext, m: Message, emoji: ReactionParams, label: string): void {
  ctx.attempt(async () => {
    const r = await ctx.account.actions.toggleReaction(m, emoji);
    if (r.ok) ctx.notify(r.value === "added" ? `Reacted with ${label}` : `Removed your ${label}`);
    return r;
  });
}
