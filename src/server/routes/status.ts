// POST /users/me/status and GET /users/{user_id}/status, with `user_status`
// events to the whole organization (and user_settings when `away` changes
// presence_enabled).

import { checkEmoji, emojiByName, parseReactionType } from "../emoji-check.js";
import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToRealm, sendToUsers } from "../notify.js";
import type { UserStatus } from "../state.js";

const STATUS_TEXT_LIMIT = 60;

/** The status as the API shows it: only the fields that are set. */
export function statusToWire(status: UserStatus | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!status) return out;
  if (status.away) out["away"] = true;
  if (status.status_text) out["status_text"] = status.status_text;
  if (status.emoji_name) {
    out["emoji_name"] = status.emoji_name;
    out["emoji_code"] = status.emoji_code ?? "";
    out["reaction_type"] = status.reaction_type ?? "unicode_emoji";
  }
  return out;
}

export const statusRoutes: Route[] = [
  {
    method: "POST",
    path: "/users/me/status",
    handler({ server, params, user }) {
      const { state } = server;
      const rawText = params.str("status_text");
      const away = params.bool("away");
      const emojiName = params.str("emoji_name");
      let emojiCode = params.str("emoji_code");
      let reactionType: string | undefined = params.str("reaction_type");
      const statusText = rawText?.trim();
      if (away === undefined && statusText === undefined && emojiName === undefined) {
        throw badRequest("Client did not pass any new values.");
      }
      if (statusText !== undefined && [...statusText].length > STATUS_TEXT_LIMIT) {
        throw badRequest(`status_text is too long (limit: ${STATUS_TEXT_LIMIT} characters)`);
      }
      if (emojiName === undefined) {
        if (emojiCode !== undefined || reactionType !== undefined) {
          throw badRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.");
        }
      } else if (emojiName === "") {
        emojiCode = "";
        reactionType = "unicode_emoji";
      } else {
        let type = parseReactionType(reactionType);
        if (emojiCode === undefined || type === undefined) {
          const found = emojiByName(state, emojiName);
          emojiCode = found.code;
          type = found.type;
        }
        checkEmoji(state, emojiName, emojiCode, type, "Invalid emoji code");
        reactionType = type;
      }

      const status: UserStatus = { ...(state.userStatus.get(user.id) ?? {}) };
      const event: Record<string, unknown> & { type: string } = { type: "user_status", user_id: user.id };
      if (statusText !== undefined) {
        if (statusText === "") delete status.status_text;
        else status.status_text = statusText;
        event["status_text"] = statusText;
      }
      if (emojiName !== undefined) {
        if (emojiName === "") {
          delete status.emoji_name;
          delete status.emoji_code;
          delete status.reaction_type;
        } else {
          Object.assign(status, { emoji_name: emojiName, emoji_code: emojiCode, reaction_type: reactionType });
        }
        Object.assign(event, { emoji_name: emojiName, emoji_code: emojiCode, reaction_type: reactionType });
      }
      if (away !== undefined) {
        status.away = away;
        event["away"] = away;
        const settings = state.userSettings.get(user.id);
        if (settings && settings["presence_enabled"] !== !away) {
          settings["presence_enabled"] = !away;
          sendToUsers(server, [user.id], "user_settings", { type: "user_settings", op: "update", property: "presence_enabled", value: !away });
        }
      }
      state.userStatus.set(user.id, status);
      sendToRealm(server, "user_status", event);
      return {};
    },
  },
  {
    method: "GET",
    path: "/users/:user_id/status",
    handler({ server, path, user }) {
      const raw = path["user_id"] ?? "";
      const target = raw === "me" ? user : /^\d+$/.test(raw) ? server.state.users.get(Number(raw)) : undefined;
      if (!target) throw badRequest("No such user");
      return { status: statusToWire(server.state.userStatus.get(target.id)) };
    },
  },
];
