// POST /messages/flags: add or remove a personal flag on a list of messages.

import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { notifyUser } from "../messaging.js";
import type { Flag } from "../state.js";
import { clientTopic } from "../wire.js";

const EDITABLE = new Set<Flag>(["read", "starred", "collapsed"]);
const NOT_EDITABLE = new Set<string>([
  "mentioned",
  "stream_wildcard_mentioned",
  "topic_wildcard_mentioned",
  "wildcard_mentioned",
  "has_alert_word",
  "historical",
]);

export const flagRoutes: Route[] = [
  {
    method: "POST",
    path: "/messages/flags",
    handler({ server, params, user }) {
      const { state } = server;
      const ids = params.intList("messages");
      if (ids === undefined) params.reqJson("messages"); // throws the missing-argument error
      const op = params.reqStr("op");
      const flag = params.reqStr("flag") as Flag;
      if (op !== "add" && op !== "remove") throw badRequest(`Invalid message flag operation: '${op}'`);
      if (NOT_EDITABLE.has(flag)) throw badRequest(`Flag not editable: '${flag}'`);
      if (!EDITABLE.has(flag)) throw badRequest(`Invalid flag: '${flag}'`);

      const messages = [...new Set(ids ?? [])].sort((a, b) => a - b).map((id) => state.messagesById.get(id));
      if (messages.some((m) => !m || !state.canReadMessage(user, m))) throw badRequest("Invalid message(s)");

      const changed: number[] = [];
      const ignoredChannels = new Set<number>();
      for (const m of messages) {
        if (!m) continue;
        let flags = state.flags(user.id, m.id);
        if (!flags) {
          // Starring a message outside one's history adds it to the history.
          if (!(op === "add" && flag === "starred")) {
            if (op === "remove" && flag === "read" && m.channelId !== null) ignoredChannels.add(m.channelId);
            continue;
          }
          flags = new Set<Flag>(["read", "historical"]);
          state.userMessages.get(user.id)?.set(m.id, flags);
        }
        if (op === "remove" && flag === "read" && m.channelId !== null && !state.subscription(user.id, m.channelId)) {
          ignoredChannels.add(m.channelId);
          continue;
        }
        if (op === "add" ? flags.has(flag) : !flags.has(flag)) continue;
        if (op === "add") flags.add(flag);
        else flags.delete(flag);
        changed.push(m.id);
      }

      if (changed.length > 0) {
        notifyUser(server, user.id, "update_message_flags", (queue) => {
          const event: Record<string, unknown> & { type: string } = {
            type: "update_message_flags",
            op,
            operation: op,
            flag,
            messages: changed,
            all: false,
          };
          if (op === "remove" && flag === "read") {
            const details: Record<string, unknown> = {};
            for (const id of changed) {
              const m = state.messagesById.get(id)!;
              const entry: Record<string, unknown> =
                m.type === "stream"
                  ? { type: "stream", stream_id: m.channelId, topic: clientTopic(server, m.topic, queue.capability("empty_topic_name")) }
                  : { type: "private", user_ids: m.dmUserIds.filter((u) => u !== user.id) };
              if (state.flags(user.id, id)?.has("mentioned")) entry["mentioned"] = true;
              details[String(id)] = entry;
            }
            event["message_details"] = details;
          }
          return event;
        });
      }
      const result: Record<string, unknown> = { messages: changed };
      if (op === "remove" && flag === "read") {
        result["ignored_because_not_subscribed_channels"] = [...ignoredChannels].sort((a, b) => a - b);
      }
      return result;
    },
  },
];
