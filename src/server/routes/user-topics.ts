// POST /user_topics: a user's visibility policy for one topic
// (0 none, 1 muted, 2 unmuted, 3 followed), with a `user_topic` event.

import { LIMITS, nowSeconds } from "../context.js";
import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import { clientTopic, serverTopic } from "../wire.js";

export const userTopicRoutes: Route[] = [
  {
    method: "POST",
    path: "/user_topics",
    handler({ server, params, user }) {
      const { state } = server;
      const channelId = params.reqInt("stream_id");
      const topicParam = params.reqStr("topic");
      const policy = params.reqInt("visibility_policy");
      if (![0, 1, 2, 3].includes(policy)) throw badRequest("Invalid visibility_policy");
      if ([...topicParam].length > LIMITS.maxTopicLength) {
        throw badRequest(`topic is too long (limit: ${LIMITS.maxTopicLength} characters)`);
      }
      if (topicParam.includes("\u0000")) throw badRequest("Topic must not contain null bytes");
      const channel = state.channels.get(channelId);
      if (!channel || !state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
      const topic = serverTopic(server, topicParam);
      const key = topic.toLowerCase();
      const index = state.userTopics.findIndex((t) => t.userId === user.id && t.channelId === channelId && t.topic.toLowerCase() === key);
      const now = nowSeconds(server);
      if (policy === 0) {
        if (index >= 0) state.userTopics.splice(index, 1);
      } else if (index >= 0) {
        const entry = state.userTopics[index]!;
        entry.visibilityPolicy = policy;
        entry.lastUpdated = now;
      } else {
        state.userTopics.push({ userId: user.id, channelId, topic, visibilityPolicy: policy, lastUpdated: now });
      }
      const stored = index >= 0 && policy !== 0 ? state.userTopics[index]!.topic : topic;
      sendToUsers(server, [user.id], "user_topic", (queue) => ({
        type: "user_topic",
        stream_id: channelId,
        topic_name: clientTopic(server, stored, queue.capability("empty_topic_name")),
        last_updated: now,
        visibility_policy: policy,
      }));
      return {};
    },
  },
];
