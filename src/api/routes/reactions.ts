/** Emoji reactions on messages. */
import type { ApiClient } from "../http.js";
import { emptySuccessSchema } from "../schemas/responses.js";
import type { ReactionType } from "./status.js";

export interface ReactionParams {
  emoji_name: string;
  /** Disambiguates votes on reactions made under older emoji mappings. */
  emoji_code?: string;
  reaction_type?: ReactionType;
}

/** Not retried: a repeat after a lost answer fails with REACTION_ALREADY_EXISTS. */
export function addReaction(client: ApiClient, messageId: number, p: ReactionParams) {
  return client.request("POST", `messages/${messageId}/reactions`, {
    params: p,
    schema: emptySuccessSchema,
    idempotent: false,
  });
}

/** Not retried: the reaction is named, not numbered, and may have been added again meanwhile. */
export function removeReaction(client: ApiClient, messageId: number, p: ReactionParams) {
  return client.request("DELETE", `messages/${messageId}/reactions`, {
    params: p,
    schema: emptySuccessSchema,
    idempotent: false,
  });
}
