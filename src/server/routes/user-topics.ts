// A user's visibility policy for one topic (0 none, 1 muted, 2 unmuted,
// 3 followed): POST /user_topics, and the deprecated
// PATCH /users/me/subscriptions/muted_topics (op add/remove, the channel by
// stream_id or by name). Each change sends a `user_topic` event and the
// legacy `muted_topics` list.

import { LIMITS, nowSeconds, type ServerContext } from "../context.js";
import { badRequest, incompatibleParameters } from "../errors.js";
import type { Route } from "../http.js";
import { sendMutedTopics } from "../muted-topics.js";
import { sendToUsers } from "../notify.js";
import type { Channel, User } from "../state.js";
import { clientTopic, serverTopic } from "../wire.js";

function checkTopic(topicParam: string): void {
  if ([...topicParam].length > LIMITS.maxTopicLength) {
    throw badRequest(`topic is too long (limit: ${LIMITS.maxTopicLength} characters)`);
  }
  if (topicParam.includes("\u0000")) throw badRequest("Topic must not contain null bytes");
}

function setPolicy(server: ServerContext, user: User, channel: Channel, topicParam: string, policy: number): void {
  const { state } = server;
  const channelId = channel.id;
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
  sendMutedTopics(server, user.id);
  sendToUsers(server, [user.id], "user_topic", (queue) => ({
    type: "user_topic",
    stream_id: channelId,
    topic_name: clientTopic(server, stored, queue.capability("empty_topic_name")),
    last_updated: now,
    visibility_policy: policy,
  }));
}

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
      checkTopic(topicParam);
      const channel = state.channels.get(channelId);
      if (!channel || !state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
      setPolicy(server, user, channel, topicParam, policy);
      return {};
    },
  },
  {
    method: "PATCH",
    path: "/users/me/subscriptions/muted_topics",
    handler({ server, params, user }) {
      const { state } = server;
      const channelId = params.int("stream_id");
      const name = params.str("stream");
      if ((channelId === undefined) === (name === undefined)) throw incompatibleParameters(["stream_id", "stream"]);
      const topicParam = params.reqStr("topic");
      const op = params.reqStr("op");
      if (op !== "add" && op !== "remove") throw badRequest("Invalid op");
      checkTopic(topicParam);
      let channel: Channel | undefined;
      if (name !== undefined) {
        channel = state.channelByName(name);
        if (!channel || !state.canAccessChannel(user, channel)) throw badRequest(`Invalid channel name '${name}'`);
      } else {
        channel = state.channels.get(channelId!);
        if (!channel || !state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
      }
      // Since the endpoint was deprecated, muting a muted topic or unmuting
      // one that is not muted succeeds without a change of meaning.
      setPolicy(server, user, channel, topicParam, op === "add" ? 1 : 0);
      return {};
    },
  },
];
