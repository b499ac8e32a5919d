/** The user's own settings (PATCH /settings): those this client changes. */
import type { ApiClient } from "../http.js";
import { emptySuccessSchema } from "../schemas/responses.js";

/** Only passed settings change. */
export interface UpdateSettingsParams {
  /** When viewing messages marks them read: 1 always, 2 only in conversation views, 3 never (feature level 175). */
  web_mark_read_on_scroll_policy?: 1 | 2 | 3;
}

/** Setting the same value twice is harmless: retried on transient failures. */
export function updateSettings(client: ApiClient, p: UpdateSettingsParams) {
  return client.request("PATCH", "settings", { params: p, schema: emptySuccessSchema, idempotent: true });
}
