/**
 * Image previews: an uploaded file's bytes, fetched with the account's
 * credentials (only from the organization's own origin).
 */
import type { ActionSession } from "./result.js";

/** The largest image file fetched for a preview. */
export const MAX_IMAGE_BYTES = 16 * 1024 * 1024;

export function fetchUploadBytes(session: Pick<ActionSession, "machine">, path: string, signal?: AbortSignal): Promise<Uint8Array> {
  return session.machine.client.download(path, { signal, maxBytes: MAX_IMAGE_BYTES });
}
