import { SchemaError } from "../errors.js";
import type { z } from "zod";
import type { ApiClient, RequestOptions } from "../http.js";
import { DeferredArray, parseDeferring } from "../json-sections.js";
import { registerResponseSchema } from "../schemas/register.js";
import { spectatorRegisterSchema } from "../schemas/spectator.js";
import type { ServerEvent } from "../schemas/events.js";
import { emptySuccessSchema } from "../schemas/responses.js";
import { registerRequest, type RegisterParams } from "../register-request.js";

export type { ClientCapabilities, RegisterParams } from "../register-request.js";

/** The schema of the client's register answer: a spectator's is held to web-public channels (schemas/spectator.ts). */
export function registerSchemaOf(client: ApiClient): typeof registerResponseSchema | typeof spectatorRegisterSchema {
  return client.spectator ? spectatorRegisterSchema : registerResponseSchema;
}

/** What the register's caller may look at before the answer is parsed and checked (see RequestOptions). */
export type RegisterLooks = Pick<RequestOptions<z.ZodType>, "lookAtHead" | "beforeParse" | "beforeCheck">;

export function register(client: ApiClient, params: RegisterParams = {}, signal?: AbortSignal, looks?: RegisterLooks) {
  return client.request("POST", "register", { ...registerRequest(params, signal), schema: registerSchemaOf(client), ...looks });
}

export interface EventsResult {
  events: ServerEvent[];
  queueId?: string;
  /**
   * The events after `events`, when the answer was large: checked a run at a time as this is
   * read, for a caller that lets other work in between. A run that is malformed throws (a
   * SchemaError, or the MalformedEventError of its event).
   */
  rest?: Iterable<ServerEvent[]>;
}

/** The event schemas, made at the first poll (after the register): not on the way to the first frame. */
let eventSchemas: Promise<typeof import("../schemas/events.js")> | undefined;

/**
 * Long-polls the queue. `timeoutMs` should be longer than the server's
 * heartbeat (the register's event_queue_longpoll_timeout_seconds).
 * A large answer's events are left in its bytes and come through `rest`, a run at a time.
 */
export async function getEvents(
  client: ApiClient,
  p: { queue_id: string; last_event_id: number; dont_block?: boolean },
  o: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<EventsResult> {
  const { eventsAnswerSchema, parseEvent } = await (eventSchemas ??= import("../schemas/events.js"));
  const res = await client.request("GET", "events", {
    params: p,
    schema: eventsAnswerSchema,
    timeoutMs: o.timeoutMs ?? 100_000,
    signal: o.signal,
    // The update machine owns retries of the poll (with its own backoff and UI notice).
    retry: { attempts: 1 },
    parseBytes: (bytes) => parseDeferring(bytes, "events"),
  });
  const queueId = res.queue_id;
  if (!(res.events instanceof DeferredArray)) return { events: res.events.map(parseEvent), queueId };
  const runs = res.events.runs();
  function* checked(): Generator<ServerEvent[], void> {
    for (;;) {
      let next: IteratorResult<unknown[], void>;
      try {
        next = runs.next();
      } catch (err) {
        throw new SchemaError("GET events", err instanceof Error ? err.message : String(err));
      }
      if (next.done) return;
      yield next.value.map(parseEvent);
    }
  }
  const rest = checked();
  const first = rest.next();
  return { events: first.done ? [] : first.value, queueId, rest };
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
