/**
 * The first connection of the app: which failures end the start with one line
 * (no such host, nothing listening, a certificate problem, a refused key, a
 * web page, a server too old) and which are waited out (a rate limit, said in
 * the status line; a few transient failures), bounded.
 */
import { ApiError, NetworkError, SchemaError, ServerError } from "../api/errors.js";
import {
  UnsupportedServerError,
  answersWithWebPage,
  checkFeatureLevel,
  explainContactFailure,
  explainFailure,
  failureCode,
  mayBeWebPage,
  rateLimitWaitMs,
} from "../api/first-contact.js";
import type { ApiClient } from "../api/http.js";
import { registerRequest } from "../api/register-request.js";
import { deleteQueue, register, registerSchemaOf } from "../api/routes/events.js";
import type { StartVerdict, SyncApi } from "./update-machine.js";

/** Failed first registers retried before the start gives up (rate limits and transient failures alike). */
export const START_ATTEMPTS = 4;

export interface StartGuardOptions {
  client: ApiClient;
  email: string;
}

/**
 * Register that refuses a server older than the client supports (its queue is
 * freed). Until one has succeeded, the request is not retried within the
 * client: each failure reaches the start guard, which says what it waits for.
 */
export function checkedRegister(): SyncApi["register"] {
  let registered = false;
  return async (client, params, signal, looks) => {
    const reg = registered
      ? await register(client, params, signal, looks)
      : await client.request("POST", "register", { ...registerRequest(params, signal), schema: registerSchemaOf(client), retry: { attempts: 1 }, ...looks });
    try {
      checkFeatureLevel(reg);
    } catch (err) {
      if (reg.queue_id) void deleteQueue(client, reg.queue_id).catch(() => undefined);
      throw err;
    }
    registered = true;
    return reg;
  };
}

export function startGuard(o: StartGuardOptions): (err: unknown, attempt: number) => Promise<StartVerdict | undefined> {
  const who = o.client.spectator ? undefined : o.email;
  const explain = async (err: unknown) => explainContactFailure(err, { site: o.client.site, who, spectator: o.client.spectator, dispatcher: await o.client.connection() });
  return async (err, attempt) => {
    const last = attempt + 1 >= START_ATTEMPTS;
    if (err instanceof ApiError && err.isRateLimit) {
      const waitMs = rateLimitWaitMs(err);
      if (waitMs === undefined || last) return { fail: await explain(err) };
      return { retryInMs: waitMs, note: `rate limited by the server, retrying in ${Math.ceil(waitMs / 1000)} s` };
    }
    if (err instanceof UnsupportedServerError) return { fail: await explain(err) };
    if (err instanceof NetworkError) {
      // A dropped connection may be a blip; a missing host, a closed port, a bad certificate are not.
      const transient = err.reason === "connect" && /ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED/.test(failureCode(err.cause));
      return transient && !last ? undefined : { fail: await explain(err) };
    }
    if (err instanceof ApiError) {
      if (err.status >= 500 && !last) return undefined;
      return { fail: await explain(err) };
    }
    if (err instanceof SchemaError || err instanceof ServerError) {
      const webPage = mayBeWebPage(err) && (await answersWithWebPage(o.client.site, { dispatcher: await o.client.connection() }));
      if (webPage || last) return { fail: explainFailure(err, { site: o.client.site, who, webPage }) };
      return undefined;
    }
    return last ? { fail: await explain(err) } : undefined;
  };
}
