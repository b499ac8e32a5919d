// Roles, group-setting values and channel visibility: who may do what, and
// who gets to hear about it. Shared by the channel, subscription, user and
// group routes.

import type { ServerContext } from "./context.js";
import { ApiError, badRequest } from "./errors.js";
import { isInGroup, isInGroupSetting } from "./groups.js";
import { ROLE, type Channel, type GroupSetting, type State, type User } from "./state.js";

export function isAdmin(user: User): boolean {
  return user.role <= ROLE.admin;
}

export function unauthorizedPrincipal(msg: string): ApiError {
  return new ApiError(400, "UNAUTHORIZED_PRINCIPAL", msg);
}

export function requireAdmin(user: User): void {
  if (!isAdmin(user)) throw unauthorizedPrincipal("Must be an organization administrator");
}

export function requireOwner(user: User): void {
  if (user.role !== ROLE.owner) throw unauthorizedPrincipal("Must be an organization owner");
}

export function insufficientPermission(): ApiError {
  return badRequest("Insufficient permission");
}

/** The id of a system group such as "role:members" (throws when the seed lacks it). */
export function systemGroupId(state: State, name: string): number {
  for (const g of state.groups.values()) if (g.isSystem && g.name === name) return g.id;
  throw new Error(`no system group ${name}`);
}

/** Membership in a realm-level permission expressed as a system group name. */
export function hasRealmPermission(state: State, user: User, groupName: string): boolean {
  return isInGroup(state, user, systemGroupId(state, groupName));
}

export function canCreateChannels(state: State, user: User, inviteOnly: boolean): boolean {
  void inviteOnly; // both realm settings are role:members here
  if (user.role === ROLE.guest) return false;
  return hasRealmPermission(state, user, "role:members");
}

export function canCreateWebPublicChannels(state: State, user: User): boolean {
  return hasRealmPermission(state, user, "role:administrators");
}

export function isSubscribed(state: State, user: User, channel: Channel): boolean {
  return state.subscription(user.id, channel.id) !== undefined;
}

/** Organization administrators and members of can_administer_channel_group. */
export function canAdministerChannel(state: State, user: User, channel: Channel): boolean {
  return isAdmin(user) || isInGroupSetting(state, user, channel.groups.can_administer_channel_group);
}

/** Whether the user may know the channel exists (metadata access). */
export function canSeeChannel(state: State, user: User, channel: Channel): boolean {
  if (!user.isActive) return false;
  if (state.canAccessChannel(user, channel)) return true;
  if (!channel.inviteOnly) return false;
  return (
    isAdmin(user) ||
    isInGroupSetting(state, user, channel.groups.can_administer_channel_group) ||
    isInGroupSetting(state, user, channel.groups.can_add_subscribers_group)
  );
}

/** Whether the user may see who is subscribed (and so receives peer events). */
export function canSeeSubscribers(state: State, user: User, channel: Channel): boolean {
  if (!user.isActive) return false;
  if (isSubscribed(state, user, channel)) return true;
  if (!channel.inviteOnly) return user.role !== ROLE.guest;
  return canSeeChannel(state, user, channel);
}

/** Active users satisfying a predicate, by id. */
export function activeUserIds(ctx: ServerContext, pred: (u: User) => boolean = () => true): number[] {
  return [...ctx.state.users.values()].filter((u) => u.isActive && pred(u)).map((u) => u.id);
}

// ---- group-setting values ---------------------------------------------------

/** Validates a group-setting value from a request (named `name` in errors). */
export function parseGroupSetting(
  state: State,
  raw: unknown,
  name: string,
  forbidden: string[] = ["role:internet"],
): GroupSetting {
  let value: GroupSetting;
  if (typeof raw === "number" && Number.isInteger(raw)) {
    const group = state.groups.get(raw);
    if (!group || group.deactivated) throw badRequest("Invalid user group");
    if (group.isSystem && forbidden.includes(group.name)) {
      throw badRequest(`'${name}' setting cannot be set to '${group.name}' group.`);
    }
    value = raw;
  } else if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    const obj = raw as Record<string, unknown>;
    const members = obj["direct_members"] ?? [];
    const subgroups = obj["direct_subgroups"] ?? [];
    const extra = Object.keys(obj).filter((k) => k !== "direct_members" && k !== "direct_subgroups");
    if (!isIntList(members) || !isIntList(subgroups) || extra.length > 0) throw badRequest(`Invalid ${name}`);
    for (const id of members) {
      const u = state.users.get(id);
      if (!u || !u.isActive) throw badRequest(`Invalid user ID: ${id}`);
    }
    for (const id of subgroups) {
      const g = state.groups.get(id);
      if (!g || g.deactivated) throw badRequest("Invalid user group");
      if (g.isSystem && forbidden.includes(g.name)) throw badRequest(`'${name}' setting cannot be set to '${g.name}' group.`);
    }
    value = { direct_members: [...new Set(members)].sort((a, b) => a - b), direct_subgroups: [...new Set(subgroups)].sort((a, b) => a - b) };
  } else {
    throw badRequest(`Invalid ${name}`);
  }
  return normalizeGroupSetting(state, value);
}

function isIntList(x: unknown): x is number[] {
  return Array.isArray(x) && x.every((v) => Number.isInteger(v));
}

/** An anonymous value that is just one group, or nobody, becomes that group's id. */
export function normalizeGroupSetting(state: State, value: GroupSetting): GroupSetting {
  if (typeof value === "number") return value;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) return value.direct_subgroups[0]!;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 0) return systemGroupId(state, "role:nobody");
  return value;
}

export function sameGroupSetting(state: State, a: GroupSetting, b: GroupSetting): boolean {
  const na = normalizeGroupSetting(state, a);
  const nb = normalizeGroupSetting(state, b);
  if (typeof na === "number" || typeof nb === "number") return na === nb;
  const eq = (x: number[], y: number[]) => x.length === y.length && [...x].sort().every((v, i) => v === [...y].sort()[i]);
  return eq(na.direct_members, nb.direct_members) && eq(na.direct_subgroups, nb.direct_subgroups);
}

/** Parses `{new, old?}` of an update request and checks `old` against the current value. */
export function parseGroupSettingUpdate(
  state: State,
  raw: unknown,
  name: string,
  current: GroupSetting,
  forbidden?: string[],
): GroupSetting {
  if (!raw || typeof raw !== "object" || Array.isArray(raw) || !("new" in raw)) {
    throw badRequest(`${name} is missing the 'new' value`);
  }
  const obj = raw as Record<string, unknown>;
  const next = parseGroupSetting(state, obj["new"], name, forbidden);
  if ("old" in obj) {
    const old = parseGroupSetting(state, obj["old"], name, []);
    if (!sameGroupSetting(state, old, current)) throw badRequest("'old' value does not match the expected value.");
  }
  return next;
}
