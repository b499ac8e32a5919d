/** The `POST /register` response: the initial state from which the store is built. */
import * as z from "zod";
import { LazyRecords } from "./lazy-records.js";
import {
  channelFolderSchema,
  channelSchema,
  draftSchema,
  linkifierSchema,
  navigationViewSchema,
  presenceEntrySchema,
  realmEmojiSchema,
  savedSnippetSchema,
  subscriptionSchema,
  successBase,
  userGroupSchema,
  userSchema,
} from "./common.js";
import { reminderSchema, scheduledMessageSchema } from "./scheduled.js";
import { byHandOr, recentDmsByHand } from "./by-hand.js";
import { idList } from "./id-list.js";
import { tolerantObject } from "./tolerant.js";
import { unreadsByHand } from "./unreads-by-hand.js";
import { adoptCheckedUser } from "./user-record.js";

const idArray = z.lazy(() => idList());

export const unreadMsgsSchema = z.lazy(() => tolerantObject({
  count: z.number().int().default(0),
  pms: z
    .array(
      tolerantObject({
        other_user_id: z.number().int().optional(),
        sender_id: z.number().int().optional(),
        unread_message_ids: idArray,
      }),
    )
    .default([]),
  streams: z
    .array(tolerantObject({ stream_id: z.number().int(), topic: z.string(), unread_message_ids: idArray }))
    .default([]),
  huddles: z.array(tolerantObject({ user_ids_string: z.string(), unread_message_ids: idArray })).default([]),
  mentions: idArray.default([]),
  old_unreads_missing: z.boolean().default(false),
}));
export type UnreadMsgs = z.infer<typeof unreadMsgsSchema>;

/**
 * The register's unread record, checked by hand (unreads-by-hand.ts), as the schema would read
 * it; what the hand check refuses goes through the schema (by-hand.ts).
 */
const unreadMsgsField = z.lazy(() => byHandOr(unreadsByHand, unreadMsgsSchema.optional()).optional());

export const userTopicSchema = z.lazy(() => tolerantObject({
  stream_id: z.number().int(),
  topic_name: z.string(),
  last_updated: z.number().optional(),
  visibility_policy: z.number().int(),
}));
export type UserTopic = z.infer<typeof userTopicSchema>;

export const recentDmSchema = z.lazy(() => tolerantObject({ max_message_id: z.number().int(), user_ids: idArray }));
/** A thousand conversations on a big organization: checked by hand, else by the schema (by-hand.ts). */
const recentDmsField = z.lazy(() => byHandOr(recentDmsByHand, z.array(recentDmSchema)).default([]));

/**
 * Both spellings of the renamed fields are accepted: the spec's `svc_*` and
 * the public `zulip_*`. Whichever the server sent ends up as `svc_*`.
 */
function mapPublicNames(raw: unknown): unknown {
  if (!raw || typeof raw !== "object") return raw;
  const r = raw as Record<string, unknown>;
  if (r.svc_feature_level === undefined && r.zulip_feature_level !== undefined) {
    return { ...r, svc_feature_level: r.zulip_feature_level };
  }
  return r;
}

/** An array whose records are checked as they are used (LazyRecords), by their integer id field. */
export function lazyArray<T>(schema: z.ZodType<T>, what: string, idField: string, keep?: (checked: T, raw: unknown) => T) {
  const idOf = (r: unknown) => (r && typeof r === "object" ? (r as Record<string, unknown>)[idField] : undefined);
  return z
    .array(z.unknown())
    .default([])
    .transform((raw) => new LazyRecords(raw, schema, what, idOf, keep));
}

const realmUsersField = z.lazy(() => lazyArray(userSchema, "user", "user_id", adoptCheckedUser));
const neverSubscribedField = z.lazy(() => lazyArray(channelSchema, "channel", "stream_id"));

/**
 * A register-shaped record this build's schema gave before (written out as JSON, the local
 * cache's), made that shape again: its two lists of records checked as they are used become
 * such lists once more (LazyRecords writes itself out as the plain list).
 */
export function relistLazyRecords(reg: Record<string, unknown>): Record<string, unknown> {
  reg.realm_users = realmUsersField.parse(reg.realm_users);
  reg.never_subscribed = neverSubscribedField.parse(reg.never_subscribed);
  return reg;
}

export const registerResponseSchema = z.lazy(() => z.preprocess(
  mapPublicNames,
  tolerantObject({
    ...successBase(),
    queue_id: z.string().nullable(),
    last_event_id: z.number().int(),
    svc_feature_level: z.number().int().default(0),
    zulip_version: z.string().optional(),
    event_queue_longpoll_timeout_seconds: z.number().optional(),
    idle_queue_timeout_secs: z.number().optional(),
    realm_name: z.string().default(""),
    realm_url: z.string().optional(),
    realm_uri: z.string().optional(),
    realm_empty_topic_display_name: z.string().default("general chat"),
    max_stream_name_length: z.number().int().default(60),
    max_stream_description_length: z.number().int().default(1024),
    max_topic_length: z.number().int().default(60),
    max_message_length: z.number().int().default(10000),
    max_file_upload_size_mib: z.number().nonnegative().optional(),
    max_channel_folder_name_length: z.number().int().optional(),
    max_channel_folder_description_length: z.number().int().optional(),
    server_presence_ping_interval_seconds: z.number().optional(),
    server_presence_offline_threshold_seconds: z.number().optional(),
    server_typing_started_wait_period_milliseconds: z.number().optional(),
    server_typing_stopped_wait_period_milliseconds: z.number().optional(),
    server_typing_started_expiry_period_milliseconds: z.number().optional(),
    user_id: z.number().int().optional(),
    email: z.string().optional(),
    full_name: z.string().optional(),
    // Checked one by one as they are used (see LazyRecords): a big organization has tens of
    // thousands, and the first screen needs a handful.
    realm_users: realmUsersField,
    realm_non_active_users: z.array(userSchema).default([]),
    cross_realm_bots: z.array(userSchema).default([]),
    subscriptions: z.array(subscriptionSchema).default([]),
    unsubscribed: z.array(subscriptionSchema).default([]),
    // Channels one can join: a big organization has thousands, the first screen needs none.
    never_subscribed: neverSubscribedField,
    channel_folders: z.array(channelFolderSchema).default([]),
    unread_msgs: unreadMsgsField,
    recent_private_conversations: recentDmsField,
    user_topics: z.array(userTopicSchema).default([]),
    user_settings: tolerantObject({}).optional(),
    presence_last_update_id: z.number().int().optional(),
    /** Keyed by user ID (slim_presence: modern format) or by email (legacy format). */
    presences: z.record(z.string(), presenceEntrySchema).optional(),
    navigation_views: z.array(navigationViewSchema).optional(),
    saved_snippets: z.array(savedSnippetSchema).optional(),
    scheduled_messages: z.array(scheduledMessageSchema).optional(),
    reminders: z.array(reminderSchema).optional(),
    /** How long a reminder's note may be (feature level 415). */
    max_reminder_note_length: z.number().int().optional(),
    /** Whether the organization shows who read a message (feature level 137; with the `realm` section). */
    realm_enable_read_receipts: z.boolean().optional(),
    drafts: z.array(draftSchema).optional(),
    realm_linkifiers: z.array(linkifierSchema).optional(),
    realm_user_groups: z.array(userGroupSchema).optional(),
    realm_emoji: z.record(z.string(), realmEmojiSchema).optional(),
  }),
));
export type RegisterResponse = z.infer<typeof registerResponseSchema>;
