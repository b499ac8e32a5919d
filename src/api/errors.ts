/**
 * Every failure of a request is one of these values. undici's many failure
 * shapes are mapped to them in exactly one place (`classifyFailure`).
 */
import type * as z from "zod";
import { AnswerTooLargeError, StalledAnswerError } from "./body.js";

export abstract class TermchatApiError extends Error {
  abstract readonly kind: "api" | "network" | "server" | "schema";
}

/** The server answered with the error envelope (`result: "error"`). */
export class ApiError extends TermchatApiError {
  readonly kind = "api" as const;
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
    readonly data: Record<string, unknown> = {},
    /** Seconds to wait before retrying, from `Retry-After` or the body's `retry-after`. */
    readonly retryAfter?: number,
  ) {
    super(msg);
    this.name = "ApiError";
  }
  get isAuthFailure(): boolean {
    return this.status === 401 || this.code === "INVALID_API_KEY" || this.code === "UNAUTHORIZED" ||
      this.code === "USER_DEACTIVATED" || this.code === "REALM_DEACTIVATED";
  }
  get isRateLimit(): boolean {
    return this.status === 429 || this.code === "RATE_LIMIT_HIT";
  }
}

/** No usable answer: connection refused, reset, DNS, TLS, timeout. */
export class NetworkError extends TermchatApiError {
  readonly kind = "network" as const;
  constructor(
    message: string,
    readonly reason: "connect" | "timeout" | "tls" | "aborted" | "other",
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = "NetworkError";
  }
}

/** A 5xx (or other non-JSON) answer that is not the error envelope. */
export class ServerError extends TermchatApiError {
  readonly kind = "server" as const;
  constructor(readonly status: number, message: string, readonly retryAfter?: number) {
    super(message);
    this.name = "ServerError";
  }
}

/** The answer did not have the shape the client expects. */
export class SchemaError extends TermchatApiError {
  readonly kind = "schema" as const;
  constructor(readonly endpoint: string, readonly issues: z.core.$ZodIssue[] | string) {
    super(`Unexpected response from ${endpoint}: ${describeIssues(issues)}`);
    this.name = "SchemaError";
  }
}

/**
 * An answer larger than the client takes (AnswerTooLargeError): cut off, and handled as a
 * malformed one. Its message is short, for a status line: "GET events: answer over 64 MiB…".
 */
export class OversizeAnswerError extends SchemaError {
  constructor(endpoint: string, cause: AnswerTooLargeError) {
    super(endpoint, cause.message);
    this.name = "OversizeAnswerError";
    this.message = `${endpoint}: ${cause.message}`;
  }
}

/**
 * Whether the client abandoned an answer itself, as too large or too slow: a failure to tell the
 * reader about at once, since it will not go away by waiting (a server that keeps trickling or
 * keeps sending too much).
 */
export function isAbandonedAnswer(err: unknown): boolean {
  return err instanceof OversizeAnswerError || (err instanceof NetworkError && err.cause instanceof StalledAnswerError);
}

function describeIssues(issues: z.core.$ZodIssue[] | string): string {
  if (typeof issues === "string") return issues;
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
}

const NETWORK_CODES: Record<string, NetworkError["reason"]> = {
  ECONNREFUSED: "connect",
  ECONNRESET: "connect",
  ENOTFOUND: "connect",
  EAI_AGAIN: "connect",
  EHOSTUNREACH: "connect",
  ENETUNREACH: "connect",
  EPIPE: "connect",
  UND_ERR_SOCKET: "connect",
  UND_ERR_CLOSED: "connect",
  UND_ERR_CONNECT_TIMEOUT: "timeout",
  UND_ERR_HEADERS_TIMEOUT: "timeout",
  UND_ERR_BODY_TIMEOUT: "timeout",
  ETIMEDOUT: "timeout",
  UND_ERR_ABORTED: "aborted",
  ABORT_ERR: "aborted",
};

/** Maps whatever undici (or the platform) threw into a NetworkError. */
export function classifyFailure(err: unknown, what: string): TermchatApiError {
  if (err instanceof TermchatApiError) return err;
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code ?? "";
  if (e?.name === "TimeoutError") return new NetworkError(`${what}: timed out`, "timeout", err);
  if (e?.name === "AbortError") return new NetworkError(`${what}: cancelled`, "aborted", err);
  if (/CERT|SSL|TLS|_SIGNATURE|^ERR_OSSL/i.test(code)) {
    return new NetworkError(`${what}: TLS certificate problem (${code})`, "tls", err);
  }
  if (err instanceof AnswerTooLargeError) return new OversizeAnswerError(what, err);
  if (err instanceof StalledAnswerError) return new NetworkError(`${what}: ${err.message}`, "timeout", err);
  if (code.startsWith("Z_")) return new NetworkError(`${what}: ${e.message}`, "other", err);
  const reason = NETWORK_CODES[code] ?? "other";
  const detail = code || e?.message || String(err);
  return new NetworkError(`${what}: ${reason === "connect" ? "cannot reach the server" : "network failure"} (${detail})`, reason, err);
}

/** One line a person can read, for status lines and CLI errors. */
export function describeError(err: unknown): string {
  if (err instanceof ApiError) return `${err.message} (${err.code})`;
  if (err instanceof TermchatApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Whether an error means the request never reached the server (so sending again cannot duplicate). */
export function neverSent(err: unknown): boolean {
  if (!(err instanceof NetworkError)) return false;
  const cause = err.cause as { code?: string; cause?: { code?: string } } | undefined;
  const code = cause?.code ?? cause?.cause?.code ?? "";
  return ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"].includes(code);
}
