/**
 * What a register request carries, without its response's schemas: the
 * start path builds and sends it before the validation code has loaded.
 */
import { parseJsonInParts } from "./json-stream.js";
import { compactParsedUser } from "./schemas/user-record.js";
import type { NarrowTerm } from "./schemas/common.js";

/** Every event `type` the api layer reads (the others arrive as `unknown`); `schemas/events.ts` has a schema for each. */
export const KNOWN_EVENT_TYPES = Object.freeze([
  "heartbeat",
  "message",
  "update_message",
  "delete_message",
  "reaction",
  "update_message_flags",
  "typing",
  "typing_edit_message",
  "submessage",
  "subscription",
  "stream",
  "channel_folder",
  "user_topic",
  "realm_user",
  "user_status",
  "presence",
  "user_group",
  "muted_users",
  "custom_profile_fields",
  "user_settings",
  "update_display_settings",
  "update_global_notifications",
  "realm",
  "realm_emoji",
  "realm_linkifiers",
  "alert_words",
  "drafts",
  "saved_snippets",
  "navigation_view",
  "navigation_views",
  "scheduled_messages",
  "reminders",
  "restart",
] as const);
export type KnownEventType = (typeof KNOWN_EVENT_TYPES)[number];

export interface ClientCapabilities {
  notification_settings_null?: boolean;
  bulk_message_deletion?: boolean;
  user_avatar_url_field_optional?: boolean;
  stream_typing_notifications?: boolean;
  user_settings_object?: boolean;
  linkifier_url_template?: boolean;
  user_list_incomplete?: boolean;
  include_deactivated_groups?: boolean;
  archived_channels?: boolean;
  empty_topic_name?: boolean;
  simplified_presence_events?: boolean;
  individual_emoji_changes?: boolean;
}

export interface RegisterParams {
  apply_markdown?: boolean;
  client_gravatar?: boolean;
  include_subscribers?: boolean | "partial";
  slim_presence?: boolean;
  presence_history_limit_days?: number;
  event_types?: string[];
  fetch_event_types?: string[];
  all_public_streams?: boolean;
  narrow?: Array<[string, string]> | NarrowTerm[];
  client_capabilities?: ClientCapabilities;
  idle_queue_timeout?: number;
}

/** The request options of `POST /register` with these parameters (the schema aside). */
export function registerRequest(params: RegisterParams = {}, signal?: AbortSignal) {
  const { include_subscribers, ...rest } = params;
  return {
    params: {
      ...rest,
      include_subscribers: include_subscribers === undefined ? undefined : String(include_subscribers),
    },
    // Registering twice only leaves an unused queue behind: safe to retry.
    idempotent: true,
    timeoutMs: 60_000,
    // A big organization's answer is megabytes: parsed a section at a time, never one string,
    // and each user in the store's form as soon as it is parsed.
    parseBytes: (bytes: Buffer) => parseJsonInParts(bytes, { realm_users: compactParsedUser }),
    // Every user of the organization is in it: it may be far larger than any other answer.
    maxBytes: 128 * 1024 * 1024,
    signal,
  };
}
