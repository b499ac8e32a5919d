import type { ApiClient } from "../http.js";
import { registerResponseSchema } from "../schemas/register.js";
import { eventsResponseSchema, parseEvent, type ServerEvent } from "../schemas/events.js";
import { emptySuccessSchema } from "../schemas/responses.js";
import type { NarrowTerm } from "../schemas/common.js";

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

export function register(client: ApiClient, params: RegisterParams = {}, signal?: AbortSignal) {
  const { include_subscribers, ...rest } = params;
  return client.request("POST", "register", {
    params: {
      ...rest,
      include_subscribers: include_subscribers === undefined ? undefined : String(include_subscribers),
    },
    schema: registerResponseSchema,
    // Registering twice only leaves an unused queue behind: safe to retry.
    idempotent: true,
    timeoutMs: 60_000,
    signal,
  });
}

export interface EventsResult {
  events: ServerEvent[];
  queueId?: string;
}

/**
 * Long-polls the queue. `timeoutMs` should be longer than the server's
 * heartbeat (the register's event_queue_longpoll_timeout_seconds).
 */
export async function getEvents(
  client: ApiClient,
  p: { queue_id: string; last_event_id: number; dont_block?: boolean },
  o: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<EventsResult> {
  const res = await client.request("GET", "events", {
    params: p,
    schema: eventsResponseSchema,
    timeoutMs: o.timeoutMs ?? 100_000,
    signal: o.signal,
    // The update machine owns retries of the poll (with its own backoff and UI notice).
    retry: { attempts: 1 },
  });
  return { events: res.events.map(parseEvent), queueId: res.queue_id };
}

export function deleteQueue(client: ApiClient, queueId: string) {
  return client.request("DELETE", "events", {
    params: { queue_id: queueId },
    schema: emptySuccessSchema,
    idempotent: true,
    timeoutMs: 5_000,
    retry: { attempts: 1 },
  });
}
