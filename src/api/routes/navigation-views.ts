/** Navigation views (feature level 390): the views the user pins to the sidebar, built-in or custom. */
import type { ApiClient } from "../http.js";
import { emptySuccessSchema } from "../schemas/responses.js";
import { getNavigationViewsResponseSchema } from "../schemas/scheduled.js";

export function getNavigationViews(client: ApiClient) {
  return client.request("GET", "navigation_views", { schema: getNavigationViewsResponseSchema });
}

/** A built-in view takes no name; a custom one needs one. A repeat is refused ("already exists"): not retried. */
export function addNavigationView(client: ApiClient, p: { fragment: string; is_pinned: boolean; name?: string }) {
  return client.request("POST", "navigation_views", { params: p, schema: emptySuccessSchema, idempotent: false });
}

/** The fragment holds slashes: it travels escaped, as one segment of the path. */
export function updateNavigationView(client: ApiClient, fragment: string, p: { is_pinned?: boolean; name?: string }) {
  return client.request("PATCH", `navigation_views/${encodeURIComponent(fragment)}`, { params: p, schema: emptySuccessSchema, idempotent: true });
}

export function removeNavigationView(client: ApiClient, fragment: string) {
  return client.request("DELETE", `navigation_views/${encodeURIComponent(fragment)}`, { schema: emptySuccessSchema, idempotent: true });
}
