/**
 * What a request is, apart from the client that sends it (http.ts): its parameters and how
 * they are encoded, its options (what it may look at in the answer, how it is parsed), its body
 * when it has one of its own, and the policy for retrying it.
 */
import type * as z from "zod";
import type { BodySink } from "./body.js";

export type ParamValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly unknown[]
  | { readonly [k: string]: unknown };
export type Params = Record<string, ParamValue>;

/** Strings go as they are, numbers and booleans as text, arrays/objects/null as JSON; undefined is left out. */
export function encodeParams(params: object | undefined): URLSearchParams {
  const out = new URLSearchParams();
  if (!params) return out;
  for (const [key, value] of Object.entries(params) as [string, ParamValue][]) {
    if (value === undefined) continue;
    if (typeof value === "string") out.append(key, value);
    else if (typeof value === "number" || typeof value === "boolean") out.append(key, String(value));
    else out.append(key, JSON.stringify(value));
  }
  return out;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseMs: number;
  maxMs: number;
  /** Longest Retry-After honoured before giving up on the request. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseMs: 100, maxMs: 10_000, maxRetryAfterMs: 60_000 };

export interface RequestOptions<S extends z.ZodType> {
  /** Named parameters; values are encoded by `encodeParams`. */
  params?: object;
  schema: S;
  /** Safe to send twice: only such requests are retried. Default: true for GET. */
  idempotent?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Leave out the Authorization header (fetch_api_key, server_settings). */
  anonymous?: boolean;
  /** Override the retry policy (attempts: 1 disables retries). */
  retry?: Partial<RetryPolicy>;
  /** A body of its own (a multipart upload) in place of the form-encoded parameters. */
  body?: RequestBody;
  /** Reads the answer as bytes and parses them with this (a large answer, parsed in parts). */
  parseBytes?: (bytes: Buffer) => unknown;
  /**
   * Parses a successful answer while it arrives, never holding it whole (a large answer; see
   * JsonInParts): made once the answer's headers are in. Its result is the parsed body; it
   * throws as JSON.parse does. An answer with an error status is read as usual.
   */
  parseAsItArrives?: () => BodySink<unknown>;
  /** The largest answer taken, compressed or decoded (default 64 MiB); a larger one is cut off. */
  maxBytes?: number;
  /**
   * Given the body's bytes (decoded) before they are parsed, when the answer is read as bytes
   * (`parseBytes`): a look at a few members of a large answer before its parse (see peekScalars).
   */
  beforeParse?: (bytes: Buffer) => Promise<void> | void;
  /**
   * Shown the first decoded bytes of a successful answer read as bytes (`parseBytes`) while they
   * arrive, until it answers true (see BodyHead): a look at a large answer's first members before
   * the rest is in. It also reaches an answer sent ahead (`prefetch`) that is still arriving.
   */
  lookAtHead?: (head: Buffer) => boolean;
  /**
   * Given the parsed body of a successful answer before the schema checks it (the register's
   * first events poll leaves then: the check of a register costs tens of milliseconds on a cold
   * start). A body the check refuses still fails the request afterwards.
   */
  beforeCheck?: (json: unknown) => Promise<void> | void;
}

/** A streamed request body: made afresh for each attempt. */
export interface RequestBody {
  contentType: string;
  length: number;
  open(): import("node:stream").Readable;
}

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
