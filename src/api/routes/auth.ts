import { ApiClient } from "../http.js";
import type { ClientOptions } from "../http.js";
import { fetchApiKeyResponseSchema } from "../schemas/responses.js";

/** Exchanges a username (usually the email) and password for an API key. */
export async function fetchApiKey(site: string, username: string, password: string, opts: ClientOptions = {}) {
  const client = new ApiClient({ site, email: "", apiKey: "" }, opts);
  try {
    return await client.request("POST", "fetch_api_key", {
      params: { username, password },
      schema: fetchApiKeyResponseSchema,
      anonymous: true,
      idempotent: false,
    });
  } finally {
    await client.close();
  }
}
