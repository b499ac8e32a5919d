// Presence: POST /users/me/presence, GET /realm/presence and
// GET /users/{user_id_or_email}/presence, in the modern format (keyed by user
// id: active_timestamp, idle_timestamp) or the legacy one (keyed by email:
// `aggregated` plus one entry per client), and `presence` events.

import { nowSeconds, type ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import type { Presence, User } from "../state.js";
import { userByIdOrEmail } from "./users.js";

/** Timestamps are only rewritten when older than this (like the public service). */
const MIN_UPDATE_SECS = 55;
/** Legacy format: "active" while the last activity is this close to the last connection. */
const LEGACY_ACTIVE_OFFSET_SECS = 70;
const DAY = 86400;

function sharesPresence(server: ServerContext, user: User): boolean {
  return user.isActive && server.state.userSettings.get(user.id)?.["presence_enabled"] !== false;
}

function legacyEntry(p: Presence): { status: "active" | "idle"; timestamp: number } {
  return p.active_timestamp + LEGACY_ACTIVE_OFFSET_SECS >= p.idle_timestamp
    ? { status: "active", timestamp: p.active_timestamp }
    : { status: "idle", timestamp: p.idle_timestamp };
}

export function legacyPresence(server: ServerContext, userId: number, p: Presence): Record<string, unknown> {
  const client = server.state.presenceClients.get(userId) ?? "website";
  const entry = legacyEntry(p);
  return { aggregated: { client, ...entry }, [client]: { client, ...entry, pushable: false } };
}

function visiblePresences(server: ServerContext, sinceSecs: number, sinceUpdateId: number | null): [User, Presence][] {
  const out: [User, Presence][] = [];
  for (const [userId, p] of server.state.presence) {
    const user = server.state.users.get(userId);
    if (!user || !sharesPresence(server, user)) continue;
    if (sinceUpdateId !== null) {
      if ((server.state.presenceUpdateIds.get(userId) ?? 0) <= sinceUpdateId) continue;
    } else if (Math.max(p.active_timestamp, p.idle_timestamp) < sinceSecs) continue;
    out.push([user, p]);
  }
  return out;
}

function clientName(userAgent: string): string {
  return userAgent.split(/[\s/]/)[0] || "website";
}

export const presenceRoutes: Route[] = [
  {
    method: "POST",
    path: "/users/me/presence",
    handler({ server, params, user, userAgent }) {
      const { state } = server;
      const status = params.reqStr("status");
      if (status !== "active" && status !== "idle") throw badRequest(`Invalid presence status: ${status}`);
      const lastUpdateId = params.int("last_update_id");
      const pingOnly = params.bool("ping_only") ?? false;
      const slim = params.bool("slim_presence") ?? false;
      const historyDays = params.int("history_limit_days") ?? 14;
      params.accept("new_user_input");
      params.bool("new_user_input");

      const now = nowSeconds(server);
      const cur = state.presence.get(user.id);
      const next: Presence = cur ? { ...cur } : { active_timestamp: 0, idle_timestamp: 0 };
      if (status === "active" && now - next.active_timestamp >= MIN_UPDATE_SECS) next.active_timestamp = now;
      if (now - next.idle_timestamp >= MIN_UPDATE_SECS) next.idle_timestamp = now;
      if (!cur && status === "idle") next.active_timestamp = 0;
      const changed = !cur || cur.active_timestamp !== next.active_timestamp || cur.idle_timestamp !== next.idle_timestamp;
      if (changed) {
        state.presence.set(user.id, next);
        state.presenceLastUpdateId += 1;
        state.presenceUpdateIds.set(user.id, state.presenceLastUpdateId);
        state.presenceClients.set(user.id, clientName(userAgent));
        if (sharesPresence(server, user)) {
          const others = [...state.users.values()].filter((u) => u.isActive && u.id !== user.id).map((u) => u.id);
          sendToUsers(server, others, "presence", (queue) =>
            queue.capability("simplified_presence_events")
              ? { type: "presence", presences: { [String(user.id)]: { ...next } } }
              : {
                  type: "presence",
                  user_id: user.id,
                  email: user.email,
                  server_timestamp: server.now() / 1000,
                  presence: { [clientName(userAgent)]: { client: clientName(userAgent), ...legacyEntry(next), pushable: false } },
                },
          );
        }
      }

      if (pingOnly) return { presence_last_update_id: lastUpdateId ?? state.presenceLastUpdateId };
      const modern = lastUpdateId !== undefined || slim;
      const since = lastUpdateId !== undefined && lastUpdateId > 0 ? lastUpdateId : null;
      const list = visiblePresences(server, now - historyDays * DAY, since);
      const presences: Record<string, unknown> = {};
      for (const [u, p] of list) {
        if (modern) presences[String(u.id)] = { ...p };
        else presences[u.email] = legacyPresence(server, u.id, p);
      }
      let updateId: number;
      if (lastUpdateId !== undefined) {
        updateId = Math.max(lastUpdateId, ...list.map(([u]) => state.presenceUpdateIds.get(u.id) ?? 0));
        if (since === null) updateId = Math.max(updateId, state.presenceLastUpdateId);
      } else {
        updateId = list.length > 0 ? state.presenceLastUpdateId : -1;
      }
      return { presence_last_update_id: updateId, server_timestamp: server.now() / 1000, presences };
    },
  },
  {
    method: "GET",
    path: "/realm/presence",
    handler({ server }) {
      const presences: Record<string, unknown> = {};
      for (const [u, p] of visiblePresences(server, nowSeconds(server) - 14 * DAY, null)) {
        presences[u.email] = legacyPresence(server, u.id, p);
      }
      return { server_timestamp: server.now() / 1000, presences };
    },
  },
  {
    method: "GET",
    path: "/users/:user_id_or_email/presence",
    handler({ server, path, user }) {
      const raw = path["user_id_or_email"] ?? "";
      const target = raw === "me" ? user : userByIdOrEmail(server, user, raw);
      if (target.isBot) throw badRequest("Presence is not supported for bot users.");
      const p = server.state.presence.get(target.id);
      if (!p || !sharesPresence(server, target)) throw badRequest(`No presence data for ${raw}`);
      const client = server.state.presenceClients.get(target.id) ?? "website";
      const entry = legacyEntry(p);
      return { presence: { aggregated: entry, [client]: entry } };
    },
  },
];
