// GET /streams: the channels a user may know about, chosen by the include_*
// filters (sorted by name), and GET /streams/{stream_id}/email_address, the
// address that posts to a channel by email.

import { createHash } from "node:crypto";
import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { canSeeChannel, insufficientPermission, isAdmin } from "../permissions.js";
import { ROLE, type Channel } from "../state.js";
import { channelToWire } from "../wire.js";
import { channelFromPath, invalidChannelId } from "./channels.js";

export const channelListRoutes: Route[] = [
  {
    method: "GET",
    path: "/streams",
    handler({ server, params, user }) {
      const { state } = server;
      const includePublic = params.bool("include_public") ?? true;
      const includeWebPublic = params.bool("include_web_public") ?? false;
      const includeSubscribed = params.bool("include_subscribed") ?? true;
      const excludeArchived = params.bool("exclude_archived") ?? true;
      const allActive = params.bool("include_all_active");
      if (allActive === true && !isAdmin(user)) throw badRequest("User not authorized for this query");
      const includeAll = params.bool("include_all") ?? allActive ?? false;
      const includeDefault = params.bool("include_default") ?? false;
      const includeOwnerSubscribed = params.bool("include_owner_subscribed") ?? false;
      const includeContent = params.bool("include_can_access_content") ?? false;
      const owner = user.isBot && user.botOwnerId !== null ? state.users.get(user.botOwnerId) : undefined;
      const chosen = (c: Channel): boolean => {
        if (includeAll && canSeeChannel(state, user, c)) return true;
        if (includeSubscribed && state.subscription(user.id, c.id)) return true;
        if (includeOwnerSubscribed && owner && state.subscription(owner.id, c.id)) return true;
        if (includeContent && state.canAccessChannel(user, c)) return true;
        if (includePublic && user.role !== ROLE.guest && !c.inviteOnly) return true;
        return includeWebPublic && c.isWebPublic;
      };
      const defaults = new Set(state.defaultChannelIds);
      const streams = [...state.channels.values()]
        .filter((c) => !(excludeArchived && c.isArchived) && chosen(c))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))
        .map((c) => {
          const wire = channelToWire(server, c);
          if (includeDefault) wire["is_default"] = defaults.has(c.id);
          return wire;
        });
      return { streams };
    },
  },
  {
    method: "GET",
    path: "/streams/:stream_id/email_address",
    handler({ server, params, path, user }) {
      const { state } = server;
      const channel = channelFromPath(server, user, path["stream_id"]);
      if (!state.canAccessChannel(user, channel)) throw invalidChannelId();
      const senderId = params.int("sender_id");
      let showSender = true;
      if (senderId !== undefined) {
        const sender = state.users.get(senderId);
        if (!sender || !sender.isActive) throw badRequest("Invalid user ID");
        if (sender.id !== user.id && sender.botOwnerId !== user.id) throw insufficientPermission();
        showSender = false;
      }
      const name = channel.name.replace(/[^\p{L}\p{N}_]+/gu, "-").toLowerCase().replace(/^-+|-+$/g, "");
      const token = createHash("sha256").update(`${channel.id}:${senderId ?? "gateway"}:${state.realm.name}`).digest("hex").slice(0, 32);
      const local = [name, token, showSender ? "show-sender" : ""].filter((p) => p !== "").join(".");
      return { email: `${local}@${state.realm.emailDomain}` };
    },
  },
];
