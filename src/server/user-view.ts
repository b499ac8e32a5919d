// Users as one viewer sees them: the real email (delivery_email) only when
// the target's email_address_visibility lets the viewer see it, otherwise the
// dummy address user{id}@{realm_host}; is_deleted for deleted profiles.

import type { ServerContext } from "./context.js";
import { ROLE, type User } from "./state.js";
import { userToWire } from "./wire.js";

/** email_address_visibility: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators. */
export function canSeeRealEmail(server: ServerContext, viewer: User | null, target: User): boolean {
  if (target.isBot) return true;
  const visibility = Number(server.state.userSettings.get(target.id)?.["email_address_visibility"] ?? 1);
  if (visibility === 1) return true;
  if (!viewer) return false;
  if (viewer.id === target.id) return true;
  switch (visibility) {
    case 2:
      return viewer.role !== ROLE.guest;
    case 3:
      return viewer.role <= ROLE.admin;
    case 5:
      return viewer.role <= ROLE.moderator;
    default:
      return false;
  }
}

export function realmHost(server: ServerContext): string {
  try {
    return new URL(server.realmUrl).hostname;
  } catch {
    return server.state.realm.emailDomain;
  }
}

export function dummyEmail(server: ServerContext, user: User): string {
  return `user${user.id}@${realmHost(server)}`;
}

export function userForViewer(
  server: ServerContext,
  viewer: User | null,
  target: User,
  opts: { clientGravatar: boolean; includeProfile: boolean },
): Record<string, unknown> {
  const out = userToWire(target, opts.clientGravatar, opts.includeProfile);
  const visibility = Number(server.state.userSettings.get(target.id)?.["email_address_visibility"] ?? 1);
  if (visibility !== 1 && !target.isBot) out["email"] = dummyEmail(server, target);
  out["delivery_email"] = canSeeRealEmail(server, viewer, target) ? target.email : null;
  if (server.state.deletedUserIds.has(target.id)) out["is_deleted"] = true;
  return out;
}
