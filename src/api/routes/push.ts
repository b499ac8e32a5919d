/** Push-notification device tokens (the APNs endpoint is deprecated since feature level 406). */
import type { ApiClient } from "../http.js";
import { emptySuccessSchema } from "../schemas/responses.js";

/** Registers an APNs token for an app ID; registering the same token twice is harmless. */
export function addApnsDeviceToken(client: ApiClient, p: { token: string; appid: string }) {
  return client.request("POST", "users/me/apns_device_token", { params: p, schema: emptySuccessSchema, idempotent: true });
}

export function removeApnsDeviceToken(client: ApiClient, p: { token: string }) {
  return client.request("DELETE", "users/me/apns_device_token", { params: p, schema: emptySuccessSchema, idempotent: true });
}
