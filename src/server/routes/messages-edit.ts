// PATCH /messages/{id} (edit content, move to another topic and/or channel,
// resolve) and DELETE /messages/{id}. Permission rules follow the public
// service's defaults: content only by its sender within the edit window;
// moves by members (guests excluded) within the move windows, or anyone in
// the channel's move groups, with moderators and administrators unlimited.

import { LIMITS, nowSeconds } from "../context.js";
import { ApiError, badRequest } from "../errors.js";
import { isInGroupSetting } from "../groups.js";
import type { RequestContext, Route } from "../http.js";
import { noteMessagesChanged } from "../message-index.js";
import { deleteMessages, holdersOf, MENTION_FLAGS, mentionFlagsOf } from "../messaging.js";
import { RESOLVED_TOPIC_PREFIX } from "../narrow.js";
import { hasRealmPermission } from "../permissions.js";
import { ROLE, type Channel, type EditHistoryEntry, type Message, type State, type User } from "../state.js";
import { serverTopic } from "../wire.js";
import { applyMove, sendMoveNotifications, sendUpdateEvents, type EditPlan } from "./messages-move.js";
import { accessMessage } from "./messages-view.js";

/** realm_message_content_edit_limit_seconds of the register response. */
export const CONTENT_EDIT_LIMIT_SECS = 600;
/** Defaults of the public service for non-moderators. */
export const MOVE_WITHIN_CHANNEL_LIMIT_SECS = 3 * 86400;
export const MOVE_BETWEEN_CHANNELS_LIMIT_SECS = 7 * 86400;

const PROPAGATE_MODES = new Set(["change_one", "change_later", "change_all"]);

/** "✔ x" ↔ "x": the edit only resolves or unresolves the topic. */
export function isResolveToggle(from: string, to: string): boolean {
  return to === RESOLVED_TOPIC_PREFIX + from || from === RESOLVED_TOPIC_PREFIX + to;
}

function checkTopic(topic: string): void {
  if (topic.includes("\u0000")) throw badRequest("Topic must not contain null bytes");
  if ([...topic].length > LIMITS.maxTopicLength) throw badRequest(`Topic is too long (limit: ${LIMITS.maxTopicLength} characters)`);
}

function checkContent(content: string): string {
  if (content.includes("\u0000")) throw badRequest("Message must not contain null bytes");
  if ([...content].length > LIMITS.maxMessageLength) {
    throw badRequest(`Message is too long (limit: ${LIMITS.maxMessageLength} characters)`);
  }
  return content.trim() === "" ? "(deleted)" : content;
}

function checkMovePermission(state: State, user: User, from: Channel, to: Channel | undefined, topicChange: boolean, resolveOnly: boolean): void {
  const denied = () => badRequest("You don't have permission to move this message");
  if (resolveOnly) {
    if (!hasRealmPermission(state, user, "role:members") && !isInGroupSetting(state, user, from.groups.can_resolve_topics_group)) throw denied();
    return;
  }
  if (topicChange && !hasRealmPermission(state, user, "role:members") && !isInGroupSetting(state, user, from.groups.can_move_messages_within_channel_group)) {
    throw denied();
  }
  if (to) {
    if (!hasRealmPermission(state, user, "role:members") && !isInGroupSetting(state, user, from.groups.can_move_messages_out_of_channel_group)) {
      throw denied();
    }
    if (to.isArchived || !isInGroupSetting(state, user, to.groups.can_send_message_group)) {
      throw badRequest("You do not have permission to post in this channel.");
    }
  }
}

/** Messages a move affects: the target, or with it its topic's later/all messages the user can read. */
function affectedMessages(state: State, user: User, target: Message, mode: string): Message[] {
  if (mode === "change_one") return [target];
  const key = target.topic.toLowerCase();
  return state.messages.filter(
    (m) =>
      m.channelId === target.channelId &&
      m.topic.toLowerCase() === key &&
      (mode === "change_all" || m.id >= target.id) &&
      state.canReadMessage(user, m),
  );
}

function checkMoveTimeLimit(now: number, target: Message, moved: Message[], mode: string, betweenChannels: boolean): void {
  const limit = betweenChannels ? MOVE_BETWEEN_CHANNELS_LIMIT_SECS : MOVE_WITHIN_CHANNEL_LIMIT_SECS;
  const tooOld = (m: Message) => now - m.timestamp > limit;
  if (tooOld(target) && mode === "change_one") {
    throw badRequest(`The time limit for editing this message's ${betweenChannels ? "channel" : "topic"} has passed`);
  }
  const allowed = moved.filter((m) => !tooOld(m));
  if (allowed.length < moved.length) {
    throw new ApiError(
      400,
      "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED",
      `You only have permission to move the ${allowed.length}/${moved.length} most recent messages in this topic.`,
      {
        first_message_id_allowed_to_move: allowed[0]?.id ?? null,
        total_messages_allowed_to_move: allowed.length,
        total_messages_in_topic: moved.length,
      },
    );
  }
}

function parseEdit(ctx: RequestContext, target: Message): EditPlan {
  const { server, params, user } = ctx;
  const { state } = server;
  const rawContent = params.str("content");
  const rawTopic = params.str("topic") ?? params.str("subject");
  const streamId = params.int("stream_id");
  const mode = params.str("propagate_mode") ?? "change_one";
  const notifyOld = params.bool("send_notification_to_old_thread") ?? false;
  const notifyNew = params.bool("send_notification_to_new_thread") ?? true;
  if (!PROPAGATE_MODES.has(mode)) throw badRequest("Invalid propagate_mode");
  if (rawContent === undefined && rawTopic === undefined && streamId === undefined) throw badRequest("Nothing to change");
  if (rawContent !== undefined && streamId !== undefined) throw badRequest("Cannot change message content while changing channel");
  if (target.type === "private" && streamId !== undefined) throw badRequest("Direct messages cannot be moved to channels.");
  if (target.type === "private" && rawTopic !== undefined) throw badRequest("Direct messages cannot have topics.");

  const fromChannel = target.channelId !== null ? state.channels.get(target.channelId) : undefined;
  let toChannel: Channel | undefined;
  if (streamId !== undefined && streamId !== target.channelId) {
    toChannel = state.channels.get(streamId);
    if (!toChannel || !state.canAccessChannel(user, toChannel)) throw badRequest("Invalid channel ID");
  }
  let newTopic: string | undefined;
  if (rawTopic !== undefined) {
    const topic = serverTopic(server, rawTopic);
    checkTopic(topic);
    if (topic !== target.topic) newTopic = topic;
  }
  const moving = toChannel !== undefined || newTopic !== undefined;
  const destination = toChannel ?? fromChannel;
  const finalTopic = newTopic ?? target.topic;
  if (moving && destination) {
    if (finalTopic === "" && destination.topicsPolicy === "disable_empty_topic") throw badRequest("Topic can't be empty");
    if (finalTopic !== "" && destination.topicsPolicy === "empty_topic_only") throw badRequest("Only the empty topic is allowed in this channel.");
  }
  if (!moving && rawContent === undefined) throw badRequest("Nothing to change");
  if (!moving && mode !== "change_one") throw badRequest("Invalid propagate_mode without topic edit");

  const now = nowSeconds(server);
  const unlimited = user.role <= ROLE.moderator;
  let content: string | undefined;
  if (rawContent !== undefined) {
    if (target.senderId !== user.id) throw badRequest("You don't have permission to edit this message");
    if (now - target.timestamp > CONTENT_EDIT_LIMIT_SECS) throw badRequest("The time limit for editing this message has past");
    content = checkContent(rawContent);
  }
  const resolveOnly = newTopic !== undefined && toChannel === undefined && isResolveToggle(target.topic, newTopic);
  let moved: Message[] = [];
  if (moving && fromChannel) {
    checkMovePermission(state, user, fromChannel, toChannel, newTopic !== undefined, resolveOnly);
    moved = affectedMessages(state, user, target, mode);
    if (!unlimited && !resolveOnly) checkMoveTimeLimit(now, target, moved, mode, toChannel !== undefined);
  }
  return { target, content, newTopic, fromChannel, toChannel, mode, moved, resolveOnly, notifyOld, notifyNew, now, editor: user };
}

/** Re-derives mention flags after a content edit, keeping every other flag. */
function refreshMentions(state: State, message: Message): void {
  const flagsOf = mentionFlagsOf(state, message.content, message.channelId, message.topic);
  for (const [userId, mine] of state.userMessages) {
    const flags = mine.get(message.id);
    if (!flags) continue;
    for (const f of MENTION_FLAGS) flags.delete(f);
    for (const f of flagsOf(userId)) flags.add(f);
  }
}

function updateMessage(ctx: RequestContext): Record<string, unknown> {
  const { server, user, path } = ctx;
  const { state } = server;
  const target = accessMessage(server, user, path["message_id"]);
  const plan = parseEdit(ctx, target);
  const holdersBefore = holdersOf(state, plan.moved.length > 0 ? plan.moved : [target]);
  const origContent = target.content;
  const origTopic = target.topic;

  const entry: EditHistoryEntry = { user_id: user.id, timestamp: plan.now };
  if (plan.content !== undefined) {
    entry.prev_content = origContent;
    entry.prev_rendered_content = server.markdown.render(origContent);
    target.content = plan.content;
    target.lastEditTimestamp = plan.now;
    refreshMentions(state, target);
  }
  const access = applyMove(server, plan, entry);
  if (plan.moved.length === 0) target.editHistory = [entry, ...(target.editHistory ?? [])];
  noteMessagesChanged(state);

  sendUpdateEvents(server, plan, { origContent, origTopic, holdersBefore, ...access });
  sendMoveNotifications(server, plan, origTopic);
  return plan.content !== undefined ? { detached_uploads: [] } : {};
}

function canDelete(state: State, user: User, m: Message): boolean {
  const channel = m.channelId !== null ? state.channels.get(m.channelId) : undefined;
  if (user.role <= ROLE.admin) return true;
  if (channel && isInGroupSetting(state, user, channel.groups.can_delete_any_message_group)) return true;
  if (m.senderId !== user.id) return false;
  return hasRealmPermission(state, user, "role:everyone") || (channel !== undefined && isInGroupSetting(state, user, channel.groups.can_delete_own_message_group));
}

function deleteMessage(ctx: RequestContext): Record<string, unknown> {
  const { server, user, path } = ctx;
  const message = accessMessage(server, user, path["message_id"]);
  if (!canDelete(server.state, user, message)) throw badRequest("You don't have permission to delete this message");
  deleteMessages(server, [message]);
  return {};
}

export const messageEditRoutes: Route[] = [
  { method: "PATCH", path: "/messages/:message_id", handler: updateMessage },
  { method: "DELETE", path: "/messages/:message_id", handler: deleteMessage },
];
