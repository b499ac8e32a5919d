/** Response envelopes of the user, status, presence, group and server-settings endpoints. */
import * as z from "zod";
import { legacyPresenceSchema, presenceEntrySchema, successBase, userSchema, userShape, userStatusSchema } from "./common.js";
import { tolerantObject } from "./tolerant.js";
import { lazyArray } from "./register.js";
import { adoptCheckedUser } from "./user-record.js";

export const getUserResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), user: userSchema }));
export type GetUserResponse = z.infer<typeof getUserResponseSchema>;

export const getUsersResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), members: z.array(userSchema) }));
export type GetUsersResponse = z.infer<typeof getUsersResponseSchema>;

/** GET /users for the store: every user, each checked when first used (LazyRecords), as the register's. */
export const allUsersResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), members: lazyArray(userSchema, "user", "user_id", adoptCheckedUser) }));

/** GET /users/me: the user record's fields at the top level, beside the envelope. */
export const getOwnUserResponseSchema = z.lazy(() => tolerantObject({
  ...userShape(),
  ...successBase(),
  max_message_id: z.number().int().optional(),
}));
export type GetOwnUserResponse = z.infer<typeof getOwnUserResponseSchema>;

export const getUserStatusResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), status: userStatusSchema }));
export type GetUserStatusResponse = z.infer<typeof getUserStatusResponseSchema>;

/**
 * `presences` is keyed by user ID (modern format: last_update_id or
 * slim_presence was passed) or by email (legacy format).
 */
const presencesSchema = z.lazy(() => z.record(z.string(), presenceEntrySchema));

export const updatePresenceResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  presence_last_update_id: z.number().int().optional(),
  server_timestamp: z.number().optional(),
  presences: presencesSchema.optional(),
}));
export type UpdatePresenceResponse = z.infer<typeof updatePresenceResponseSchema>;

export const getPresenceResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  server_timestamp: z.number().optional(),
  presences: presencesSchema,
}));
export type GetPresenceResponse = z.infer<typeof getPresenceResponseSchema>;

export const getUserPresenceResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), presence: legacyPresenceSchema }));
export type GetUserPresenceResponse = z.infer<typeof getUserPresenceResponseSchema>;

export const createUserGroupResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), group_id: z.number().int() }));
export type CreateUserGroupResponse = z.infer<typeof createUserGroupResponseSchema>;

/** Both spellings: the spec's `svc_feature_level`, the public `zulip_feature_level`. */
function mapFeatureLevel(raw: unknown): unknown {
  const r = raw as Record<string, unknown> | null;
  if (r && typeof r === "object" && r.svc_feature_level === undefined && r.zulip_feature_level !== undefined) {
    return { ...r, svc_feature_level: r.zulip_feature_level };
  }
  return raw;
}

export const serverSettingsResponseSchema = z.lazy(() => z.preprocess(
  mapFeatureLevel,
  tolerantObject({
    ...successBase(),
    svc_feature_level: z.number().int().default(0),
    zulip_version: z.string().optional(),
    push_notifications_enabled: z.boolean().optional(),
    is_incompatible: z.boolean().default(false),
    email_auth_enabled: z.boolean().optional(),
    require_email_format_usernames: z.boolean().default(true),
    authentication_methods: z.record(z.string(), z.boolean()).default({}),
    external_authentication_methods: z
      .array(tolerantObject({ name: z.string(), display_name: z.string(), login_url: z.string() }))
      .default([]),
    realm_url: z.string().optional(),
    realm_uri: z.string().optional(),
    realm_name: z.string().optional(),
    realm_icon: z.string().optional(),
    realm_description: z.string().optional(),
    realm_web_public_access_enabled: z.boolean().optional(),
  }),
));
export type ServerSettings = z.infer<typeof serverSettingsResponseSchema>;
