// POST /typing: typing notifications for a direct-message conversation (to
// every participant) or a channel topic (to subscribers whose queues declared
// stream_typing_notifications).

import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import { serverTopic, clientTopic } from "../wire.js";

function receivesTyping(settings: Record<string, unknown> | undefined): boolean {
  return settings?.["receives_typing_notifications"] !== false;
}

export const typingRoutes: Route[] = [
  {
    method: "POST",
    path: "/typing",
    handler({ server, params, user }) {
      const { state } = server;
      const op = params.reqStr("op");
      if (op !== "start" && op !== "stop") throw badRequest("Invalid op");
      const rawType = params.str("type") ?? "direct";
      const type = rawType === "private" ? "direct" : rawType === "channel" ? "stream" : rawType;
      if (type !== "direct" && type !== "stream") throw badRequest("Invalid type");
      const sender = { user_id: user.id, email: user.email };

      if (type === "direct") {
        const to = params.intList("to");
        if (to === undefined || to.length === 0) throw badRequest("Empty 'to' list");
        const users = to.map((id) => {
          const u = state.users.get(id);
          if (!u || !u.isActive) throw badRequest(`Invalid user ID ${id}`);
          return u;
        });
        const participants = [...new Map([...users, user].map((u) => [u.id, u])).values()].sort((a, b) => a.id - b.id);
        const recipients = participants.map((u) => ({ user_id: u.id, email: u.email }));
        const targets = participants.filter((u) => receivesTyping(state.userSettings.get(u.id))).map((u) => u.id);
        sendToUsers(server, targets, "typing", { type: "typing", op, message_type: "direct", sender, recipients });
        return {};
      }

      const channelId = params.int("stream_id");
      if (channelId === undefined) throw badRequest("Missing channel ID");
      const topicParam = params.str("topic");
      if (topicParam === undefined) throw badRequest("Missing topic");
      params.accept("to");
      const channel = state.channels.get(channelId);
      if (!channel || !state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
      const topic = serverTopic(server, topicParam);
      const targets = state.subscriberIds(channel.id).filter((id) => id !== user.id && receivesTyping(state.userSettings.get(id)));
      sendToUsers(server, targets, "typing", (queue) =>
        queue.capability("stream_typing_notifications")
          ? { type: "typing", op, message_type: "stream", sender, stream_id: channel.id, topic: clientTopic(server, topic, queue.capability("empty_topic_name")) }
          : null,
      );
      return {};
    },
  },
];
