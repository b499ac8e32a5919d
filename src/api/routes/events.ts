import type { ApiClient } from "../http.js";
import { registerResponseSchema } from "../schemas/register.js";
import type { ServerEvent } from "../schemas/events.js";
import { emptySuccessSchema } from "../schemas/responses.js";
import { registerRequest, type RegisterParams } from "../register-request.js";

export type { ClientCapabilities, RegisterParams } from "../register-request.js";

export function register(client: ApiClient, params: RegisterParams = {}, signal?: AbortSignal) {
  return client.request("POST", "register", { ...registerRequest(params, signal), schema: registerResponseSchema });
}

export interface EventsResult {
  events: ServerEvent[];
  queueId?: string;
}

/** The event schemas, made at the first poll (after the register): not on the way to the first frame. */
let eventSchemas: Promise<typeof import("../schemas/events.js")> | undefined;

/**
 * Long-polls the queue. `timeoutMs` should be longer than the server's
 * heartbeat (the register's event_queue_longpoll_timeout_seconds).
 */
export async function getEvents(
  client: ApiClient,
  p: { queue_id: string; last_event_id: number; dont_block?: boolean },
  o: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<EventsResult> {
  const { eventsResponseSchema, parseEvent } = await (eventSchemas ??= import("../schemas/events.js"));
  const res = await client.request("GET", "events", {
    params: p,
    schema: eventsResponseSchema,
    timeoutMs: o.timeoutMs ?? 100_000,
    signal: o.signal,
    // The update machine owns retries of the poll (with its own backoff and UI notice).
    retry: { attempts: 1 },
  });
  return { events: res.events.map(parseEvent), queueId: res.queue_id };
}

export function deleteQueue(client: ApiClient, queueId: string) {
  return client.request("DELETE", "events", {
    params: { queue_id: queueId },
    schema: emptySuccessSchema,
    idempotent: true,
    timeoutMs: 5_000,
    retry: { attempts: 1 },
  });
}
