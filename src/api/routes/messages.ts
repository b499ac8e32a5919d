import type { ApiClient } from "../http.js";
import type { NarrowTerm } from "../schemas/common.js";
import {
  getMessagesResponseSchema,
  sendMessageResponseSchema,
  updateFlagsResponseSchema,
} from "../schemas/responses.js";

export type Anchor = number | "newest" | "oldest" | "first_unread" | "date";

export interface GetMessagesParams {
  anchor?: Anchor;
  anchor_date?: string;
  include_anchor?: boolean;
  num_before?: number;
  num_after?: number;
  narrow?: NarrowTerm[];
  client_gravatar?: boolean;
  apply_markdown?: boolean;
  allow_empty_topic_name?: boolean;
  message_ids?: number[];
}

export function getMessages(client: ApiClient, p: GetMessagesParams, signal?: AbortSignal) {
  return client.request("GET", "messages", {
    params: { ...p, anchor: p.anchor === undefined ? undefined : String(p.anchor) },
    schema: getMessagesResponseSchema,
    signal,
  });
}

export type SendMessageParams =
  | { type: "stream"; to: number | string; topic: string; content: string; queue_id?: string; local_id?: string }
  | { type: "direct"; to: number[] | string[]; content: string; queue_id?: string; local_id?: string };

/** Sends a message. Never retried: a second attempt could post it twice. */
export function sendMessage(client: ApiClient, p: SendMessageParams, signal?: AbortSignal) {
  return client.request("POST", "messages", {
    params: { ...p },
    schema: sendMessageResponseSchema,
    idempotent: false,
    signal,
  });
}

export type MessageFlag = "read" | "starred" | "collapsed" | "mentioned" | "wildcard_mentioned" | "has_alert_word" | "historical";

export function updateMessageFlags(client: ApiClient, p: { messages: number[]; op: "add" | "remove"; flag: MessageFlag }) {
  // Adding or removing a flag twice has the same effect as once.
  return client.request("POST", "messages/flags", { params: p, schema: updateFlagsResponseSchema, idempotent: true });
}
