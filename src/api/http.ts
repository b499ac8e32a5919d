/**
 * The wire: one ApiClient per account. Knows the service's conventions
 * (query vs form fields, JSON-encoded arrays/objects, the envelopes), maps
 * failures to typed errors and retries idempotent requests with backoff.
 */
import type { Dispatcher } from "undici";
// Only the parts of undici the client uses: the request call here, the pool in dispatcher.ts.
// The package's index also loads fetch, WebSocket, caches and mocks (~30 ms more at every start).
import dispatchRequest from "undici/lib/api/api-request.js";
import type * as z from "zod";
import { ACCEPT_ENCODING, BodyHead, DEFAULT_LIMITS, parseReply, readBody, readBodyBytes, readBodyInto, type BodyLimits } from "./body.js";
import { createDispatcher, type TlsSettings } from "./dispatcher.js";
import { ApiError, NetworkError, SchemaError, ServerError, TermchatApiError, classifyFailure } from "./errors.js";
import { DEFAULT_RETRY, encodeParams, type Method, type RequestOptions, type RetryPolicy } from "./request.js";
import { SiteError, normalizeSite } from "./site.js";

export { DEFAULT_RETRY, encodeParams, type Method, type ParamValue, type Params, type RequestBody, type RequestOptions, type RetryPolicy } from "./request.js";

export interface Credentials {
  site: string;
  email: string;
  apiKey: string;
}

/** No account: a spectator of the organization's web-public channels (every request goes without credentials). */
export interface SpectatorSite {
  site: string;
  spectator: true;
}

export interface ClientOptions {
  allowInsecureHttp?: boolean;
  /** PEM bundle of extra trusted certificate authorities. */
  ca?: string | Buffer;
  /** Client certificate and key (PEM) for servers that require one. */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** Skip TLS certificate verification (the zuliprc's insecure=true). */
  insecure?: boolean;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default: the process's environment). */
  env?: Record<string, string | undefined>;
  userAgent?: string;
  timeoutMs?: number;
  /** What an answer may cost before it is abandoned (too large, or arriving too slowly); default DEFAULT_LIMITS. */
  bodyLimits?: Partial<BodyLimits>;
  retry?: RetryPolicy;
  /** For tests: a dispatcher to use instead of the client's own keep-alive agent. */
  dispatcher?: Dispatcher;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/**
 * The event loop's turns a prefetch waits after handing its request over: a connection that opens
 * at once (a nearby or already open one) has the request written by then, before the caller goes
 * on to load modules for tens of milliseconds, which would hold the writing back as long.
 */
const PREFETCH_TURNS = 2;

/** Lets the event loop go round `n` times (I/O callbacks and timers due run). */
export async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Full-jitter exponential backoff: a random delay in [0, min(max, base·2^attempt)]. */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, "baseMs" | "maxMs">, random = Math.random): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.round(random() * cap);
}

function parseRetryAfter(header: string | string[] | undefined, body: unknown): number | undefined {
  const fromBody = (body as Record<string, unknown> | null)?.["retry-after"];
  if (typeof fromBody === "number" && Number.isFinite(fromBody)) return fromBody;
  const h = Array.isArray(header) ? header[0] : header;
  if (!h) return undefined;
  const secs = Number(h);
  if (Number.isFinite(secs)) return secs;
  const date = Date.parse(h);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : undefined;
}

function retryable(err: TermchatApiError): boolean {
  if (err instanceof NetworkError) return err.reason !== "aborted" && err.reason !== "tls";
  if (err instanceof ServerError) return err.status === 502 || err.status === 503 || err.status === 504;
  if (err instanceof ApiError) return err.isRateLimit;
  return false;
}

interface RawReply {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string | Buffer;
  /** The body parsed as it arrived (RequestOptions.parseAsItArrives): the result, or throws as JSON.parse does. */
  parsed?: () => unknown;
}

function requestKey(method: Method, path: string, params: object | undefined): string {
  return `${method} ${path.replace(/^\/+/, "")}?${encodeParams(params).toString()}`;
}

export class ApiClient {
  readonly site: URL;
  /** The account's address ("" for a spectator). */
  readonly email: string;
  /** Reading without an account: no request carries credentials, and the server allows only reading web-public channels. */
  readonly spectator: boolean;
  private readonly authHeader: string | undefined;
  private dispatcher?: Promise<Dispatcher>;
  /** The pool, once made. */
  private pool?: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly opts: ClientOptions;
  private readonly retry: RetryPolicy;
  private readonly prefetched = new Map<string, { reply: Promise<RawReply>; stop: AbortController; head?: BodyHead }>();

  constructor(creds: Credentials | SpectatorSite, opts: ClientOptions = {}) {
    this.spectator = "spectator" in creds;
    this.site = normalizeSite(creds.site, opts.allowInsecureHttp, this.spectator);
    this.email = "spectator" in creds ? "" : creds.email;
    this.authHeader = "spectator" in creds ? undefined : "Basic " + Buffer.from(`${creds.email}:${creds.apiKey}`).toString("base64");
    this.opts = opts;
    this.retry = opts.retry ?? DEFAULT_RETRY;
    this.ownsDispatcher = !opts.dispatcher;
    if (opts.dispatcher) {
      this.dispatcher = Promise.resolve(opts.dispatcher);
      this.pool = opts.dispatcher;
    }
  }

  /**
   * The connection pool, made at the first request (a proxy's module loads only then, and only when
   * one is set); also what an anonymous probe of the same server goes through (same proxy, same TLS).
   */
  connection(): Promise<Dispatcher> {
    const { ca, cert, key, insecure, env } = this.opts;
    const tls: TlsSettings = { ca, cert, key, insecure };
    this.dispatcher ??= createDispatcher(tls, env).then((pool) => (this.pool = pool));
    return this.dispatcher;
  }

  /**
   * Whether a connection to the organization is open and idle now, one a request sent at once
   * would take instead of opening a new one; undefined when the pool cannot say (none made yet,
   * or one behind a proxy).
   */
  idleConnection(): boolean | undefined {
    const stats = (this.pool as { stats?: Record<string, { free?: number } | undefined> } | undefined)?.stats;
    const free = stats?.[this.site.origin]?.free;
    return typeof free === "number" ? free > 0 : undefined;
  }

  /** The Authorization header for a URL of the organization itself; nothing for any other origin. */
  authorizationFor(url: URL): string | undefined {
    return url.origin === this.site.origin ? this.authHeader : undefined;
  }

  /** Keeps credentials out of logs and inspection output. */
  toJSON(): object {
    return this.spectator ? { site: this.site.href, spectator: true } : { site: this.site.href, email: this.email };
  }

  url(path: string): URL {
    const u = new URL(this.site.href);
    // A bare host has pathname "/": join without doubling the slash.
    u.pathname = `${u.pathname.replace(/\/+$/, "")}/api/v1/${path.replace(/^\/+/, "")}`;
    return u;
  }

  async request<S extends z.ZodType>(method: Method, path: string, o: RequestOptions<S>): Promise<z.infer<S>> {
    const policy = { ...this.retry, ...o.retry };
    const idempotent = o.idempotent ?? method === "GET";
    const pause = this.opts.sleep ?? sleep;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(method, path, o);
      } catch (raw) {
        const err = classifyFailure(raw, `${method} ${path}`);
        const last = attempt + 1 >= policy.attempts;
        if (!idempotent || last || !retryable(err) || o.signal?.aborted) throw err;
        let delay = backoffDelay(attempt, policy, this.opts.random);
        const after = (err as ApiError | ServerError).retryAfter;
        if (after !== undefined) {
          if (after * 1000 > policy.maxRetryAfterMs) throw err;
          delay = Math.max(delay, after * 1000);
        }
        await pause(delay, o.signal);
      }
    }
  }

  /**
   * Sends a request ahead of the code that will ask for it (the register at start-up, sent while
   * the modules that read its answer load): the first `request` with the same method, path and
   * parameters takes this answer instead of sending again. A failure surfaces there, as its own
   * would; `signal` and `timeoutMs` of the later request do not apply to it, its own ones do.
   * Settles once the request is handed to the connection pool and the event loop has turned
   * (PREFETCH_TURNS): awaited, the request is on its way before the caller's next long task.
   */
  prefetch(method: Method, path: string, o: Omit<RequestOptions<z.ZodType>, "schema" | "retry" | "beforeParse" | "beforeCheck" | "lookAtHead">): Promise<void> {
    const stop = new AbortController();
    let dispatched!: () => void;
    const handedOver = new Promise<void>((resolve) => (dispatched = resolve));
    // The taker's look at the answer's first bytes may come while they arrive.
    const head = o.parseBytes ? new BodyHead() : undefined;
    const reply = this.exchange(method, path, { ...o, head, signal: this.deadline({ ...o, signal: o.signal ? AbortSignal.any([o.signal, stop.signal]) : stop.signal }), onDispatched: dispatched });
    reply.catch(() => undefined); // it may never be asked for; its failure is reported to whoever asks
    reply.then(dispatched, dispatched); // failed before it was handed over: nothing to wait for
    this.prefetched.set(requestKey(method, path, o.params), { reply, stop, head });
    return handedOver.then(() => turns(PREFETCH_TURNS));
  }

  private async once<S extends z.ZodType>(method: Method, path: string, o: RequestOptions<S>): Promise<z.infer<S>> {
    const what = `${method} ${path}`;
    const key = requestKey(method, path, o.params);
    const early = this.prefetched.get(key);
    this.prefetched.delete(key);
    const signal = o.signal;
    if (early && signal) {
      // The taker's abort cancels it. The listener holds the controller only, never the reply
      // (a long-lived signal would keep the whole body alive), and goes once the reply is in.
      const { stop } = early;
      const onAbort = () => stop.abort(signal.reason);
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      const done = () => signal.removeEventListener("abort", onAbort);
      early.reply.then(done, done);
    }
    const head = o.lookAtHead ? (early ? early.head : new BodyHead()) : undefined;
    if (o.lookAtHead) head?.watch(o.lookAtHead);
    const reply = await (early?.reply ?? this.exchange(method, path, { ...o, head, signal: this.deadline(o) }));
    const { statusCode, headers } = reply;
    if (statusCode < 400 && o.beforeParse && Buffer.isBuffer(reply.text)) await o.beforeParse(reply.text);
    let json: unknown;
    try {
      json = reply.parsed ? reply.parsed() : parseReply(reply.text, o.parseBytes);
    } catch {
      json = undefined;
    }
    reply.text = ""; // parsed: the body (a register's is megabytes) is let go before the check
    reply.parsed = undefined;
    const envelope = json as { result?: unknown; msg?: unknown; code?: unknown } | undefined;
    const retryAfter = parseRetryAfter(headers["retry-after"], json);
    if (statusCode >= 400 || envelope?.result === "error") {
      if (envelope && envelope.result === "error") {
        const { result: _r, msg, code, ...data } = envelope as Record<string, unknown>;
        throw new ApiError(
          statusCode,
          typeof code === "string" ? code : statusCode === 429 ? "RATE_LIMIT_HIT" : "BAD_REQUEST",
          typeof msg === "string" ? msg : `HTTP ${statusCode}`,
          data,
          retryAfter,
        );
      }
      if (statusCode === 401) throw new ApiError(401, "UNAUTHORIZED", "Authentication failed", {}, undefined);
      if (statusCode === 429) throw new ApiError(429, "RATE_LIMIT_HIT", "Rate limit hit", {}, retryAfter);
      throw new ServerError(statusCode, `${what}: server answered HTTP ${statusCode}`, retryAfter);
    }
    if (json === undefined) throw new SchemaError(what, "the body is not JSON");
    await o.beforeCheck?.(json);
    const parsed = o.schema.safeParse(json);
    if (!parsed.success) throw new SchemaError(what, parsed.error.issues);
    return parsed.data;
  }

  /** The request's signal, with its timeout. */
  private deadline(o: { timeoutMs?: number; signal?: AbortSignal }): AbortSignal {
    const timeout = AbortSignal.timeout(o.timeoutMs ?? this.opts.timeoutMs ?? 30_000);
    return o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  }

  /** The HTTP exchange: the request out, the status, headers and body text back. */
  private async exchange(
    method: Method,
    path: string,
    o: Pick<RequestOptions<z.ZodType>, "params" | "anonymous" | "body" | "parseBytes" | "parseAsItArrives" | "maxBytes"> & { signal: AbortSignal; onDispatched?: () => void; head?: BodyHead },
  ): Promise<RawReply> {
    const url = this.url(path);
    const params = encodeParams(o.params);
    const headers: Record<string, string> = {
      "user-agent": this.opts.userAgent ?? "termchat",
      accept: "application/json",
      "accept-encoding": ACCEPT_ENCODING,
    };
    if (!o.anonymous && this.authHeader) headers.authorization = this.authHeader;
    let body: string | import("node:stream").Readable | undefined;
    if (o.body) {
      url.search = params.toString();
      body = o.body.open();
      headers["content-type"] = o.body.contentType;
      headers["content-length"] = String(o.body.length);
    } else if (method === "GET") {
      url.search = params.toString();
    } else {
      body = params.toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const sending = dispatchRequest.call(await this.connection(), { origin: url.origin, path: `${url.pathname}${url.search}`, method, headers, body, signal: o.signal });
    o.onDispatched?.();
    const res = await sending;
    try {
      const encoding = res.headers["content-encoding"];
      const limits: BodyLimits = { ...DEFAULT_LIMITS, ...(o.maxBytes !== undefined && { maxBytes: o.maxBytes }), ...this.opts.bodyLimits };
      if (o.parseAsItArrives && res.statusCode < 400) {
        const parts = o.parseAsItArrives();
        await readBodyInto(res.body, encoding, { add: (chunk) => parts.add(chunk), result: () => undefined }, limits);
        return { statusCode: res.statusCode, headers: res.headers, text: "", parsed: () => parts.result() };
      }
      const bytes = o.parseBytes || o.parseAsItArrives;
      const head = res.statusCode < 400 ? o.head : undefined;
      return { statusCode: res.statusCode, headers: res.headers, text: bytes ? await readBodyBytes(res.body, encoding, limits, head) : await readBody(res.body, encoding, limits) };
    } catch (err) {
      throw classifyFailure(err, `${method} ${path}`);
    }
  }

  /**
   * A file of the organization (an upload or its thumbnail) as bytes, fetched with the account's
   * credentials. Only paths on the organization's own origin: a link elsewhere never gets them.
   * A body larger than `maxBytes` is abandoned.
   */
  async download(path: string, o: { signal?: AbortSignal; maxBytes?: number } = {}): Promise<Uint8Array> {
    const url = new URL(path, this.site.href);
    if (url.origin !== this.site.origin || !url.pathname.startsWith("/user_uploads/")) throw new SiteError(`not a file of this organization: ${url.pathname}`);
    const what = `GET ${url.pathname}`;
    const headers: Record<string, string> = { "user-agent": this.opts.userAgent ?? "termchat", ...(this.authHeader && { authorization: this.authHeader }) };
    const signal = this.deadline({ signal: o.signal });
    const res = await dispatchRequest.call(await this.connection(), { origin: url.origin, path: `${url.pathname}${url.search}`, method: "GET", headers, signal }).catch((err: unknown) => {
      throw classifyFailure(err, what);
    });
    const limit = o.maxBytes ?? 20 * 1024 * 1024;
    if (res.statusCode >= 400) {
      await res.body.dump().catch(() => undefined);
      if (res.statusCode === 401 || res.statusCode === 403) throw new ApiError(res.statusCode, "UNAUTHORIZED", "Not allowed to read this file", {}, undefined);
      if (res.statusCode === 404) throw new ApiError(404, "BAD_REQUEST", "File not found", {}, undefined);
      throw new ServerError(res.statusCode, `${what}: server answered HTTP ${res.statusCode}`, undefined);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limit) {
          res.body.destroy();
          throw new SiteError(`file larger than ${Math.round(limit / 1024 / 1024)} MB`);
        }
        chunks.push(chunk);
      }
    } catch (err) {
      if (err instanceof SiteError) throw err;
      throw classifyFailure(err, what);
    }
    return Buffer.concat(chunks);
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher && this.dispatcher) await (await this.dispatcher).close();
  }
}
