// POST /submessage: adds data to an interactive message (a poll vote, a new
// to-do task, ...) and sends a `submessage` event to everyone who can see the
// message. Only the message's sender may start a widget (the first
// submessage); the content must be JSON.

import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import { addSubmessage, submessagesOf } from "../submessages.js";
import { messageAudience } from "./reactions.js";

const MSG_TYPES = new Set(["widget"]);

export const submessageRoutes: Route[] = [
  {
    method: "POST",
    path: "/submessage",
    handler({ server, params, user }) {
      const { state } = server;
      const messageId = params.reqInt("message_id");
      const msgType = params.reqStr("msg_type");
      const content = params.reqStr("content");
      const message = state.messagesById.get(messageId);
      if (!message || !state.canReadMessage(user, message)) throw badRequest("Invalid message(s)");
      if (!MSG_TYPES.has(msgType)) throw badRequest("Invalid msg_type");
      if (submessagesOf(state, messageId).length === 0 && message.senderId !== user.id) {
        throw badRequest("You cannot attach a submessage to this message.");
      }
      try {
        JSON.parse(content);
      } catch {
        throw badRequest("Invalid json for submessage");
      }
      const sub = addSubmessage(state, message, user.id, msgType, content);
      sendToUsers(server, messageAudience(server, message), "submessage", {
        type: "submessage",
        msg_type: sub.msgType,
        message_id: sub.messageId,
        submessage_id: sub.id,
        sender_id: sub.senderId,
        content: sub.content,
      });
      return {};
    },
  },
];
