/** Typing notifications. */
import type { ApiClient } from "../http.js";
import { emptySuccessSchema } from "../schemas/responses.js";

export type TypingParams =
  /** `direct` (feature level 174+; `private` before): `to` holds the recipients' user IDs. */
  | { op: "start" | "stop"; type: "direct" | "private"; to: number[] }
  /** A channel topic (`stream_id` since feature level 215; `channel` is the newer spelling of the type). */
  | { op: "start" | "stop"; type: "stream" | "channel"; stream_id: number; topic: string };

/**
 * Sends a typing start/stop notification. Repeating is harmless but stale
 * repeats are useless, so failures are not retried: the next keystroke sends anew.
 */
export function setTypingStatus(client: ApiClient, p: TypingParams, signal?: AbortSignal) {
  return client.request("POST", "typing", {
    params: p,
    schema: emptySuccessSchema,
    idempotent: true,
    retry: { attempts: 1 },
    timeoutMs: 10_000,
    signal,
  });
}
