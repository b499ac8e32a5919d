/** Events about users: accounts, statuses, presence, groups, muting. */
import * as z from "zod";
import { tolerantObject } from "./tolerant.js";
import {
  groupSettingValueSchema,
  legacyPresenceSchema,
  modernPresenceSchema,
  reactionTypeSchema,
  userGroupSchema,
  userSchema,
} from "./common.js";
import { id, ids } from "./events-messages.js";

export const realmUserAddEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm_user"),
  id,
  op: z.literal("add"),
  person: userSchema,
}));

/** Only the changed fields travel, beside `user_id`. */
export const realmUserUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm_user"),
  id,
  op: z.literal("update"),
  person: tolerantObject({
    user_id: id,
    full_name: z.string().optional(),
    email: z.string().optional(),
    delivery_email: z.string().nullish(),
    role: z.number().int().optional(),
    timezone: z.string().optional(),
    avatar_url: z.string().nullish(),
    avatar_version: z.number().int().optional(),
    is_active: z.boolean().optional(),
    bot_owner_id: z.number().int().nullish(),
  }),
}));

/** Sent when a user becomes inaccessible to the recipient (not on deactivation, which is an update). */
export const realmUserRemoveEvent = z.lazy(() => tolerantObject({
  type: z.literal("realm_user"),
  id,
  op: z.literal("remove"),
  person: tolerantObject({ user_id: id, full_name: z.string().optional() }),
}));

export const userStatusEvent = z.lazy(() => tolerantObject({
  type: z.literal("user_status"),
  id,
  user_id: id,
  away: z.boolean().optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  reaction_type: reactionTypeSchema.optional(),
}));

/**
 * Legacy format: `user_id`, `email`, `server_timestamp` and `presence`
 * (per client). Modern format (capability simplified_presence_events):
 * `presences` keyed by user ID.
 */
export const presenceEvent = z.lazy(() => tolerantObject({
  type: z.literal("presence"),
  id,
  user_id: id.optional(),
  email: z.string().optional(),
  server_timestamp: z.number().optional(),
  presence: legacyPresenceSchema.optional(),
  presences: z.record(z.string(), modernPresenceSchema).optional(),
}).refine((e) => e.presence !== undefined || e.presences !== undefined, {
  message: "a presence event needs `presence` or `presences`",
  path: ["presences"],
}));

export const userGroupAddEvent = z.lazy(() => tolerantObject({
  type: z.literal("user_group"),
  id,
  op: z.literal("add"),
  group: userGroupSchema,
}));

export const userGroupUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("user_group"),
  id,
  op: z.literal("update"),
  group_id: id,
  /** Changed fields only; permission settings (`can_*_group`) hold group-setting values. */
  data: tolerantObject({
    name: z.string().optional(),
    description: z.string().optional(),
    deactivated: z.boolean().optional(),
    can_mention_group: groupSettingValueSchema.optional(),
  }),
}));

const membersFields = () => ({ type: z.literal("user_group"), id, group_id: id, user_ids: ids });
export const userGroupAddMembersEvent = z.lazy(() => tolerantObject({ ...membersFields(), op: z.literal("add_members") }));
export const userGroupRemoveMembersEvent = z.lazy(() => tolerantObject({ ...membersFields(), op: z.literal("remove_members") }));

const subgroupsFields = () => ({ type: z.literal("user_group"), id, group_id: id, direct_subgroup_ids: ids });
export const userGroupAddSubgroupsEvent = z.lazy(() => tolerantObject({ ...subgroupsFields(), op: z.literal("add_subgroups") }));
export const userGroupRemoveSubgroupsEvent = z.lazy(() => tolerantObject({ ...subgroupsFields(), op: z.literal("remove_subgroups") }));

export const userGroupRemoveEvent = z.lazy(() => tolerantObject({
  type: z.literal("user_group"),
  id,
  op: z.literal("remove"),
  group_id: id,
}));

export const mutedUsersEvent = z.lazy(() => tolerantObject({
  type: z.literal("muted_users"),
  id,
  muted_users: z.array(tolerantObject({ id, timestamp: z.number() })),
}));

export const customProfileFieldsEvent = z.lazy(() => tolerantObject({
  type: z.literal("custom_profile_fields"),
  id,
  fields: z.array(
    tolerantObject({
      id,
      name: z.string(),
      type: z.number().int(),
      hint: z.string().default(""),
      field_data: z.string().default(""),
      order: z.number().int().optional(),
      display_in_profile_summary: z.boolean().optional(),
      required: z.boolean().optional(),
    }),
  ),
}));

export const userEventTable = {
  realm_user: { ops: { add: realmUserAddEvent, update: realmUserUpdateEvent, remove: realmUserRemoveEvent } },
  user_status: userStatusEvent,
  presence: presenceEvent,
  user_group: {
    ops: {
      add: userGroupAddEvent,
      update: userGroupUpdateEvent,
      add_members: userGroupAddMembersEvent,
      remove_members: userGroupRemoveMembersEvent,
      add_subgroups: userGroupAddSubgroupsEvent,
      remove_subgroups: userGroupRemoveSubgroupsEvent,
      remove: userGroupRemoveEvent,
    },
  },
  muted_users: mutedUsersEvent,
  custom_profile_fields: customProfileFieldsEvent,
} as const;
