/** Read receipts (feature level 137): who has read a message, where the organization shows it. */
import type { ApiClient } from "../http.js";
import { readReceiptsResponseSchema } from "../schemas/scheduled.js";

export function getReadReceipts(client: ApiClient, messageId: number) {
  return client.request("GET", `messages/${messageId}/read_receipts`, { schema: readReceiptsResponseSchema });
}
