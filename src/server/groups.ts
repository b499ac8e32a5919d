// Group-setting values: membership of a user in a group (recursively through
// subgroups) or in an anonymous {direct_members, direct_subgroups} setting.

import type { GroupSetting, State, User } from "./state.js";

export function isInGroup(state: State, user: User, groupId: number, seen = new Set<number>()): boolean {
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const group = state.groups.get(groupId);
  if (!group || group.deactivated) return false;
  if (group.members.includes(user.id)) return true;
  return group.subgroups.some((sub) => isInGroup(state, user, sub, seen));
}

export function isInGroupSetting(state: State, user: User, setting: GroupSetting): boolean {
  if (typeof setting === "number") return isInGroup(state, user, setting);
  if (setting.direct_members.includes(user.id)) return true;
  return setting.direct_subgroups.some((g) => isInGroup(state, user, g));
}
