/** User groups. */
import type { ApiClient } from "../http.js";
import type { GroupSettingValue } from "../schemas/common.js";
import { createUserGroupResponseSchema } from "../schemas/responses-users.js";

export interface CreateUserGroupParams {
  name: string;
  description: string;
  members: number[];
  subgroups?: number[];
  can_add_members_group?: GroupSettingValue;
  can_join_group?: GroupSettingValue;
  can_leave_group?: GroupSettingValue;
  /** Not `role:internet` or `role:everyone`. */
  can_manage_group?: GroupSettingValue;
  /** Not `role:internet` or `role:owners`. */
  can_mention_group?: GroupSettingValue;
  can_remove_members_group?: GroupSettingValue;
}

/** Not retried: a repeat could create a second group (or fail on the name). */
export function createUserGroup(client: ApiClient, p: CreateUserGroupParams) {
  return client.request("POST", "user_groups/create", {
    params: p,
    schema: createUserGroupResponseSchema,
    idempotent: false,
  });
}
