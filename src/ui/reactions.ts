/**
 * Toggling the reader's reactions on a message (for the message actions
 * and the reaction popups). Kept apart from features/message-actions.ts so
 * that the popups and the feature do not import each other.
 */
import { ApiError } from "../api/errors.js";
import type { Message, Reaction } from "../api/schemas/common.js";
import { addReaction, removeReaction, type ReactionParams } from "../api/routes/reactions.js";
import type { ReactionType } from "../api/routes/status.js";
import type { Store } from "../model/store.js";
import type { ActionContext } from "./app-context.js";

export const THUMBS_UP: ReactionParams = { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" };

/** What identifies an existing reaction to the server (to vote for it, or take one's own back). */
export function reactionParams(r: Pick<Reaction, "emoji_name" | "emoji_code" | "reaction_type">): ReactionParams {
  return { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type as ReactionType };
}

/** The Unicode emoji code the service uses for a character: code points in hex, without variation selectors. */
export function emojiCode(char: string): string {
  return [...char]
    .map((c) => c.codePointAt(0)!)
    .filter((p) => p !== 0xfe0f && p !== 0xfe0e)
    .map((p) => p.toString(16))
    .join("-");
}

/** The reader's own reaction matching `emoji` (by code and type when known, else by name). */
export function myReaction(store: Store, m: Message, emoji: ReactionParams) {
  return m.reactions.find(
    (r) =>
      r.user_id === store.selfId &&
      (emoji.emoji_code !== undefined
        ? r.emoji_code === emoji.emoji_code && r.reaction_type === (emoji.reaction_type ?? r.reaction_type)
        : r.emoji_name === emoji.emoji_name),
  );
}

/**
 * Adds the reader's reaction, or removes it when it is there. A reaction
 * already added (or already gone) on the server is what was wanted: not an
 * error. Returns what happened.
 */
export async function toggleReaction(ctx: Pick<ActionContext, "store" | "session">, m: Message, emoji: ReactionParams): Promise<"added" | "removed"> {
  const client = ctx.session.machine.client;
  const mine = myReaction(ctx.store, m, emoji);
  try {
    if (mine) {
      await removeReaction(client, m.id, reactionParams(mine));
      return "removed";
    }
    // Voting for a reaction others made: use its exact name and code.
    const vote =
      emoji.emoji_code !== undefined ? m.reactions.find((r) => r.emoji_code === emoji.emoji_code && r.reaction_type === (emoji.reaction_type ?? r.reaction_type)) : undefined;
    await addReaction(client, m.id, vote ? reactionParams(vote) : emoji);
    return "added";
  } catch (err) {
    if (err instanceof ApiError && err.code === "REACTION_ALREADY_EXISTS") return "added";
    if (err instanceof ApiError && err.code === "REACTION_DOES_NOT_EXIST") return "removed";
    throw err;
  }
}

/** Runs a reaction toggle; a refusal shows the server's message. */
export function reactWith(ctx: ActionContext, m: Message, emoji: ReactionParams, label: string): void {
  ctx.attempt(async () => {
    const what = await toggleReaction(ctx, m, emoji);
    ctx.notify(what === "added" ? `Reacted with ${label}` : `Removed your ${label}`);
  });
}
