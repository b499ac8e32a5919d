/** Channel folders (feature level 389; organization administrators only). */
import type { ApiClient } from "../http.js";
import { createChannelFolderResponseSchema, getChannelFoldersResponseSchema } from "../schemas/responses-channels.js";
import { emptySuccessSchema } from "../schemas/responses.js";

/** The organization's folders in display order; archived ones only with `include_archived`. */
export function getChannelFolders(client: ApiClient, p: { include_archived?: boolean } = {}) {
  return client.request("GET", "channel_folders", { params: p, schema: getChannelFoldersResponseSchema });
}

/** Creates a folder. `description` must be sent even when empty. Not retried (it would create two). */
export function createChannelFolder(client: ApiClient, p: { name: string; description?: string }) {
  return client.request("POST", "channel_folders/create", {
    params: { name: p.name, description: p.description ?? "" },
    schema: createChannelFolderResponseSchema,
    idempotent: false,
  });
}

/** Renames, re-describes, archives or unarchives a folder: safe to repeat. */
export function updateChannelFolder(
  client: ApiClient,
  folderId: number,
  p: { name?: string; description?: string; is_archived?: boolean },
) {
  return client.request("PATCH", `channel_folders/${folderId}`, {
    params: p,
    schema: emptySuccessSchema,
    idempotent: true,
  });
}
