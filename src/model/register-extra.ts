/**
 * Register sections the model reads that the api's register schema does not
 * name (it keeps unknown fields): parsed here, once, when a store is built.
 * Tolerant: a malformed section is read as empty, never a failure.
 */
import * as z from "zod";
import type { UserStatus } from "../api/schemas/common.js";
import { idList } from "../api/schemas/id-list.js";
import type { RegisterResponse } from "../api/schemas/register.js";

/** A field read when it is what we know, else as absent (null from a newer server, say). */
const maybe = <T extends z.ZodType>(s: T) => s.optional().catch(undefined);

/** One user's status in the register's `user_status` (keyed by user id); every field optional. */
const userStatusSchema = z.lazy(() => z
  .looseObject({
    away: maybe(z.boolean()),
    status_text: maybe(z.string()),
    emoji_name: maybe(z.string()),
    emoji_code: maybe(z.string()),
    reaction_type: maybe(z.string()),
  })
  .catch({}));

const extraSchema = z.lazy(() => z.looseObject({
  user_status: z.record(z.string(), userStatusSchema).catch({}).default({}),
  starred_messages: idList().catch([]).default([]),
  realm_presence_disabled: z.boolean().catch(false).default(false),
  // Entries that are not `{id}` are left out.
  muted_users: z
    .array(z.unknown())
    .catch([])
    .default([])
    .transform((list) => list.flatMap((m) => (m && typeof m === "object" && Number.isInteger((m as { id?: unknown }).id) ? [(m as { id: number }).id] : []))),
  // What uploaded images are thumbnailed into (servers since feature level 273); malformed entries are left out.
  server_thumbnail_formats: z
    .array(z.unknown())
    .catch([])
    .default([])
    .transform((list) => list.flatMap((f) => { const r = thumbnailFormatSchema.safeParse(f); return r.success ? [r.data] : []; })),
}));

const thumbnailFormatSchema = z.lazy(() => z.looseObject({ name: z.string(), max_width: z.number(), max_height: z.number(), format: z.string(), animated: z.boolean() }));
export type ThumbnailFormat = z.infer<typeof thumbnailFormatSchema>;

export interface RegisterExtra {
  userStatus: Record<string, Partial<UserStatus>>;
  starredMessages: number[];
  presenceDisabled: boolean;
  mutedUserIds: number[];
  thumbnailFormats: ThumbnailFormat[];
}

export function readRegisterExtra(reg: RegisterResponse): RegisterExtra {
  const parsed = extraSchema.safeParse(reg);
  if (!parsed.success) return { userStatus: {}, starredMessages: [], presenceDisabled: false, mutedUserIds: [], thumbnailFormats: [] };
  return {
    userStatus: parsed.data.user_status,
    starredMessages: parsed.data.starred_messages,
    presenceDisabled: parsed.data.realm_presence_disabled,
    mutedUserIds: parsed.data.muted_users,
    thumbnailFormats: parsed.data.server_thumbnail_formats,
  };
}
