// POST and DELETE /messages/{message_id}/reactions: emoji reactions, with a
// `reaction` event to everyone who received the message (and the channel's
// current subscribers who can read it).

import type { ServerContext } from "../context.js";
import { ApiError, badRequest } from "../errors.js";
import { checkEmoji, emojiByName, parseReactionType, type ReactionType } from "../emoji-check.js";
import type { RequestContext, Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import type { Flag, Message, Reaction, User } from "../state.js";

function messageFromPath(ctx: RequestContext): Message {
  const raw = ctx.path["message_id"] ?? "";
  const message = /^\d+$/.test(raw) ? ctx.server.state.messagesById.get(Number(raw)) : undefined;
  if (!message || !ctx.server.state.canReadMessage(ctx.user, message)) throw badRequest("Invalid message(s)");
  return message;
}

export function messageAudience(server: ServerContext, message: Message): number[] {
  const { state } = server;
  const ids = new Set<number>();
  for (const [userId, mine] of state.userMessages) if (mine.has(message.id)) ids.add(userId);
  if (message.channelId !== null) {
    for (const id of state.subscriberIds(message.channelId)) {
      const u = state.users.get(id);
      if (u && state.canReadMessage(u, message)) ids.add(id);
    }
  }
  return [...ids].filter((id) => state.users.get(id)?.isActive);
}

function sendReactionEvent(server: ServerContext, op: "add" | "remove", message: Message, user: User, r: Reaction): void {
  sendToUsers(server, messageAudience(server, message), "reaction", {
    type: "reaction",
    op,
    user_id: user.id,
    user: { user_id: user.id, email: user.email, full_name: user.fullName },
    message_id: message.id,
    emoji_name: r.emojiName,
    emoji_code: r.emojiCode,
    reaction_type: r.reactionType,
  });
}

function addReaction(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const { state } = server;
  const message = messageFromPath(ctx);
  const name = params.reqStr("emoji_name");
  let code = params.str("emoji_code");
  let type = parseReactionType(params.str("reaction_type"));
  if (code === undefined) {
    const found = emojiByName(state, name);
    code = found.code;
    type ??= found.type;
  }
  type ??= code !== undefined && state.realmEmoji.has(code) ? "realm_emoji" : "unicode_emoji";
  const mine = message.reactions.find((r) => r.userId === user.id && r.emojiCode === code && r.reactionType === type);
  if (mine) throw new ApiError(400, "REACTION_ALREADY_EXISTS", "Reaction already exists.");
  // Voting for an existing reaction accepts its (possibly older) name.
  const vote = message.reactions.find((r) => r.emojiCode === code && r.reactionType === type);
  if (!vote) checkEmoji(state, name, code, type as ReactionType, "Invalid emoji code");
  const reaction: Reaction = { emojiName: vote?.emojiName ?? name, emojiCode: code, reactionType: type as ReactionType, userId: user.id };
  message.reactions.push(reaction);
  if (!state.flags(user.id, message.id)) {
    state.userMessages.get(user.id)?.set(message.id, new Set<Flag>(["read", "historical"]));
  }
  sendReactionEvent(server, "add", message, user, reaction);
  return {};
}

function removeReaction(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const { state } = server;
  const message = messageFromPath(ctx);
  const name = params.str("emoji_name");
  let code = params.str("emoji_code");
  let type = parseReactionType(params.str("reaction_type"));
  if (name === undefined && code === undefined) {
    throw badRequest("At least one of the following arguments must be present: emoji_name, emoji_code");
  }
  if (code === undefined) {
    const found = emojiByName(state, name!);
    code = found.code;
    type ??= found.type;
  }
  type ??= "unicode_emoji";
  const index = message.reactions.findIndex((r) => r.userId === user.id && r.emojiCode === code && r.reactionType === type);
  if (index < 0) throw new ApiError(400, "REACTION_DOES_NOT_EXIST", "Reaction doesn't exist.");
  const [reaction] = message.reactions.splice(index, 1);
  sendReactionEvent(server, "remove", message, user, reaction!);
  return {};
}

export const reactionRoutes: Route[] = [
  { method: "POST", path: "/messages/:message_id/reactions", handler: addReaction },
  { method: "DELETE", path: "/messages/:message_id/reactions", handler: removeReaction },
];
