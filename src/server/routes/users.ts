// Users: GET /users, GET /users/me, GET /users/{user_id} and
// GET /users/{email}, DELETE /users/{user_id} (deactivate).

import type { ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { requireAdmin, unauthorizedPrincipal } from "../permissions.js";
import { ROLE, type User } from "../state.js";
import { ACTION_NAMES, deactivateUser, type DeactivationActions } from "../user-deactivation.js";
import { avatarUrl } from "../wire.js";
import { canSeeRealEmail, realmHost, userForViewer } from "../user-view.js";

function noSuchUser(): ReturnType<typeof badRequest> {
  return badRequest("No such user");
}

/** A user by id, real email (when visible to the viewer) or dummy address user{id}@{realm_host}. */
export function userByIdOrEmail(server: ServerContext, viewer: User, raw: string): User {
  const { state } = server;
  if (/^\d+$/.test(raw)) {
    const u = state.users.get(Number(raw));
    if (!u) throw noSuchUser();
    return u;
  }
  const email = raw.trim().toLowerCase();
  const dummy = /^user(\d+)@(.+)$/.exec(email);
  if (dummy) {
    const host = dummy[2]!;
    const u = state.users.get(Number(dummy[1]));
    if (u && (host === realmHost(server).toLowerCase() || host === new URL(server.realmUrl).host.toLowerCase())) return u;
  }
  const u = state.userByEmail(email);
  if (!u || !canSeeRealEmail(server, viewer, u)) throw noSuchUser();
  return u;
}

function viewOpts(ctx: RequestContext): { clientGravatar: boolean; includeProfile: boolean } {
  return {
    clientGravatar: ctx.params.bool("client_gravatar") ?? true,
    includeProfile: ctx.params.bool("include_custom_profile_fields") ?? false,
  };
}

function parseActions(raw: unknown): DeactivationActions {
  const actions: DeactivationActions = {
    delete_profile: false,
    delete_public_channel_messages: false,
    delete_private_channel_messages: false,
    delete_direct_messages: false,
  };
  if (raw === undefined || raw === null) return actions;
  if (typeof raw !== "object" || Array.isArray(raw)) throw badRequest("actions is not a dict");
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!ACTION_NAMES.includes(k as keyof DeactivationActions)) throw badRequest(`Invalid action: ${k}`);
    if (typeof v !== "boolean") throw badRequest(`actions["${k}"] is not a boolean`);
    actions[k as keyof DeactivationActions] = v;
  }
  return actions;
}

function deactivate(ctx: RequestContext): Record<string, unknown> {
  const { server, params, path, user } = ctx;
  const { state } = server;
  requireAdmin(user);
  const raw = path["user_id"] ?? "";
  const target = /^\d+$/.test(raw) ? state.users.get(Number(raw)) : undefined;
  if (!target || target.isBot || !target.isActive) throw noSuchUser();
  const actions = parseActions(params.json("actions"));
  const comment = params.str("deactivation_notification_comment");
  if (comment !== undefined && [...comment].length > 2000) {
    throw badRequest("deactivation_notification_comment is too long (limit: 2000 characters)");
  }
  if (target.role === ROLE.owner) {
    if (user.role !== ROLE.owner) throw unauthorizedPrincipal("Must be an organization owner");
    const owners = [...state.users.values()].filter((u) => u.isActive && !u.isBot && u.role === ROLE.owner);
    if (owners.length <= 1) throw badRequest("Cannot deactivate the only organization owner");
  }
  // No mail goes out from the reference server; the comment is accepted and dropped.
  deactivateUser(server, target, actions);
  return {};
}

export const userRoutes: Route[] = [
  {
    method: "GET",
    path: "/users",
    handler(ctx) {
      const { server, params, user } = ctx;
      const opts = viewOpts(ctx);
      const ids = params.intList("user_ids");
      const all = [...server.state.users.values()].filter((u) => !ids || ids.includes(u.id));
      return { members: all.map((u) => userForViewer(server, user, u, opts)) };
    },
  },
  {
    method: "GET",
    path: "/users/me",
    handler({ server, user }) {
      const out = userForViewer(server, user, user, { clientGravatar: false, includeProfile: true });
      let max = -1;
      for (const id of server.state.userMessages.get(user.id)?.keys() ?? []) if (id > max) max = id;
      // Like the public service, this response has no bot_type/bot_owner_id.
      const { bot_type: _type, bot_owner_id: _owner, ...rest } = out;
      return { ...rest, avatar_url: avatarUrl(user, false), delivery_email: user.email, max_message_id: max };
    },
  },
  {
    method: "GET",
    path: "/users/:user_id",
    handler(ctx) {
      const target = userByIdOrEmail(ctx.server, ctx.user, ctx.path["user_id"] ?? "");
      return { user: userForViewer(ctx.server, ctx.user, target, viewOpts(ctx)) };
    },
  },
  { method: "DELETE", path: "/users/:user_id", handler: deactivate },
];
