/** Response envelopes of the subscription, channel, folder, draft and snippet endpoints. */
import * as z from "zod";
import { tolerantObject } from "./tolerant.js";
import { channelFolderSchema, draftSchema, savedSnippetSchema, subscriptionSchema, successBase } from "./common.js";

export const getSubscriptionsResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  subscriptions: z.array(subscriptionSchema),
}));
export type GetSubscriptionsResponse = z.infer<typeof getSubscriptionsResponseSchema>;

/** `subscribed` and `already_subscribed` map a user (ID, or email on old servers) to channel names. */
export const subscribeResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  subscribed: z.record(z.string(), z.array(z.string())).default({}),
  already_subscribed: z.record(z.string(), z.array(z.string())).default({}),
  unauthorized: z.array(z.string()).optional(),
}));
export type SubscribeResponse = z.infer<typeof subscribeResponseSchema>;

export const unsubscribeResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  removed: z.array(z.string()).default([]),
  not_removed: z.array(z.string()).default([]),
}));
export type UnsubscribeResponse = z.infer<typeof unsubscribeResponseSchema>;

export const getChannelIdResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), stream_id: z.number().int() }));

export const createChannelFolderResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  channel_folder_id: z.number().int(),
}));
export type CreateChannelFolderResponse = z.infer<typeof createChannelFolderResponseSchema>;

export const getChannelFoldersResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  channel_folders: z.array(channelFolderSchema),
}));
export type GetChannelFoldersResponse = z.infer<typeof getChannelFoldersResponseSchema>;

export const getDraftsResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  count: z.number().int().optional(),
  drafts: z.array(draftSchema),
}));
export type GetDraftsResponse = z.infer<typeof getDraftsResponseSchema>;

export const createDraftsResponseSchema = z.lazy(() => tolerantObject({ ...successBase(), ids: z.array(z.number().int()) }));
export type CreateDraftsResponse = z.infer<typeof createDraftsResponseSchema>;

export const getSavedSnippetsResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  saved_snippets: z.array(savedSnippetSchema),
}));
export type GetSavedSnippetsResponse = z.infer<typeof getSavedSnippetsResponseSchema>;

export const createSavedSnippetResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  saved_snippet_id: z.number().int(),
}));
export type CreateSavedSnippetResponse = z.infer<typeof createSavedSnippetResponseSchema>;
