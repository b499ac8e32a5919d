// Creating messages (recipients and their initial flags) and telling the
// event queues about new, edited and deleted messages. Shared by the message
// routes and by the seeds.

import { randomBytes } from "node:crypto";
import type { ServerContext } from "./context.js";
import { findMentions } from "./mentions.js";
import { removeMessage } from "./message-index.js";
import { compileNarrow } from "./narrow.js";
import type { EventQueue } from "./queues.js";
import { ROLE, type Channel, type Flag, type Message, type State, type User } from "./state.js";
import { dropSubmessages, startWidget } from "./submessages.js";
import { clientTopic, messageToWire } from "./wire.js";

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

export const MENTION_FLAGS: readonly Flag[] = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "wildcard_mentioned"];

/** The mention flags `content` gives each user, for a message in `channelId`/`topic` (null: a DM). */
export function mentionFlagsOf(state: State, content: string, channelId: number | null, topic: string): (userId: number) => Flag[] {
  const mentions = findMentions(state, content);
  const topicParticipants = new Set<number>();
  if (mentions.topicWildcard && channelId !== null) {
    const key = topic.toLowerCase();
    for (const m of state.messages) {
      if (m.channelId === channelId && m.topic.toLowerCase() === key) topicParticipants.add(m.senderId);
    }
  }
  return (userId) => {
    const out: Flag[] = [];
    if (mentions.userIds.has(userId)) out.push("mentioned");
    if (mentions.channelWildcard) out.push("stream_wildcard_mentioned");
    if (mentions.topicWildcard && topicParticipants.has(userId)) out.push("topic_wildcard_mentioned");
    if (out.some((f) => f !== "mentioned")) out.push("wildcard_mentioned");
    return out;
  };
}

/** Builds the message, gives every recipient its flags, and stores it. */
export function deliverMessage(state: State, input: NewMessage): Message {
  const id = input.id ?? state.allocate("message");
  if (input.id !== undefined) state.reserveIds("message", input.id + 1);
  let message: Message;
  let recipientIds: number[];
  const base = {
    id,
    senderId: input.sender.id,
    content: input.content,
    timestamp: input.timestamp,
    client: input.client,
    reactions: [],
  };
  if (input.channel) {
    message = { ...base, type: "stream", channelId: input.channel.id, topic: input.topic ?? "", dmUserIds: [], recipientId: input.channel.recipientId };
    recipientIds = [...new Set([...state.subscriberIds(input.channel.id), input.sender.id])];
  } else {
    const participants = [...new Set([...(input.to ?? []), input.sender.id])].sort((a, b) => a - b);
    message = { ...base, type: "private", channelId: null, topic: "", dmUserIds: participants, recipientId: state.dmRecipientId(participants) };
    recipientIds = participants;
  }
  const mentionFlags = mentionFlagsOf(state, input.content, message.channelId, message.topic);
  const recipients = new Map<number, Set<Flag>>();
  for (const userId of recipientIds) {
    const flags = new Set<Flag>(mentionFlags(userId));
    if (userId === input.sender.id && input.readBySender !== false) flags.add("read");
    recipients.set(userId, flags);
  }
  state.insertMessage(message, recipients);
  startWidget(state, message);
  return message;
}

/** Whether the queue's register-time narrow lets this message event through. */
function passesQueueNarrow(ctx: ServerContext, queue: EventQueue, user: User, message: Message): boolean {
  if (queue.settings.narrow.length === 0) return true;
  try {
    return compileNarrow(queue.settings.narrow, ctx.state, user).matches(message);
  } catch {
    return false;
  }
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
    if (!passesQueueNarrow(ctx, queue, user, message)) continue;
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

/** Users holding (having received) any of the messages. */
export function holdersOf(state: State, messages: readonly Message[]): Set<number> {
  const out = new Set<number>();
  for (const [userId, mine] of state.userMessages) {
    if (mine.size === 0) continue;
    for (const m of messages) {
      if (mine.has(m.id)) {
        out.add(userId);
        break;
      }
    }
  }
  return out;
}

/**
 * Deletes messages and sends `delete_message` to every queue whose user could
 * read them: one event with `message_ids` per conversation for clients with
 * bulk_message_deletion, else one event per message with `message_id`.
 */
export function deleteMessages(ctx: ServerContext, messages: readonly Message[]): void {
  const { state, queues } = ctx;
  const plans: { queue: EventQueue; ids: Message[] }[] = [];
  for (const queue of queues.all()) {
    if (!queue.wants("delete_message")) continue;
    const user = state.users.get(queue.userId);
    if (!user) continue;
    const visible = messages.filter((m) => state.canReadMessage(user, m));
    if (visible.length > 0) plans.push({ queue, ids: visible });
  }
  for (const m of messages) {
    removeMessage(state, m.id);
    dropSubmessages(state, m.id);
  }
  for (const { queue, ids } of plans) {
    const groups = new Map<string, Message[]>();
    for (const m of ids) {
      const key = `${m.channelId}\u0000${m.topic}`;
      groups.set(key, [...(groups.get(key) ?? []), m]);
    }
    for (const group of groups.values()) {
      const first = group[0]!;
      pushDeleteEvents(ctx, queue, group.map((m) => m.id), { type: first.type, channelId: first.channelId, topic: first.topic });
    }
  }
}

/**
 * delete_message events for messages of one conversation: one event with
 * `message_ids` for clients with bulk_message_deletion, else one per message.
 */
export function pushDeleteEvents(
  ctx: ServerContext,
  queue: EventQueue,
  ids: number[],
  where: { type: Message["type"]; channelId: number | null; topic: string },
): void {
  const place: Record<string, unknown> =
    where.type === "stream"
      ? { message_type: "stream", stream_id: where.channelId, topic: clientTopic(ctx, where.topic, queue.capability("empty_topic_name")) }
      : { message_type: "private" };
  if (queue.capability("bulk_message_deletion")) {
    ctx.queues.push(queue, { type: "delete_message", message_ids: [...ids].sort((a, b) => a - b), ...place });
  } else {
    for (const id of ids) ctx.queues.push(queue, { type: "delete_message", message_id: id, ...place });
  }
}

/** The cross-realm bot that posts notices about moved and resolved topics (created on first use). */
export function notificationBot(state: State): User {
  const email = `notification-bot@${state.realm.emailDomain}`;
  const existing = state.userByEmail(email);
  if (existing) return existing;
  return state.addUser({
    id: state.allocate("user"),
    email,
    fullName: "Notification Bot",
    role: ROLE.member,
    isBot: true,
    botType: 4,
    botOwnerId: null,
    isActive: true,
    dateJoined: new Date(state.realm.dateCreated * 1000).toISOString(),
    timezone: "",
    avatarVersion: 1,
    apiKey: randomBytes(24).toString("base64url"), // never handed out: the bot cannot log in
    password: "",
  });
}
