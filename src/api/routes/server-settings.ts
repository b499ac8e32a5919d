/** GET /server_settings: what a login screen needs, without credentials. */
import { ApiClient, type ClientOptions } from "../http.js";
import { serverSettingsResponseSchema } from "../schemas/responses-users.js";

/** With an existing client (the Authorization header is left out). */
export function getServerSettings(client: ApiClient, signal?: AbortSignal) {
  return client.request("GET", "server_settings", { schema: serverSettingsResponseSchema, anonymous: true, signal });
}

/** Before there is an account: by site URL alone. */
export async function fetchServerSettings(site: string, opts: ClientOptions = {}) {
  const client = new ApiClient({ site, email: "", apiKey: "" }, opts);
  try {
    return await getServerSettings(client);
  } finally {
    await client.close();
  }
}
