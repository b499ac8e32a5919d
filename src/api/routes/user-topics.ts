/** Personal per-topic preferences: mute, unmute (in a muted channel), follow. */
import type { ApiClient } from "../http.js";
import { emptySuccessSchema } from "../schemas/responses.js";

export const VisibilityPolicy = { None: 0, Muted: 1, Unmuted: 2, Followed: 3 } as const;
export type VisibilityPolicy = (typeof VisibilityPolicy)[keyof typeof VisibilityPolicy];

/** Sets the policy directly (0 none, 1 muted, 2 unmuted, 3 followed): safe to repeat. */
export function updateUserTopic(client: ApiClient, p: { stream_id: number; topic: string; visibility_policy: VisibilityPolicy }) {
  return client.request("POST", "user_topics", { params: p, schema: emptySuccessSchema, idempotent: true });
}
