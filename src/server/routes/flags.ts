// POST /messages/flags: add or remove a personal flag on a list of messages.

import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { applyFlagChange, checkFlagChange } from "./flags-apply.js";
import { flagNarrowRoutes } from "./flags-narrow.js";

export const flagRoutes: Route[] = [
  {
    method: "POST",
    path: "/messages/flags",
    handler({ server, params, user }) {
      const { state } = server;
      const ids = params.intList("messages");
      if (ids === undefined) params.reqJson("messages"); // throws the missing-argument error
      const { op, flag } = checkFlagChange(params.reqStr("op"), params.reqStr("flag"));
      const messages = [...new Set(ids ?? [])].map((id) => state.messagesById.get(id));
      const readable = messages.filter((m) => m !== undefined && state.canReadMessage(user, m));
      if (readable.length !== messages.length) throw badRequest("Invalid message(s)");
      const { changed, ignoredChannels } = applyFlagChange(server, user, readable.map((m) => m!), op, flag);
      const result: Record<string, unknown> = { messages: changed };
      if (op === "remove" && flag === "read") result["ignored_because_not_subscribed_channels"] = ignoredChannels;
      return result;
    },
  },
  ...flagNarrowRoutes,
];
