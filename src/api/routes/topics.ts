import type { ApiClient } from "../http.js";
import { topicsResponseSchema } from "../schemas/responses.js";

export function getTopics(client: ApiClient, channelId: number, p: { allow_empty_topic_name?: boolean } = {}) {
  return client.request("GET", `users/me/${channelId}/topics`, { params: p, schema: topicsResponseSchema });
}
