/** Adding and taking back the reader's emoji reactions. */
import { ApiError } from "../../api/errors.js";
import { addReaction, removeReaction, type ReactionParams } from "../../api/routes/reactions.js";
import type { ReactionType } from "../../api/routes/status.js";
import type { Message, Reaction } from "../../api/schemas/common.js";
import type { Store } from "../../model/store.js";
import { perform, type ActionResult, type ActionSession } from "./result.js";

export type { ReactionParams } from "../../api/routes/reactions.js";

/** What identifies an existing reaction to the server (to vote for it, or take one's own back). */
export function reactionParams(r: Pick<Reaction, "emoji_name" | "emoji_code" | "reaction_type">): ReactionParams {
  return { emoji_name: r.emoji_name, emoji_code: r.emoji_code, reaction_type: r.reaction_type as ReactionType };
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
 * already added (or already gone) on the server is what was wanted: not a
 * failure. The value says what happened.
 */
export function toggleReaction(session: ActionSession, store: Store, m: Message, emoji: ReactionParams): Promise<ActionResult<"added" | "removed">> {
  const client = session.machine.client;
  const mine = myReaction(store, m, emoji);
  return perform(async () => {
    try {
      if (mine) {
        await removeReaction(client, m.id, reactionParams(mine));
        return "removed" as const;
      }
      // Voting for a reaction others made: use its exact name and code.
      const vote =
        emoji.emoji_code !== undefined ? m.reactions.find((r) => r.emoji_code === emoji.emoji_code && r.reaction_type === (emoji.reaction_type ?? r.reaction_type)) : undefined;
      await addReaction(client, m.id, vote ? reactionParams(vote) : emoji);
      return "added" as const;
    } catch (err) {
      if (err instanceof ApiError && err.code === "REACTION_ALREADY_EXISTS") return "added" as const;
      if (err instanceof ApiError && err.code === "REACTION_DOES_NOT_EXIST") return "removed" as const;
      throw err;
    }
  });
}
