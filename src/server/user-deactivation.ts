// Deactivating a user: their bots first, optional deletion of profile and
// messages, and the events that tell every client.

import { sendPeerEvent } from "./channel-events.js";
import type { ServerContext } from "./context.js";
import { sendToRealm, sendToUsers } from "./notify.js";
import { messageAudience } from "./routes/reactions.js";
import { ROLE, type Message, type User } from "./state.js";

export interface DeactivationActions {
  delete_profile: boolean;
  delete_public_channel_messages: boolean;
  delete_private_channel_messages: boolean;
  delete_direct_messages: boolean;
}

export const ACTION_NAMES: (keyof DeactivationActions)[] = [
  "delete_profile",
  "delete_public_channel_messages",
  "delete_private_channel_messages",
  "delete_direct_messages",
];

function deleteMessages(server: ServerContext, user: User, actions: DeactivationActions): void {
  const { state } = server;
  const doomed = state.messages.filter((m) => {
    if (m.senderId !== user.id) return false;
    if (m.type === "private") return actions.delete_direct_messages;
    const channel = m.channelId !== null ? state.channels.get(m.channelId) : undefined;
    return channel?.inviteOnly ? actions.delete_private_channel_messages : actions.delete_public_channel_messages;
  });
  if (doomed.length === 0) return;
  const audiences = new Map<Message, number[]>(doomed.map((m) => [m, messageAudience(server, m)]));
  for (const m of doomed) state.removeMessage(m.id);
  for (const [m, audience] of audiences) {
    const base: Record<string, unknown> =
      m.type === "stream" ? { message_type: "stream", stream_id: m.channelId, topic: m.topic } : { message_type: "private" };
    sendToUsers(server, audience, "delete_message", (queue) => ({
      type: "delete_message",
      ...(queue.capability("bulk_message_deletion") ? { message_ids: [m.id] } : { message_id: m.id }),
      ...base,
      ...(m.type === "stream" && m.topic === "" && !queue.capability("empty_topic_name")
        ? { topic: state.realm.emptyTopicDisplayName }
        : {}),
    }));
  }
}

function deactivateOne(server: ServerContext, user: User, actions: DeactivationActions): void {
  const { state } = server;
  const channels = [...(state.subscriptions.get(user.id)?.values() ?? [])].filter((s) => s.active).map((s) => s.channelId);
  deleteMessages(server, user, actions);
  user.isActive = false;
  if (actions.delete_profile) {
    user.fullName = `Deleted User ${user.id}`;
    user.avatarVersion += 1;
    state.deletedUserIds.add(user.id);
    sendToRealm(server, "realm_user", { type: "realm_user", op: "update", person: { user_id: user.id, full_name: user.fullName } });
  }
  sendToRealm(server, "realm_user", { type: "realm_user", op: "update", person: { user_id: user.id, is_active: false } });
  if (user.isBot) {
    const admins = [...state.users.values()].filter((u) => u.isActive && u.role <= ROLE.admin).map((u) => u.id);
    const owner = user.botOwnerId !== null ? [user.botOwnerId] : [];
    sendToUsers(server, [...admins, ...owner], "realm_bot", { type: "realm_bot", op: "remove", bot: { user_id: user.id, full_name: user.fullName } });
  }
  // Subscriber lists leave out deactivated users.
  for (const id of channels) {
    const channel = state.channels.get(id);
    if (channel) sendPeerEvent(server, channel, "peer_remove", [user.id]);
  }
}

/** Deactivates `user` after the active bots they own. */
export function deactivateUser(server: ServerContext, user: User, actions: DeactivationActions): void {
  for (const bot of server.state.users.values()) {
    if (bot.isBot && bot.isActive && bot.botOwnerId === user.id) deactivateOne(server, bot, actions);
  }
  deactivateOne(server, user, actions);
}
