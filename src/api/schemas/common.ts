/**
 * Records shared by several endpoints. Schemas are tolerant (tolerant.ts):
 * unknown fields pass through, optional fields default where the service's
 * older releases left them out, and null in an optional field reads as absent.
 */
import * as z from "zod";
import { idList } from "./id-list.js";
import { tolerantObject } from "./tolerant.js";

/** The public service says `zulip_extra_emoji`; the spec says `svc_extra_emoji`. Both mean one thing. */
export const reactionTypeSchema = z.lazy(() => z
  .string()
  .transform((t) => (t === "zulip_extra_emoji" ? "svc_extra_emoji" : t)));

export const successBase = () => ({
  result: z.literal("success"),
  msg: z.string(),
  ignored_parameters_unsupported: z.array(z.string()).optional(),
});

/** The fields of a user record (GET /users/me extends them). */
export const userShape = () => ({
  user_id: z.number().int(),
  email: z.string(),
  full_name: z.string(),
  delivery_email: z.string().nullish(),
  is_active: z.boolean().default(true),
  is_owner: z.boolean().optional(),
  is_admin: z.boolean().default(false),
  is_guest: z.boolean().default(false),
  is_bot: z.boolean().default(false),
  bot_type: z.number().int().nullish(),
  bot_owner_id: z.number().int().nullish(),
  role: z.number().int().optional(),
  timezone: z.string().default(""),
  avatar_url: z.string().nullish(),
  avatar_version: z.number().int().optional(),
  date_joined: z.string().optional(),
  is_imported_stub: z.boolean().optional(),
  is_deleted: z.boolean().optional(),
  profile_data: z
    .record(z.string(), tolerantObject({ value: z.string(), rendered_value: z.string().optional() }))
    .optional(),
});
export const userSchema = z.lazy(() => tolerantObject(userShape()));
export type User = z.infer<typeof userSchema>;

export const groupSettingValueSchema = z.lazy(() => z.union([
  z.number().int(),
  tolerantObject({ direct_members: z.array(z.number().int()), direct_subgroups: z.array(z.number().int()) }),
]));
export type GroupSettingValue = z.infer<typeof groupSettingValueSchema>;

/** A channel as it appears in `subscriptions` (personal settings included). */
export const subscriptionSchema = z.lazy(() => tolerantObject({
  stream_id: z.number().int(),
  name: z.string(),
  description: z.string().default(""),
  rendered_description: z.string().optional(),
  date_created: z.number().optional(),
  creator_id: z.number().int().nullish(),
  invite_only: z.boolean().default(false),
  is_web_public: z.boolean().default(false),
  is_archived: z.boolean().default(false),
  subscribers: idList().optional(),
  partial_subscribers: idList().optional(),
  color: z.string().default("#76ce90"),
  pin_to_top: z.boolean().default(false),
  is_muted: z.boolean().optional(),
  in_home_view: z.boolean().optional(),
  desktop_notifications: z.boolean().nullish(),
  email_notifications: z.boolean().nullish(),
  push_notifications: z.boolean().nullish(),
  audible_notifications: z.boolean().nullish(),
  wildcard_mentions_notify: z.boolean().nullish(),
  folder_id: z.number().int().nullish(),
  topics_policy: z.string().optional(),
  first_message_id: z.number().int().nullish(),
  subscriber_count: z.number().optional(),
  history_public_to_subscribers: z.boolean().optional(),
  message_retention_days: z.number().int().nullish(),
}));
export type Subscription = z.infer<typeof subscriptionSchema>;

/** A channel without personal settings (never_subscribed, stream events). */
export const channelSchema = z.lazy(() => tolerantObject({
  stream_id: z.number().int(),
  name: z.string(),
  description: z.string().default(""),
  invite_only: z.boolean().default(false),
  is_web_public: z.boolean().default(false),
  is_archived: z.boolean().default(false),
  folder_id: z.number().int().nullish(),
}));
export type Channel = z.infer<typeof channelSchema>;

export const channelFolderSchema = z.lazy(() => tolerantObject({
  id: z.number().int(),
  name: z.string(),
  order: z.number().int().default(0),
  description: z.string().default(""),
  is_archived: z.boolean().default(false),
  date_created: z.number().nullish(),
  creator_id: z.number().int().nullish(),
}));
export type ChannelFolder = z.infer<typeof channelFolderSchema>;

export const reactionSchema = z.lazy(() => tolerantObject({
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: reactionTypeSchema,
  user_id: z.number().int(),
}));
export type Reaction = z.infer<typeof reactionSchema>;

export const dmRecipientSchema = z.lazy(() => tolerantObject({
  id: z.number().int(),
  email: z.string(),
  full_name: z.string(),
}));

/** The fields of an edit history entry (the message history endpoint extends them). */
export const editHistoryEntryShape = () => ({
  user_id: z.number().int().nullable().optional(),
  timestamp: z.number(),
  prev_content: z.string().optional(),
  prev_rendered_content: z.string().optional(),
  prev_stream: z.number().int().optional(),
  stream: z.number().int().optional(),
  prev_topic: z.string().optional(),
  topic: z.string().optional(),
});
export const editHistoryEntrySchema = z.lazy(() => tolerantObject(editHistoryEntryShape()));

/**
 * Data of an interactive message (a poll, a to-do list): `content` is JSON
 * the widget defines. The service calls the list experimental.
 */
export const submessageSchema = z.lazy(() => tolerantObject({
  id: z.number().int(),
  message_id: z.number().int(),
  sender_id: z.number().int(),
  msg_type: z.string(),
  content: z.string(),
}));
export type Submessage = z.infer<typeof submessageSchema>;

/** A message's submessages; an entry that is not one is left out (one bad entry is no reason to refuse the message). */
const submessageListSchema = z.lazy(() => z.array(z.unknown()).transform((list) => {
  const out: Submessage[] = [];
  for (const raw of list) {
    const p = submessageSchema.safeParse(raw);
    if (p.success) out.push(p.data);
  }
  return out;
}));

export const messageSchema = z.lazy(() => tolerantObject({
  id: z.number().int(),
  sender_id: z.number().int(),
  sender_full_name: z.string(),
  sender_email: z.string(),
  type: z.enum(["stream", "private"]),
  display_recipient: z.union([z.string(), z.array(dmRecipientSchema)]),
  stream_id: z.number().int().optional(),
  recipient_id: z.number().int().optional(),
  subject: z.string().default(""),
  timestamp: z.number(),
  content: z.string(),
  content_type: z.string().optional(),
  flags: z.array(z.string()).default([]),
  reactions: z.array(reactionSchema).default([]),
  is_me_message: z.boolean().default(false),
  last_edit_timestamp: z.number().optional(),
  last_moved_timestamp: z.number().optional(),
  edit_history: z.array(editHistoryEntrySchema).optional(),
  avatar_url: z.string().nullish(),
  client: z.string().optional(),
  match_content: z.string().optional(),
  match_subject: z.string().optional(),
  submessages: submessageListSchema.optional(),
}));
export type Message = z.infer<typeof messageSchema>;

export const topicSchema = z.lazy(() => tolerantObject({ name: z.string(), max_id: z.number().int() }));
export type Topic = z.infer<typeof topicSchema>;

export const narrowTermSchema = z.lazy(() => z.object({
  operator: z.string(),
  operand: z.union([z.string(), z.number(), z.array(z.number()), z.array(z.string())]),
  negated: z.boolean().optional(),
}));
export type NarrowTerm = z.infer<typeof narrowTermSchema>;

/** A narrow as sent to the server: `{operator, operand}` terms, or legacy `[operator, operand]` pairs. */
export type NarrowInput = NarrowTerm[] | Array<[string, string]>;

/** A user group; fields beyond group_id are tolerant, defaulted for older servers. */
export const userGroupSchema = z.lazy(() => tolerantObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().default(""),
  members: idList().default([]),
  direct_subgroup_ids: idList().default([]),
  is_system_group: z.boolean().default(false),
  deactivated: z.boolean().default(false),
  creator_id: z.number().int().nullish(),
  date_created: z.number().nullish(),
}));
export type UserGroup = z.infer<typeof userGroupSchema>;

/** `""` unaddressed, `stream`, `private` (kept as a string: a new kind must not break parsing). */
export const draftSchema = z.lazy(() => tolerantObject({
  id: z.number().int().optional(),
  type: z.string(),
  to: z.array(z.number().int()),
  topic: z.string().default(""),
  content: z.string(),
  timestamp: z.number().optional(),
}));
export type Draft = z.infer<typeof draftSchema>;

export const savedSnippetSchema = z.lazy(() => tolerantObject({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  date_created: z.number().optional(),
}));
export type SavedSnippet = z.infer<typeof savedSnippetSchema>;

export const navigationViewSchema = z.lazy(() => tolerantObject({
  fragment: z.string(),
  is_pinned: z.boolean().default(false),
  name: z.string().nullish(),
}));
export type NavigationView = z.infer<typeof navigationViewSchema>;

export const realmEmojiSchema = z.lazy(() => tolerantObject({
  id: z.string(),
  name: z.string(),
  source_url: z.string(),
  still_url: z.string().nullish(),
  deactivated: z.boolean().default(false),
  author_id: z.number().int().nullish(),
}));
export type RealmEmoji = z.infer<typeof realmEmojiSchema>;

export const linkifierSchema = z.lazy(() => tolerantObject({
  id: z.number().int(),
  pattern: z.string(),
  url_template: z.string().optional(),
  url_format: z.string().optional(),
}));
export type Linkifier = z.infer<typeof linkifierSchema>;

/** Presence of one client in the legacy format (keyed by client name, plus `aggregated`). */
export const legacyClientPresenceSchema = z.lazy(() => tolerantObject({
  client: z.string().optional(),
  status: z.string(),
  timestamp: z.number(),
  pushable: z.boolean().optional(),
}));
type LegacyClientPresence = z.infer<typeof legacyClientPresenceSchema>;
/** One user's legacy presence: the client records; anything else a newer server puts beside them is left out. */
export const legacyPresenceSchema = z.lazy(() => z.record(z.string(), z.unknown()).transform((r) => {
  const out = Object.create(null) as Record<string, LegacyClientPresence>;
  for (const [client, v] of Object.entries(r)) {
    const p = legacyClientPresenceSchema.safeParse(v);
    if (p.success) out[client] = p.data;
  }
  return out;
}));
export type LegacyPresence = z.infer<typeof legacyPresenceSchema>;

/** Presence in the modern format (keyed by user ID); a missing or null idle time reads as never idle. */
export const modernPresenceSchema = z.lazy(() => tolerantObject({
  active_timestamp: z.number(),
  idle_timestamp: z.number().default(0),
}));
export type ModernPresence = z.infer<typeof modernPresenceSchema>;

/**
 * One user's entry of a `presences` object, in either format. An entry that is neither is
 * read as absent: one user's presence is no reason to refuse the rest.
 */
export const presenceEntrySchema = z.lazy(() => z.union([modernPresenceSchema, legacyPresenceSchema]).optional().catch(undefined));

export const userStatusSchema = z.lazy(() => tolerantObject({
  away: z.boolean().optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  reaction_type: reactionTypeSchema.optional(),
}));
export type UserStatus = z.infer<typeof userStatusSchema>;
