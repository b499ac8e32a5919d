// Creating messages (recipients and their initial flags) and telling the
// event queues about them. Shared by the send route and by the seeds.

import type { ServerContext } from "./context.js";
import { findMentions } from "./mentions.js";
import { compileNarrow } from "./narrow.js";
import type { EventQueue } from "./queues.js";
import type { Channel, Flag, Message, State, User } from "./state.js";
import { messageToWire } from "./wire.js";

export interface NewMessage {
  sender: User;
  /** Channel message: the channel and topic. */
  channel?: Channel;
  topic?: string;
  /** Direct message: every other participant (the sender is added). */
  to?: number[];
  content: string;
  client: string;
  timestamp: number;
  /** Whether the sender's copy starts read (default true). */
  readBySender?: boolean;
  /** Id to use (seeds); default: the next free id. */
  id?: number;
}

/** Builds the message, gives every recipient its flags, and stores it. */
export function deliverMessage(state: State, input: NewMessage): Message {
  const id = input.id ?? state.allocate("message");
  if (input.id !== undefined) state.reserveIds("message", input.id + 1);
  let message: Message;
  let recipientIds: number[];
  if (input.channel) {
    message = {
      id,
      senderId: input.sender.id,
      type: "stream",
      channelId: input.channel.id,
      topic: input.topic ?? "",
      dmUserIds: [],
      recipientId: input.channel.recipientId,
      content: input.content,
      timestamp: input.timestamp,
      client: input.client,
      reactions: [],
    };
    recipientIds = [...new Set([...state.subscriberIds(input.channel.id), input.sender.id])];
  } else {
    const participants = [...new Set([...(input.to ?? []), input.sender.id])].sort((a, b) => a - b);
    message = {
      id,
      senderId: input.sender.id,
      type: "private",
      channelId: null,
      topic: "",
      dmUserIds: participants,
      recipientId: state.dmRecipientId(participants),
      content: input.content,
      timestamp: input.timestamp,
      client: input.client,
      reactions: [],
    };
    recipientIds = participants;
  }

  const mentions = findMentions(state, input.content);
  const topicParticipants = new Set<number>();
  if (mentions.topicWildcard && message.channelId !== null) {
    const key = message.topic.toLowerCase();
    for (const m of state.messages) {
      if (m.channelId === message.channelId && m.topic.toLowerCase() === key) topicParticipants.add(m.senderId);
    }
  }
  const recipients = new Map<number, Set<Flag>>();
  for (const userId of recipientIds) {
    const flags = new Set<Flag>();
    if (userId === input.sender.id && input.readBySender !== false) flags.add("read");
    if (mentions.userIds.has(userId)) flags.add("mentioned");
    if (mentions.channelWildcard) flags.add("stream_wildcard_mentioned");
    if (mentions.topicWildcard && topicParticipants.has(userId)) flags.add("topic_wildcard_mentioned");
    if (flags.has("stream_wildcard_mentioned") || flags.has("topic_wildcard_mentioned")) flags.add("wildcard_mentioned");
    recipients.set(userId, flags);
  }
  state.insertMessage(message, recipients);
  return message;
}

/** Sends a `message` event to every queue that should see the new message. */
export function notifyNewMessage(
  ctx: ServerContext,
  message: Message,
  echo: { queueId?: string; localId?: string } = {},
): void {
  const { state, queues } = ctx;
  const channel = message.channelId !== null ? state.channels.get(message.channelId) : undefined;
  for (const queue of queues.all()) {
    if (!queue.wants("message")) continue;
    const user = state.users.get(queue.userId);
    if (!user) continue;
    const flags = state.flags(user.id, message.id);
    const viaPublic = !flags && queue.settings.allPublicStreams && channel !== undefined && !channel.inviteOnly;
    if (!flags && !viaPublic) continue;
    let matches = true;
    try {
      matches = compileNarrow(queue.settings.narrow, state, user).matches(message);
    } catch {
      matches = false;
    }
    if (!matches) continue;
    const event: Record<string, unknown> = {
      type: "message",
      message: messageToWire(ctx, message, {
        applyMarkdown: queue.settings.applyMarkdown,
        clientGravatar: queue.settings.clientGravatar,
        allowEmptyTopicName: queue.capability("empty_topic_name"),
      }),
      flags: state.viewFlags(user.id, message.id),
    };
    if (echo.queueId === queue.id && echo.localId !== undefined && user.id === message.senderId) {
      event["local_message_id"] = echo.localId;
    }
    queues.push(queue, event as { type: string });
  }
}

type EventBody = { type: string; [k: string]: unknown };

/**
 * Sends an event to every queue of one user that asked for its type. `build`
 * may shape the event per queue (for client capabilities).
 */
export function notifyUser(
  ctx: ServerContext,
  userId: number,
  type: string,
  build: (queue: EventQueue) => EventBody,
): void {
  for (const queue of ctx.queues.forUser(userId)) {
    if (queue.wants(type)) ctx.queues.push(queue, build(queue));
  }
}
