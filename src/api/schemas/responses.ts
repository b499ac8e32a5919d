/** Response envelopes of the message endpoints (and the shared empty success). */
import * as z from "zod";
import { tolerantObject } from "./tolerant.js";
import { editHistoryEntryShape, messageSchema, successBase, topicSchema } from "./common.js";

export const emptySuccessSchema = z.lazy(() => tolerantObject({ ...successBase() }));
export type EmptySuccess = z.infer<typeof emptySuccessSchema>;

export const fetchApiKeyResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  api_key: z.string(),
  email: z.string(),
  user_id: z.number().int().optional(),
}));
export type FetchApiKeyResponse = z.infer<typeof fetchApiKeyResponseSchema>;

export const getMessagesResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  // `newest` comes back as 10^16, past the safe-integer range: a number, not an int.
  anchor: z.number().optional(),
  found_newest: z.boolean().default(false),
  found_oldest: z.boolean().default(false),
  found_anchor: z.boolean().default(false),
  history_limited: z.boolean().default(false),
  messages: z.array(messageSchema),
}));
export type GetMessagesResponse = z.infer<typeof getMessagesResponseSchema>;

export const getMessageResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  message: messageSchema,
  /** Deprecated: the raw Markdown, sent before `apply_markdown` existed on this endpoint. */
  raw_content: z.string().optional(),
}));
export type GetMessageResponse = z.infer<typeof getMessageResponseSchema>;

export const messageHistoryResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  message_history: z.array(
    tolerantObject({
      ...editHistoryEntryShape(),
      content: z.string().optional(),
      rendered_content: z.string().optional(),
      content_html_diff: z.string().optional(),
    }),
  ),
}));
export type MessageHistoryResponse = z.infer<typeof messageHistoryResponseSchema>;

export const sendMessageResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  id: z.number().int(),
  automatic_new_visibility_policy: z.number().int().optional(),
}));
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

export const updateMessageResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  detached_uploads: z.array(tolerantObject({ id: z.number().int(), name: z.string() })).default([]),
}));
export type UpdateMessageResponse = z.infer<typeof updateMessageResponseSchema>;

export const topicsResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), topics: z.array(topicSchema) }));
export type TopicsResponse = z.infer<typeof topicsResponseSchema>;

export const updateFlagsResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  messages: z.array(z.number().int()).default([]),
  ignored_because_not_subscribed_channels: z.array(z.number().int()).default([]),
}));
export type UpdateFlagsResponse = z.infer<typeof updateFlagsResponseSchema>;

export const updateFlagsForNarrowResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  processed_count: z.number().int(),
  updated_count: z.number().int(),
  first_processed_id: z.number().int().nullable(),
  last_processed_id: z.number().int().nullable(),
  found_oldest: z.boolean(),
  found_newest: z.boolean(),
  ignored_because_not_subscribed_channels: z.array(z.number().int()).default([]),
}));
export type UpdateFlagsForNarrowResponse = z.infer<typeof updateFlagsForNarrowResponseSchema>;

export const matchesNarrowResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  messages: z.record(z.string(), tolerantObject({ match_content: z.string(), match_subject: z.string() })),
}));
export type MatchesNarrowResponse = z.infer<typeof matchesNarrowResponseSchema>;

export const markAllAsReadResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  /** false when the server stopped after a time budget: call again to finish. */
  complete: z.boolean().default(true),
}));
export type MarkAllAsReadResponse = z.infer<typeof markAllAsReadResponseSchema>;
