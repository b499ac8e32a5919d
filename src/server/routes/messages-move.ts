// The effects of an accepted message edit: moving messages (edit history,
// access changes when they change channel), the update_message and
// delete_message events for every affected queue, and the notification
// messages about moved or resolved topics.

import type { ServerContext } from "../context.js";
import { deliverMessage, notificationBot, notifyNewMessage, pushDeleteEvents } from "../messaging.js";
import { canReadChannelHistory, RESOLVED_TOPIC_PREFIX } from "../narrow.js";
import type { Channel, EditHistoryEntry, Flag, Message, State, User } from "../state.js";
import { clientTopic } from "../wire.js";

export interface EditPlan {
  target: Message;
  /** New content (already validated), when the content changes. */
  content: string | undefined;
  /** New topic, when it changes. */
  newTopic: string | undefined;
  fromChannel: Channel | undefined;
  /** Destination channel, when the channel changes. */
  toChannel: Channel | undefined;
  mode: string;
  /** Messages moved to the new topic/channel (empty for a content-only edit). */
  moved: Message[];
  /** The move only adds or removes the resolved-topic prefix. */
  resolveOnly: boolean;
  notifyOld: boolean;
  notifyNew: boolean;
  now: number;
  editor: User;
}

export interface AccessChanges {
  /** userId → ids of moved messages the user can no longer read. */
  lost: Map<number, number[]>;
  /** Users who received moved messages because they are subscribed to the destination. */
  gained: Set<number>;
}

/** Whether `user` keeps access to a message now in `channel`. */
export function keepsAccess(state: State, user: User, channel: Channel): boolean {
  return state.subscription(user.id, channel.id) !== undefined || canReadChannelHistory(state, user, channel);
}

/** Moves the messages; `targetEntry` is the target's history entry (it may already hold a content change). */
export function applyMove(server: ServerContext, plan: EditPlan, targetEntry: EditHistoryEntry): AccessChanges {
  const { state } = server;
  const changes: AccessChanges = { lost: new Map(), gained: new Set() };
  if (plan.moved.length === 0) return changes;
  for (const m of plan.moved) {
    const entry: EditHistoryEntry = m === plan.target ? targetEntry : { user_id: plan.editor.id, timestamp: plan.now };
    if (plan.newTopic !== undefined) {
      entry.prev_topic = m.topic;
      entry.topic = plan.newTopic;
      m.topic = plan.newTopic;
    }
    if (plan.toChannel && m.channelId !== null) {
      entry.prev_stream = m.channelId;
      entry.stream = plan.toChannel.id;
      m.channelId = plan.toChannel.id;
      m.recipientId = plan.toChannel.recipientId;
    }
    // Resolving or unresolving a topic is not a move.
    if (!plan.resolveOnly) m.lastMovedTimestamp = plan.now;
    m.editHistory = [entry, ...(m.editHistory ?? [])];
  }
  const to = plan.toChannel;
  if (!to) return changes;
  for (const [userId, mine] of state.userMessages) {
    const user = state.users.get(userId);
    if (!user || keepsAccess(state, user, to)) continue;
    for (const m of plan.moved) {
      if (mine.delete(m.id)) changes.lost.set(userId, [...(changes.lost.get(userId) ?? []), m.id]);
    }
  }
  // Subscribers of the destination get the moved messages into their history, as read.
  for (const userId of state.subscriberIds(to.id)) {
    const mine = state.userMessages.get(userId);
    if (!mine) continue;
    for (const m of plan.moved) {
      if (mine.has(m.id)) continue;
      mine.set(m.id, new Set<Flag>(["read"]));
      changes.gained.add(userId);
    }
  }
  return changes;
}

export interface EditBefore extends AccessChanges {
  origContent: string;
  origTopic: string;
  holdersBefore: Set<number>;
}

export function sendUpdateEvents(server: ServerContext, plan: EditPlan, before: EditBefore): void {
  const { state, queues } = server;
  const { target } = plan;
  const ids = (plan.moved.length > 0 ? plan.moved : [target]).map((m) => m.id).sort((a, b) => a - b);
  const isPublic = (c: Channel | undefined) => c !== undefined && !c.inviteOnly;
  const anyPublic = isPublic(plan.fromChannel) || isPublic(plan.toChannel);
  const where = { type: target.type, channelId: plan.fromChannel?.id ?? null, topic: before.origTopic };
  for (const queue of queues.all()) {
    const userId = queue.userId;
    const lost = before.lost.get(userId) ?? [];
    if (lost.length > 0 && queue.wants("delete_message")) pushDeleteEvents(server, queue, lost, where);
    const holds = (before.holdersBefore.has(userId) && lost.length < ids.length) || before.gained.has(userId);
    const viaPublic = queue.settings.allPublicStreams && anyPublic && lost.length === 0;
    if (!(holds || viaPublic) || !queue.wants("update_message")) continue;
    const allowEmpty = queue.capability("empty_topic_name");
    const flags = state.flags(userId, target.id);
    const event: Record<string, unknown> & { type: string } = {
      type: "update_message",
      user_id: plan.editor.id,
      edit_timestamp: plan.now,
      message_id: target.id,
      message_ids: ids,
      flags: flags ? [...flags].sort() : [],
      rendering_only: false,
    };
    if (plan.fromChannel) {
      event["stream_id"] = plan.fromChannel.id;
      event["stream_name"] = plan.fromChannel.name;
    }
    if (plan.content !== undefined) {
      event["orig_content"] = before.origContent;
      event["orig_rendered_content"] = server.markdown.render(before.origContent);
      event["content"] = target.content;
      event["rendered_content"] = server.markdown.render(target.content);
      event["is_me_message"] = /^\/me\s/.test(target.content);
    }
    if (plan.moved.length > 0) {
      event["propagate_mode"] = plan.mode;
      event["orig_subject"] = clientTopic(server, before.origTopic, allowEmpty);
      if (plan.newTopic !== undefined) {
        event["subject"] = clientTopic(server, plan.newTopic, allowEmpty);
        event["topic_links"] = [];
      }
      if (plan.toChannel) event["new_stream_id"] = plan.toChannel.id;
    }
    queues.push(queue, event);
  }
}

function post(server: ServerContext, plan: EditPlan, channel: Channel, topic: string, content: string): void {
  const message = deliverMessage(server.state, {
    sender: notificationBot(server.state),
    channel,
    topic,
    content,
    client: "Internal",
    timestamp: plan.now,
  });
  // The editor caused the notice; it starts read for them.
  server.state.flags(plan.editor.id, message.id)?.add("read");
  notifyNewMessage(server, message);
}

/** Notices in the old and/or new topic, or the resolved/unresolved notice. */
export function sendMoveNotifications(server: ServerContext, plan: EditPlan, origTopic: string): void {
  const from = plan.fromChannel;
  if (!from || plan.moved.length === 0) return;
  const who = `@_**${plan.editor.fullName}|${plan.editor.id}**`;
  const to = plan.toChannel ?? from;
  const newTopic = plan.newTopic ?? origTopic;
  if (plan.resolveOnly) {
    if (plan.mode !== "change_all") return;
    const resolved = newTopic.startsWith(RESOLVED_TOPIC_PREFIX);
    post(server, plan, to, newTopic, `${who} marked this topic as ${resolved ? "resolved" : "unresolved"}.`);
    return;
  }
  const count = plan.moved.length;
  const some = `${count} message${count === 1 ? " was" : "s were"}`;
  const oldLink = `#**${from.name}>${origTopic}**`;
  const newLink = `#**${to.name}>${newTopic}**`;
  if (plan.notifyNew) {
    const text = plan.mode === "change_all" ? `This topic was moved here from ${oldLink} by ${who}.` : `${some} moved here from ${oldLink} by ${who}.`;
    post(server, plan, to, newTopic, text);
  }
  if (plan.notifyOld) {
    const text = plan.mode === "change_all" ? `This topic was moved to ${newLink} by ${who}.` : `${some} moved from this topic to ${newLink} by ${who}.`;
    post(server, plan, from, origTopic, text);
  }
}
