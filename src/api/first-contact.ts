/**
 * The first exchange with a server: what a failure there means, in one line a
 * person can act on (a host that does not exist, nothing listening, a
 * certificate problem and its fix, a refused key, a web page where the API
 * should be, a server too old), and the oldest server the client supports.
 */
import type { Dispatcher } from "undici";
import Agent from "undici/lib/dispatcher/agent.js";
import dispatchRequest from "undici/lib/api/api-request.js";
import { ApiError, NetworkError, SchemaError, ServerError, describeError } from "./errors.js";

/**
 * The oldest feature level termchat works with: 134 brought the register's
 * `user_topics` (before it, muted topics would ring and count as unread), and
 * with it the `user_settings` object (89) and server-side drafts (87) the
 * client reads. Older narrow operators and mark-as-read have fallbacks.
 */
export const MIN_FEATURE_LEVEL = 134;

/** The server works, but is older than the client supports. */
export class UnsupportedServerError extends Error {
  constructor(readonly featureLevel: number) {
    super(`the server's feature level ${featureLevel} is older than ${MIN_FEATURE_LEVEL}`);
    this.name = "UnsupportedServerError";
  }
}

/** Throws UnsupportedServerError when a register's or server_settings' level is too old. */
export function checkFeatureLevel(body: { svc_feature_level?: unknown; zulip_feature_level?: unknown }): void {
  const raw = body.svc_feature_level ?? body.zulip_feature_level;
  const level = typeof raw === "number" ? raw : 0;
  if (level < MIN_FEATURE_LEVEL) throw new UnsupportedServerError(level);
}

/** A first-contact failure already put in words; the CLI prints its message and exits 1. */
export class FirstContactError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = "FirstContactError";
  }
}

export interface ContactContext {
  site: URL;
  /** The account (or the login name) the request was for. */
  who?: string;
  /** A login (fetch_api_key): a 401 there is a wrong password, not a wrong key. */
  login?: boolean;
  /** Reading without an account: a 401 means the organization does not let spectators in. */
  spectator?: boolean;
  /** The server answered with a web page (see `answersWithWebPage`). */
  webPage?: boolean;
}

/** The platform's error code, wherever undici put it (the error, or its causes). */
export function failureCode(err: unknown): string {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string" && e.code !== "UND_ERR") return e.code;
    e = e.cause as typeof e;
  }
  return "";
}

function hostPort(site: URL): string {
  return `${site.hostname}:${site.port || (site.protocol === "https:" ? "443" : "80")}`;
}

const TRUST_FIX = "if you trust it, pass its CA certificate with --ca-file FILE (or cert_bundle=FILE in the zuliprc)";

/** What a TLS error code says about the certificate, and how to get past it. */
function tlsLine(code: string, host: string): string {
  switch (code) {
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
      return `the certificate of ${host} is self-signed; ${TRUST_FIX}`;
    case "SELF_SIGNED_CERT_IN_CHAIN":
      return `the certificate of ${host} comes from a self-signed authority that is not trusted; ${TRUST_FIX}`;
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "UNABLE_TO_GET_ISSUER_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
      return `the certificate of ${host} is signed by an unknown authority; ${TRUST_FIX}`;
    case "CERT_HAS_EXPIRED":
      return `the certificate of ${host} has expired (check the clock here; otherwise the server's administrator must renew it)`;
    case "CERT_NOT_YET_VALID":
      return `the certificate of ${host} is not valid yet (check the clock here)`;
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `the certificate of ${host} is for another name — is the URL right?`;
    default:
      return `the secure connection to ${host} failed (${code || "TLS error"}); ${TRUST_FIX}`;
  }
}

/** One line for a failure of the first requests to a server. */
export function explainFailure(err: unknown, ctx: ContactContext): string {
  const host = ctx.site.hostname;
  if (err instanceof FirstContactError) return err.message;
  if (ctx.webPage) {
    return `${ctx.site.host} answered with a web page, not the chat API — is the URL right? (a captive portal or a login page?)`;
  }
  if (err instanceof UnsupportedServerError) {
    return `${ctx.site.host} runs a server too old for termchat: it has feature level ${err.featureLevel}, termchat needs ${MIN_FEATURE_LEVEL} or newer`;
  }
  if (err instanceof NetworkError) {
    const code = failureCode(err.cause);
    if (err.reason === "tls") return tlsLine(code, host);
    if (code === "ENOTFOUND") return `cannot find host ${host} (is the server URL right?)`;
    if (code === "EAI_AGAIN") return `cannot find host ${host} (the name lookup failed; is the network up?)`;
    if (code === "ECONNREFUSED") return `nothing answers at ${hostPort(ctx.site)} (is the server running, is the URL right?)`;
    if (err.reason === "timeout") return `${hostPort(ctx.site)} did not answer in time (a slow network, or a firewall?)`;
    if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return `cannot reach ${host} (${code}; is the network up?)`;
    return `cannot reach ${hostPort(ctx.site)}: ${code || describeError(err)}`;
  }
  if (err instanceof ApiError) {
    const who = ctx.who ? ` for ${ctx.who}` : "";
    if (err.code === "USER_DEACTIVATED") return `the account${who ? ` ${ctx.who}` : ""} is deactivated on ${host} (ask an administrator)`;
    if (err.code === "REALM_DEACTIVATED") return `the organization at ${host} is deactivated`;
    if (err.isRateLimit) {
      const wait = err.retryAfter !== undefined ? ` (try again in ${Math.ceil(err.retryAfter)} s)` : "";
      return `rate limited by the server${wait}`;
    }
    if (ctx.login && (err.status === 401 || err.status === 403 || err.code === "AUTHENTICATION_FAILED")) {
      return `login refused${who}: ${err.message}`;
    }
    if (ctx.spectator && (err.code === "UNAUTHORIZED" || err.status === 401)) {
      return `${host} refused a request without an account (${err.message}): without one, only web-public channels can be read, where the organization allows it; log in with "termchat login"`;
    }
    if (err.code === "INVALID_API_KEY" || err.code === "UNAUTHORIZED" || err.status === 401) {
      return `${host} refused the API key${who} (${err.code}): check the key, or log in again with "termchat login"`;
    }
    return describeError(err);
  }
  if (err instanceof ServerError) return `${ctx.site.host} failed to answer (HTTP ${err.status}); try again later`;
  if (err instanceof SchemaError) return `${ctx.site.host} gave an answer termchat cannot read: ${err.message}`;
  return describeError(err);
}

/** Whether a failure is one where a web page may have answered in place of the API. */
export function mayBeWebPage(err: unknown): boolean {
  return err instanceof SchemaError || (err instanceof ServerError && err.status !== 502 && err.status !== 503 && err.status !== 504);
}

/** What the server's settings endpoint says about the server, asked after a failure. */
export interface ServerProbe {
  /** A web page answered: `content-type: text/html`, or a body starting with `<`. */
  webPage: boolean;
  /** Its feature level (either spelling), when it answered with JSON that has one. */
  featureLevel?: number;
}

/** Asks `GET /server_settings` (no credentials); never throws (no answer: nothing learned). */
export async function probeServer(site: URL, o: { ca?: string; dispatcher?: Dispatcher; timeoutMs?: number } = {}): Promise<ServerProbe> {
  const own = o.dispatcher ? undefined : new Agent({ connect: { rejectUnauthorized: true, ...(o.ca ? { ca: o.ca } : {}) } });
  const url = new URL(site.href);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/api/v1/server_settings`;
  try {
    const res = await dispatchRequest.call(o.dispatcher ?? own!, {
      origin: url.origin,
      path: url.pathname,
      method: "GET",
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(o.timeoutMs ?? 5000),
    });
    const type = String(res.headers["content-type"] ?? "");
    const text = await res.body.text();
    if (/text\/html|application\/xhtml/i.test(type) || /^\s*</.test(text.slice(0, 512))) return { webPage: true };
    const body = JSON.parse(text) as { svc_feature_level?: unknown; zulip_feature_level?: unknown } | null;
    const level = body?.svc_feature_level ?? body?.zulip_feature_level;
    return typeof level === "number" ? { webPage: false, featureLevel: level } : { webPage: false };
  } catch {
    return { webPage: false };
  } finally {
    await own?.close();
  }
}

/** Whether a web page answered the server's settings endpoint. */
export async function answersWithWebPage(site: URL, o: { ca?: string; dispatcher?: Dispatcher; timeoutMs?: number } = {}): Promise<boolean> {
  return (await probeServer(site, o)).webPage;
}

/**
 * What a failure comes down to, having asked the server's settings when they
 * may explain it: a web page in place of the API, or (for a refusal the
 * client did not expect) a server too old, which then is the failure.
 */
/** How to reach the server for the probe: the client's own connection, or (before there is a client) a CA bundle. */
export type ProbeVia = { ca?: string; dispatcher?: Dispatcher };

export async function diagnoseFailure(err: unknown, ctx: ContactContext & ProbeVia): Promise<{ failure: unknown; line: string }> {
  const unexpectedRefusal = err instanceof ApiError && !err.isAuthFailure && !err.isRateLimit && err.status < 500;
  if (ctx.webPage === undefined && (mayBeWebPage(err) || unexpectedRefusal)) {
    const probe = await probeServer(ctx.site, { ca: ctx.ca, dispatcher: ctx.dispatcher });
    if (probe.featureLevel !== undefined && probe.featureLevel < MIN_FEATURE_LEVEL) {
      const failure = new UnsupportedServerError(probe.featureLevel);
      return { failure, line: explainFailure(failure, ctx) };
    }
    return { failure: err, line: explainFailure(err, { ...ctx, webPage: probe.webPage }) };
  }
  return { failure: err, line: explainFailure(err, ctx) };
}

/** `diagnoseFailure`'s line. */
export async function explainContactFailure(err: unknown, ctx: ContactContext & ProbeVia): Promise<string> {
  return (await diagnoseFailure(err, ctx)).line;
}

export interface RateLimitRetry {
  /** Waits in all (default 3). */
  retries?: number;
  /** Longest single wait honoured, in seconds (default 60). */
  maxWaitS?: number;
  /** Told before each wait, with the line to show. */
  notify: (line: string, waitMs: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

/** Runs `fn`, waiting out a 429's Retry-After (bounded in count and length) and saying so. */
export async function retryRateLimited<T>(fn: () => Promise<T>, o: RateLimitRetry): Promise<T> {
  const retries = o.retries ?? 3;
  const pause = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const waitMs = rateLimitWaitMs(err, o.maxWaitS ?? 60);
      if (waitMs === undefined || attempt >= retries) throw err;
      o.notify(`rate limited by the server, retrying in ${Math.ceil(waitMs / 1000)} s`, waitMs);
      await pause(waitMs);
    }
  }
}

/** How long a rate-limited failure asks to wait (at least 1 s), or undefined when it is not one or asks too long. */
export function rateLimitWaitMs(err: unknown, maxWaitS = 60): number | undefined {
  if (!(err instanceof ApiError) || !err.isRateLimit) return undefined;
  const secs = err.retryAfter ?? 1;
  if (secs > maxWaitS) return undefined;
  return Math.max(1000, Math.ceil(secs) * 1000);
}
