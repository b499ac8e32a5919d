/**
 * What this client asks of register. Free of the response's schemas: the
 * start path sends the register before the validation code has loaded.
 */
import { KNOWN_EVENT_TYPES, type ClientCapabilities, type RegisterParams } from "../api/register-request.js";

/**
 * What this client can handle, declared explicitly (the server adapts its
 * events and register payload to it).
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  empty_topic_name: true,
  archived_channels: true,
  // The api layer reads both presence formats; the modern one is smaller.
  simplified_presence_events: true,
  // The linkifier schema reads URL templates; without this the list is empty.
  linkifier_url_template: true,
};

/**
 * Initial-state sections the store (and the presence reporter, draft sync) is built from. Not
 * `realm_user`: the users, four fifths of a big organization's answer, are fetched on their own
 * once the first screen is drawn (user-list.ts).
 */
export const FETCH_EVENT_TYPES = [
  "realm",
  "subscription",
  "channel_folders",
  "message",
  "update_message_flags",
  "recent_private_conversations",
  "user_topic",
  "user_settings",
  "user_status",
  "presence",
  "drafts",
  "realm_emoji",
  "realm_linkifiers",
  "realm_user_groups",
  "muted_users",
  // The user's own lists (each ignored by servers older than it).
  "saved_snippets",
  "navigation_views",
  "scheduled_messages",
  "reminders",
] as const;

/** Event types the client reads (every other type is dropped by the server). */
export const EVENT_TYPES: readonly string[] = KNOWN_EVENT_TYPES.filter((t) => t !== "heartbeat");

/** What the client asks of register: raw Markdown, its event types and sections, its capabilities. */
export function clientRegisterParams(): RegisterParams {
  return {
    apply_markdown: false,
    client_gravatar: true,
    include_subscribers: false,
    slim_presence: true,
    event_types: [...EVENT_TYPES],
    fetch_event_types: [...FETCH_EVENT_TYPES],
    client_capabilities: CLIENT_CAPABILITIES,
  };
}

/**
 * What a spectator asks of register (no credentials): the spec makes `client_gravatar` and
 * `include_subscribers` errors when true without an account, and there is no queue to ask
 * events of.
 */
export function spectatorRegisterParams(): RegisterParams {
  return {
    apply_markdown: false,
    client_gravatar: false,
    include_subscribers: false,
    fetch_event_types: [...FETCH_EVENT_TYPES],
    client_capabilities: CLIENT_CAPABILITIES,
  };
}

/** The register parameters for this client: an account's, or a spectator's. */
export function registerParamsFor(client: { spectator: boolean }): RegisterParams {
  return client.spectator ? spectatorRegisterParams() : clientRegisterParams();
}
