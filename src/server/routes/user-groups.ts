// User groups: POST /user_groups/create and GET /user_groups, with the
// `user_group` add event to everyone.

import { groupToWire } from "../wire.js";
import { nowSeconds, type ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToRealm } from "../notify.js";
import { insufficientPermission, parseGroupSetting, systemGroupId } from "../permissions.js";
import { ROLE, type GroupSetting, type UserGroup } from "../state.js";

const MAX_NAME = 100;
const MAX_DESCRIPTION = 1024;

/** Settings a new group may be given, with the system groups each must not be. */
const GROUP_SETTINGS: Record<string, string[]> = {
  can_add_members_group: ["role:internet"],
  can_join_group: ["role:internet"],
  can_leave_group: ["role:internet"],
  can_manage_group: ["role:internet", "role:everyone"],
  can_mention_group: ["role:internet", "role:owners"],
  can_remove_members_group: ["role:internet"],
};


function defaults(server: ServerContext, creatorId: number): Record<string, GroupSetting> {
  const id = (n: string) => systemGroupId(server.state, n);
  const creator = { direct_members: [creatorId], direct_subgroups: [] };
  return {
    can_add_members_group: structuredClone(creator),
    can_join_group: id("role:nobody"),
    can_leave_group: id("role:everyone"),
    can_manage_group: structuredClone(creator),
    can_mention_group: id("role:everyone"),
    can_remove_members_group: id("role:nobody"),
  };
}

export const userGroupRoutes: Route[] = [
  {
    method: "GET",
    path: "/user_groups",
    handler({ server, params }) {
      const includeDeactivated = params.bool("include_deactivated_groups") ?? false;
      const groups = [...server.state.groups.values()].filter((g) => includeDeactivated || !g.deactivated).map(groupToWire);
      return { user_groups: groups };
    },
  },
  {
    method: "POST",
    path: "/user_groups/create",
    handler({ server, params, user }) {
      const { state } = server;
      // realm_can_create_groups is role:members; bots may create groups since feature level 496.
      if (user.role === ROLE.guest) throw insufficientPermission();
      const name = params.reqStr("name").trim();
      const description = params.reqStr("description");
      const members = params.intList("members");
      if (members === undefined) params.reqJson("members");
      const subgroups = params.intList("subgroups") ?? [];
      if (name === "") throw badRequest("User group name cannot be empty.");
      if ([...name].length > MAX_NAME) throw badRequest(`User group name cannot exceed ${MAX_NAME} characters.`);
      if (name.startsWith("role:")) throw badRequest("User group name cannot start with 'role:'.");
      if ([...description].length > MAX_DESCRIPTION) {
        throw badRequest(`description is too long (limit: ${MAX_DESCRIPTION} characters)`);
      }
      for (const g of state.groups.values()) {
        if (!g.deactivated && g.name.toLowerCase() === name.toLowerCase()) throw badRequest(`User group '${name}' already exists.`);
      }
      for (const id of members ?? []) {
        const u = state.users.get(id);
        if (!u || !u.isActive) throw badRequest(`Invalid user ID: ${id}`);
      }
      for (const id of subgroups) {
        const g = state.groups.get(id);
        if (!g || g.deactivated) throw badRequest(`Invalid user group ID: ${id}`);
      }
      const settings = defaults(server, user.id);
      for (const [setting, forbidden] of Object.entries(GROUP_SETTINGS)) {
        const raw = params.json(setting);
        if (raw !== undefined) settings[setting] = parseGroupSetting(state, raw, setting, forbidden);
      }
      const group: UserGroup = {
        id: state.allocate("group"),
        name,
        description,
        members: [...new Set(members ?? [])].sort((a, b) => a - b),
        subgroups: [...new Set(subgroups)].sort((a, b) => a - b),
        isSystem: false,
        dateCreated: nowSeconds(server),
        creatorId: user.id,
        deactivated: false,
        settings,
      };
      state.groups.set(group.id, group);
      sendToRealm(server, "user_group", { type: "user_group", op: "add", group: groupToWire(group) });
      return { group_id: group.id };
    },
  },
];
