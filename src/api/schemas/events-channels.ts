/** Events about channels, subscriptions, channel folders and per-topic preferences. */
import * as z from "zod";
import { tolerantObject } from "./tolerant.js";
import { channelFolderSchema, channelSchema, subscriptionSchema } from "./common.js";
import { id, ids } from "./events-messages.js";

export const subscriptionAddEvent = z.lazy(() => tolerantObject({
  type: z.literal("subscription"),
  id,
  op: z.literal("add"),
  subscriptions: z.array(subscriptionSchema),
}));

export const subscriptionRemoveEvent = z.lazy(() => tolerantObject({
  type: z.literal("subscription"),
  id,
  op: z.literal("remove"),
  subscriptions: z.array(tolerantObject({ stream_id: id, name: z.string().optional() })),
}));

/** One personal setting of one channel (color, is_muted, pin_to_top, notification settings…). */
export const subscriptionUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("subscription"),
  id,
  op: z.literal("update"),
  stream_id: id,
  property: z.string(),
  value: z.unknown(),
}));

const peerFields = () => ({ type: z.literal("subscription"), id, stream_ids: ids, user_ids: ids });
export const subscriptionPeerAddEvent = z.lazy(() => tolerantObject({ ...peerFields(), op: z.literal("peer_add") }));
export const subscriptionPeerRemoveEvent = z.lazy(() => tolerantObject({ ...peerFields(), op: z.literal("peer_remove") }));

export const streamCreateEvent = z.lazy(() => tolerantObject({
  type: z.literal("stream"),
  id,
  op: z.literal("create"),
  streams: z.array(channelSchema),
}));

export const streamDeleteEvent = z.lazy(() => tolerantObject({
  type: z.literal("stream"),
  id,
  op: z.literal("delete"),
  streams: z.array(tolerantObject({ stream_id: id })).default([]),
  stream_ids: ids.optional(),
}));

/** One channel property changed; `value` is the new value (its type depends on `property`). */
export const streamUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("stream"),
  id,
  op: z.literal("update"),
  stream_id: id,
  name: z.string().optional(),
  property: z.string(),
  value: z.unknown(),
  rendered_description: z.string().optional(),
  history_public_to_subscribers: z.boolean().optional(),
  is_web_public: z.boolean().optional(),
}));

export const channelFolderAddEvent = z.lazy(() => tolerantObject({
  type: z.literal("channel_folder"),
  id,
  op: z.literal("add"),
  channel_folder: channelFolderSchema,
}));

export const channelFolderUpdateEvent = z.lazy(() => tolerantObject({
  type: z.literal("channel_folder"),
  id,
  op: z.literal("update"),
  channel_folder_id: id,
  data: tolerantObject({
    name: z.string().optional(),
    description: z.string().optional(),
    rendered_description: z.string().optional(),
    is_archived: z.boolean().optional(),
  }),
}));

export const channelFolderReorderEvent = z.lazy(() => tolerantObject({
  type: z.literal("channel_folder"),
  id,
  op: z.literal("reorder"),
  order: ids,
}));

/** visibility_policy: 0 none, 1 muted, 2 unmuted, 3 followed. */
export const userTopicEvent = z.lazy(() => tolerantObject({
  type: z.literal("user_topic"),
  id,
  stream_id: id,
  topic_name: z.string(),
  last_updated: z.number().optional(),
  visibility_policy: z.number().int(),
}));

export const channelEventTable = {
  subscription: {
    ops: {
      add: subscriptionAddEvent,
      remove: subscriptionRemoveEvent,
      update: subscriptionUpdateEvent,
      peer_add: subscriptionPeerAddEvent,
      peer_remove: subscriptionPeerRemoveEvent,
    },
  },
  stream: { ops: { create: streamCreateEvent, delete: streamDeleteEvent, update: streamUpdateEvent } },
  channel_folder: {
    ops: { add: channelFolderAddEvent, update: channelFolderUpdateEvent, reorder: channelFolderReorderEvent },
  },
  user_topic: userTopicEvent,
} as const;
