/** Saved snippets: reusable message texts. */
import type { ApiClient } from "../http.js";
import { createSavedSnippetResponseSchema, getSavedSnippetsResponseSchema } from "../schemas/responses-channels.js";
import { emptySuccessSchema } from "../schemas/responses.js";

export function getSavedSnippets(client: ApiClient) {
  return client.request("GET", "saved_snippets", { schema: getSavedSnippetsResponseSchema });
}

/** Not retried: a repeat would create a second snippet. */
export function createSavedSnippet(client: ApiClient, p: { title: string; content: string }) {
  return client.request("POST", "saved_snippets", {
    params: p,
    schema: createSavedSnippetResponseSchema,
    idempotent: false,
  });
}

export function editSavedSnippet(client: ApiClient, snippetId: number, p: { title?: string; content?: string }) {
  return client.request("PATCH", `saved_snippets/${snippetId}`, { params: p, schema: emptySuccessSchema, idempotent: true });
}

/** Deletes by ID (never reused): safe to repeat. */
export function deleteSavedSnippet(client: ApiClient, snippetId: number) {
  return client.request("DELETE", `saved_snippets/${snippetId}`, { schema: emptySuccessSchema, idempotent: true });
}
