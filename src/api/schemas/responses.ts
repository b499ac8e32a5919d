/** Response envelopes of the endpoints the client calls. */
import { z } from "zod";
import { messageSchema, successBase, topicSchema } from "./common.js";

export const emptySuccessSchema = z.looseObject({ ...successBase });

export const fetchApiKeyResponseSchema = z.looseObject({
  ...successBase,
  api_key: z.string(),
  email: z.string(),
  user_id: z.number().int().optional(),
});

export const getMessagesResponseSchema = z.looseObject({
  ...successBase,
  // `newest` comes back as 10^16, past the safe-integer range: a number, not an int.
  anchor: z.number().optional(),
  found_newest: z.boolean().default(false),
  found_oldest: z.boolean().default(false),
  found_anchor: z.boolean().default(false),
  history_limited: z.boolean().default(false),
  messages: z.array(messageSchema),
});
export type GetMessagesResponse = z.infer<typeof getMessagesResponseSchema>;

export const sendMessageResponseSchema = z.looseObject({ ...successBase, id: z.number().int() });

export const topicsResponseSchema = z.looseObject({ ...successBase, topics: z.array(topicSchema) });

export const updateFlagsResponseSchema = z.looseObject({
  ...successBase,
  messages: z.array(z.number().int()).default([]),
});
