/** Messages: fetch, send, edit/move, delete, history, and narrow matching. Flags live in message-flags.ts. */
import type { ApiClient } from "../http.js";
import type { NarrowInput, NarrowTerm } from "../schemas/common.js";
import {
  emptySuccessSchema,
  getMessageResponseSchema,
  getMessagesResponseSchema,
  matchesNarrowResponseSchema,
  messageHistoryResponseSchema,
  sendMessageResponseSchema,
  updateMessageResponseSchema,
} from "../schemas/responses.js";

export * from "./message-flags.js";

/** A message ID, or `newest`, `oldest`, `first_unread`, or `date` (with `anchor_date`). */
export type Anchor = number | "newest" | "oldest" | "first_unread" | "date";

interface GetMessagesCommon {
  narrow?: NarrowInput;
  client_gravatar?: boolean;
  /** false: `content` is the raw Markdown (what termchat renders itself). */
  apply_markdown?: boolean;
  allow_empty_topic_name?: boolean;
}

/** A window around an anchor (at most 5000 messages per request; 1000 recommended). */
export interface GetMessagesRangeParams extends GetMessagesCommon {
  anchor?: Anchor;
  /** ISO 8601 date or datetime, with `anchor: "date"`. */
  anchor_date?: string;
  include_anchor?: boolean;
  num_before?: number;
  num_after?: number;
  /** Deprecated alternative to `anchor: "first_unread"`. */
  use_first_unread_anchor?: boolean;
  message_ids?: never;
}

/** Specific messages by ID (feature level 300); not combinable with the range parameters. */
export interface GetMessagesByIdParams extends GetMessagesCommon {
  message_ids: number[];
  anchor?: never;
  anchor_date?: never;
  include_anchor?: never;
  num_before?: never;
  num_after?: never;
  use_first_unread_anchor?: never;
}

export type GetMessagesParams = GetMessagesRangeParams | GetMessagesByIdParams;

/**
 * A spectator's narrow says that it reads web-public channels: the server refuses one that
 * does not (as it would a request whose credentials went missing). `in:home` (the combined
 * feed without what the user muted) goes: a spectator has muted nothing, and the operator
 * depends on a user, which the server refuses a spectator.
 */
export function spectatorNarrow(narrow: NarrowInput | undefined): NarrowInput {
  const pairs = narrow !== undefined && narrow.length > 0 && Array.isArray(narrow[0]);
  const terms: NarrowTerm[] = (narrow ?? []).map((t) => (Array.isArray(t) ? { operator: t[0], operand: t[1] } : t));
  const kept = terms.filter((t) => !(t.operator === "in" && t.operand === "home" && !t.negated));
  if (!kept.some((t) => t.operator === "channels" && t.operand === "web-public" && !t.negated)) kept.push({ operator: "channels", operand: "web-public" });
  return pairs ? kept.map((t) => [t.operator, String(t.operand)] as [string, string]) : kept;
}

export function getMessages(client: ApiClient, p: GetMessagesParams, signal?: AbortSignal) {
  const anchor = "anchor" in p && p.anchor !== undefined ? String(p.anchor) : undefined;
  const spectator = client.spectator ? { narrow: spectatorNarrow(p.narrow), client_gravatar: false } : {};
  return client.request("GET", "messages", {
    params: { ...p, anchor, ...spectator },
    schema: getMessagesResponseSchema,
    signal,
  });
}

/** One message; `apply_markdown: false` returns its raw Markdown in `content`. */
export function getMessage(
  client: ApiClient,
  messageId: number,
  p: { apply_markdown?: boolean; allow_empty_topic_name?: boolean } = {},
  signal?: AbortSignal,
) {
  return client.request("GET", `messages/${messageId}`, { params: p, schema: getMessageResponseSchema, signal });
}

export function getMessageHistory(client: ApiClient, messageId: number, p: { allow_empty_topic_name?: boolean } = {}) {
  return client.request("GET", `messages/${messageId}/history`, { params: p, schema: messageHistoryResponseSchema });
}

interface SendCommon {
  content: string;
  /** With `local_id`, lets the sender recognise the echo of its own message in the event stream. */
  queue_id?: string;
  local_id?: string;
  read_by_sender?: boolean;
}
export type SendMessageParams =
  | (SendCommon & { type: "stream" | "channel"; to: number | string; topic: string })
  | (SendCommon & { type: "direct" | "private"; to: number[] | string[] });

/** Sends a message. Never retried: a second attempt could post it twice. */
export function sendMessage(client: ApiClient, p: SendMessageParams, signal?: AbortSignal) {
  return client.request("POST", "messages", {
    params: { ...p },
    schema: sendMessageResponseSchema,
    idempotent: false,
    signal,
  });
}

export type PropagateMode = "change_one" | "change_later" | "change_all";

export interface UpdateMessageParams {
  content?: string;
  topic?: string;
  /** Move to another channel. */
  stream_id?: number;
  /** Which messages of the topic move along (default change_one). */
  propagate_mode?: PropagateMode;
  send_notification_to_old_thread?: boolean;
  send_notification_to_new_thread?: boolean;
  /** Optimistic concurrency for content edits (feature level 379+): the content the client saw. */
  prev_content_sha256?: string;
}

/**
 * Edits a message's content and/or moves it (and others of its topic) to a
 * new topic or channel. Not retried: a repeated move could carry along
 * messages that arrived in between, and post the notifications twice.
 */
export function updateMessage(client: ApiClient, messageId: number, p: UpdateMessageParams) {
  return client.request("PATCH", `messages/${messageId}`, {
    params: p,
    schema: updateMessageResponseSchema,
    idempotent: false,
  });
}

/** Deletes one message. Safe to repeat: the ID names one message forever. */
export function deleteMessage(client: ApiClient, messageId: number) {
  return client.request("DELETE", `messages/${messageId}`, { schema: emptySuccessSchema, idempotent: true });
}

/** Which of `msg_ids` match `narrow`, with the matching content/topic highlighted as HTML. */
export function checkMessagesMatchNarrow(client: ApiClient, p: { msg_ids: number[]; narrow: NarrowInput }) {
  return client.request("GET", "messages/matches_narrow", { params: p, schema: matchesNarrowResponseSchema });
}
