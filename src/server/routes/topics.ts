// GET /users/me/{stream_id}/topics: the channel's topics, most recent first.

import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { SPECTATOR, spectatorChannel } from "../spectators.js";
import { clientTopic } from "../wire.js";

export const topicRoutes: Route[] = [
  {
    method: "GET",
    path: "/users/me/:stream_id/topics",
    // A spectator may list a web-public channel's topics (spectators.ts).
    auth: "optional",
    handler({ server, params, path, user: signedIn }) {
      const { state } = server;
      const allowEmpty = params.bool("allow_empty_topic_name") ?? false;
      const id = /^\d+$/.test(path["stream_id"] ?? "") ? Number(path["stream_id"]) : NaN;
      const user = signedIn ?? SPECTATOR;
      const channel = signedIn ? state.channels.get(id) : spectatorChannel(state, state.channels.get(id));
      if (!channel || !state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
      const protectedHistory = channel.inviteOnly && !channel.historyPublicToSubscribers;
      const latest = new Map<string, { name: string; max_id: number }>();
      for (const m of state.messages) {
        if (m.channelId !== channel.id) continue;
        if (protectedHistory ? !state.flags(user.id, m.id) : !state.canReadMessage(user, m)) continue;
        latest.set(m.topic.toLowerCase(), { name: m.topic, max_id: m.id }); // ids ascend: last one wins
      }
      const topics = [...latest.values()]
        .sort((a, b) => b.max_id - a.max_id)
        .map((t) => ({ name: clientTopic(server, t.name, allowEmpty), max_id: t.max_id }));
      return { topics };
    },
  },
];
