/** Message flags (read, starred, …) by IDs and by narrow, and the mark-as-read shortcuts. */
import type { ApiClient } from "../http.js";
import type { NarrowInput } from "../schemas/common.js";
import {
  emptySuccessSchema,
  markAllAsReadResponseSchema,
  updateFlagsForNarrowResponseSchema,
  updateFlagsResponseSchema,
} from "../schemas/responses.js";

export type MessageFlag =
  | "read"
  | "starred"
  | "collapsed"
  | "mentioned"
  | "wildcard_mentioned"
  | "has_alert_word"
  | "historical";

export type FlagOp = "add" | "remove";

/** Adding or removing a flag twice has the effect of once: retried on transient failures. */
export function updateMessageFlags(client: ApiClient, p: { messages: number[]; op: FlagOp; flag: MessageFlag }) {
  return client.request("POST", "messages/flags", { params: p, schema: updateFlagsResponseSchema, idempotent: true });
}

export interface UpdateFlagsForNarrowParams {
  anchor: number | "newest" | "oldest" | "first_unread";
  include_anchor?: boolean;
  num_before: number;
  num_after: number;
  narrow: NarrowInput;
  op: FlagOp;
  flag: MessageFlag;
}

/**
 * Updates a flag on a window of a narrow (e.g. mark a topic read). The
 * response says how far it got (`first/last_processed_id`, `found_*`):
 * loop from `last_processed_id` until `found_newest` for a whole narrow.
 */
export function updateMessageFlagsForNarrow(client: ApiClient, p: UpdateFlagsForNarrowParams) {
  return client.request("POST", "messages/flags/narrow", {
    params: { ...p, anchor: String(p.anchor) },
    schema: updateFlagsForNarrowResponseSchema,
    idempotent: true,
  });
}

/** Marks everything read; `complete: false` means the server stopped early: call again. */
export function markAllAsRead(client: ApiClient) {
  return client.request("POST", "mark_all_as_read", { schema: markAllAsReadResponseSchema, idempotent: true });
}

export function markChannelAsRead(client: ApiClient, channelId: number) {
  return client.request("POST", "mark_stream_as_read", {
    params: { stream_id: channelId },
    schema: emptySuccessSchema,
    idempotent: true,
  });
}

/** Deprecated by the server in favour of `updateMessageFlagsForNarrow`; kept for older servers. */
export function markTopicAsRead(client: ApiClient, channelId: number, topicName: string) {
  return client.request("POST", "mark_topic_as_read", {
    params: { stream_id: channelId, topic_name: topicName },
    schema: emptySuccessSchema,
    idempotent: true,
  });
}
