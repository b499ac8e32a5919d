// Read receipts: GET /messages/{id}/read_receipts, who has read a message,
// where the organization enables them (`enable_read_receipts`), and PATCH
// /realm for that setting and for `enable_spectator_access` (organization
// administrators; the other organization settings are not kept by this server
// and come back in `ignored_parameters_unsupported`).

import type { ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToRealm } from "../notify.js";
import { requireAdmin } from "../permissions.js";
import type { Message, State } from "../state.js";
import { accessMessage } from "./messages-view.js";

/**
 * Who has the message marked read, as the service counts them: active users
 * (bots included) who share their read receipts (`send_read_receipts`), never
 * the sender; marking a message unread takes one off the list again.
 */
export function readerIds(state: State, message: Message): number[] {
  const out: number[] = [];
  for (const [userId, history] of state.userMessages) {
    if (userId === message.senderId || !history.get(message.id)?.has("read")) continue;
    if (!state.users.get(userId)?.isActive) continue;
    if (state.userSettings.get(userId)?.["send_read_receipts"] === false) continue;
    out.push(userId);
  }
  return out.sort((a, b) => a - b);
}

function setReadReceipts(server: ServerContext, enabled: boolean): void {
  if (server.state.realm.enableReadReceipts === enabled) return;
  server.state.realm.enableReadReceipts = enabled;
  sendToRealm(server, "realm", { type: "realm", op: "update", property: "enable_read_receipts", value: enabled });
}

export const readReceiptRoutes: Route[] = [
  {
    method: "GET",
    path: "/messages/:message_id/read_receipts",
    handler({ server, user, path }) {
      const message = accessMessage(server, user, path["message_id"]);
      if (!server.state.realm.enableReadReceipts) throw badRequest("Read receipts are disabled in this organization.");
      return { user_ids: readerIds(server.state, message) };
    },
  },
  {
    method: "PATCH",
    path: "/realm",
    handler({ server, params, user }) {
      requireAdmin(user);
      const enabled = params.bool("enable_read_receipts");
      if (enabled !== undefined) setReadReceipts(server, enabled);
      const spectators = params.bool("enable_spectator_access");
      if (spectators !== undefined && spectators !== server.state.realm.enableSpectatorAccess) {
        server.state.realm.enableSpectatorAccess = spectators;
        sendToRealm(server, "realm", { type: "realm", op: "update", property: "enable_spectator_access", value: spectators });
      }
      return {};
    },
  },
];
