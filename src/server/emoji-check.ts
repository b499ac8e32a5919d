// Resolving and validating emoji of reactions and statuses: unicode emoji by
// name or dash-separated codepoints, custom (realm) emoji by id, and the
// service's extra emoji (`svc_extra_emoji`, code = name).

import { UNICODE_EMOJI } from "./emoji.js";
import { badRequest } from "./errors.js";
import type { Reaction, State } from "./state.js";

export type ReactionType = Reaction["reactionType"];
export const REACTION_TYPES: ReactionType[] = ["unicode_emoji", "realm_emoji", "svc_extra_emoji"];
const EXTRA_EMOJI = new Set(["zulip"]);
const UNICODE_CODES = new Set(Object.values(UNICODE_EMOJI));

export function parseReactionType(raw: string | undefined): ReactionType | undefined {
  if (raw === undefined) return undefined;
  const t = raw.trim().replace(/^"(.*)"$/, "$1");
  const mapped = t === "zulip_extra_emoji" ? "svc_extra_emoji" : t;
  if (!REACTION_TYPES.includes(mapped as ReactionType)) throw badRequest("Invalid reaction_type");
  return mapped as ReactionType;
}

/** The code and type of an emoji name, or "Emoji '<name>' does not exist". */
export function emojiByName(state: State, name: string): { code: string; type: ReactionType } {
  for (const e of state.realmEmoji.values()) if (!e.deactivated && e.name === name) return { code: e.id, type: "realm_emoji" };
  if (EXTRA_EMOJI.has(name)) return { code: name, type: "svc_extra_emoji" };
  const code = UNICODE_EMOJI[name];
  if (code !== undefined) return { code, type: "unicode_emoji" };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Checks that name, code and type agree; `codeMessage` is the reaction/status wording. */
export function checkEmoji(state: State, name: string, code: string, type: ReactionType, codeMessage: string): void {
  if (type === "realm_emoji") {
    const e = state.realmEmoji.get(code);
    if (!e || e.deactivated) throw badRequest("Invalid custom emoji.");
    if (e.name !== name) throw badRequest("Invalid custom emoji name.");
    return;
  }
  if (type === "svc_extra_emoji") {
    if (!EXTRA_EMOJI.has(code)) throw badRequest(codeMessage);
    if (name !== code) throw badRequest("Invalid emoji name.");
    return;
  }
  if (!UNICODE_CODES.has(code)) throw badRequest(codeMessage);
  if (UNICODE_EMOJI[name] !== code) throw badRequest("Invalid emoji name.");
}
