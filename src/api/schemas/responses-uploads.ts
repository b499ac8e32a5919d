/** Answers of the file endpoints: an upload, a temporary URL, the account's attachments. */
import * as z from "zod";
import { successBase } from "./common.js";
import { tolerantObject } from "./tolerant.js";

/** `url` since feature level 272; older servers answer `uri` only. */
export const uploadResultSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  url: z.string().optional(),
  uri: z.string().optional(),
  filename: z.string().optional(),
})
  .refine((r) => typeof (r.url ?? r.uri) === "string", { message: "the answer has no url" })
  .transform((r) => ({ ...r, url: (r.url ?? r.uri)! })));
export type UploadResult = z.infer<typeof uploadResultSchema>;

export const temporaryUrlSchema = z.lazy(() => tolerantObject({ ...successBase(), url: z.string() }));

const attachmentSchema = z.lazy(() => tolerantObject({
  id: z.number().int(),
  name: z.string(),
  path_id: z.string(),
  size: z.number().int().nonnegative(),
  create_time: z.number(),
  messages: z.array(tolerantObject({ id: z.number().int(), date_sent: z.number() })).default([]),
}));
export type Attachment = z.infer<typeof attachmentSchema>;

export const attachmentsSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  attachments: z.array(attachmentSchema),
  upload_space_used: z.number().int().nullable().optional(),
}));
