// Flag changes over a range of a narrow (POST /messages/flags/narrow) and the
// deprecated mark-as-read operations (all, channel, topic).

import { LIMITS } from "../context.js";
import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { compileNarrow, parseNarrow } from "../narrow.js";
import type { Message } from "../state.js";
import { serverTopic } from "../wire.js";
import { applyFlagChange, checkFlagChange } from "./flags-apply.js";
import { messageWindow, parseAnchor } from "./messages-window.js";

/** The user's unread messages satisfying `pred`. */
function unreadOf(server: Parameters<Route["handler"]>[0]["server"], userId: number, pred: (m: Message) => boolean): Message[] {
  const out: Message[] = [];
  for (const [id, flags] of server.state.userMessages.get(userId) ?? []) {
    if (flags.has("read")) continue;
    const m = server.state.messagesById.get(id);
    if (m && pred(m)) out.push(m);
  }
  return out;
}

export const flagNarrowRoutes: Route[] = [
  {
    method: "POST",
    path: "/messages/flags/narrow",
    handler({ server, params, user }) {
      const anchor = parseAnchor(params.reqStr("anchor"), server.options.featureLevel);
      const includeAnchor = params.bool("include_anchor") ?? true;
      const numBefore = params.reqInt("num_before");
      const numAfter = params.reqInt("num_after");
      if (numBefore < 0 || numAfter < 0) throw badRequest("num_before and num_after must not be negative");
      const narrow = compileNarrow(parseNarrow(params.reqJson("narrow")), server.state, user);
      const { op, flag } = checkFlagChange(params.reqStr("op"), params.reqStr("flag"));
      // The range is bounded like a fetch, to keep one request's work small.
      const window = messageWindow(server, user, narrow, {
        anchor,
        anchorDate: params.str("anchor_date"),
        includeAnchor,
        numBefore: Math.min(numBefore, LIMITS.maxMessagesPerFetch),
        numAfter: Math.min(numAfter, LIMITS.maxMessagesPerFetch),
      });
      const { changed, ignoredChannels } = applyFlagChange(server, user, window.messages, op, flag);
      const result: Record<string, unknown> = {
        processed_count: window.messages.length,
        updated_count: changed.length,
        first_processed_id: window.messages[0]?.id ?? null,
        last_processed_id: window.messages[window.messages.length - 1]?.id ?? null,
        found_oldest: window.foundOldest,
        found_newest: window.foundNewest,
      };
      if (op === "remove" && flag === "read") result["ignored_because_not_subscribed_channels"] = ignoredChannels;
      return result;
    },
  },
  {
    method: "POST",
    path: "/mark_all_as_read",
    handler({ server, user }) {
      applyFlagChange(server, user, unreadOf(server, user.id, () => true), "add", "read");
      return { complete: true };
    },
  },
  {
    method: "POST",
    path: "/mark_stream_as_read",
    handler({ server, params, user }) {
      const channel = server.state.channels.get(params.reqInt("stream_id"));
      if (!channel || !server.state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
      applyFlagChange(server, user, unreadOf(server, user.id, (m) => m.channelId === channel.id), "add", "read");
      return {};
    },
  },
  {
    method: "POST",
    path: "/mark_topic_as_read",
    handler({ server, params, user }) {
      const { state } = server;
      const channel = state.channels.get(params.reqInt("stream_id"));
      const topicName = params.reqStr("topic_name");
      if (!channel || !state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
      const key = serverTopic(server, topicName).toLowerCase();
      const inTopic = (m: Message) => m.channelId === channel.id && m.topic.toLowerCase() === key;
      const mine = state.userMessages.get(user.id);
      if (!state.messages.some((m) => inTopic(m) && mine?.has(m.id))) throw badRequest(`No such topic '${topicName}'`);
      applyFlagChange(server, user, unreadOf(server, user.id, inTopic), "add", "read");
      return {};
    },
  },
];
