/** Server-side drafts (synchronised between the user's clients). */
import type { ApiClient } from "../http.js";
import { createDraftsResponseSchema, getDraftsResponseSchema } from "../schemas/responses-channels.js";
import { emptySuccessSchema } from "../schemas/responses.js";

/** A draft as sent: `to` holds one channel ID for a channel draft, user IDs for a DM draft, [] when unaddressed. */
export type DraftInput =
  | { type: "stream"; to: [number]; topic: string; content: string; timestamp?: number }
  | { type: "private"; to: number[]; topic?: ""; content: string; timestamp?: number }
  | { type: ""; to: []; topic?: ""; content: string; timestamp?: number };

function wire(d: DraftInput) {
  return { ...d, topic: d.topic ?? "" };
}

export function getDrafts(client: ApiClient) {
  return client.request("GET", "drafts", { schema: getDraftsResponseSchema });
}

/** Not retried: a repeat would create the drafts twice. Returns the new IDs in order. */
export function createDrafts(client: ApiClient, drafts: DraftInput[]) {
  return client.request("POST", "drafts", {
    params: { drafts: drafts.map(wire) },
    schema: createDraftsResponseSchema,
    idempotent: false,
  });
}

/** Replaces a draft: safe to repeat. */
export function editDraft(client: ApiClient, draftId: number, draft: DraftInput) {
  return client.request("PATCH", `drafts/${draftId}`, {
    params: { draft: wire(draft) },
    schema: emptySuccessSchema,
    idempotent: true,
  });
}

/** Deletes by ID (an ID is never reused): safe to repeat. */
export function deleteDraft(client: ApiClient, draftId: number) {
  return client.request("DELETE", `drafts/${draftId}`, { schema: emptySuccessSchema, idempotent: true });
}
