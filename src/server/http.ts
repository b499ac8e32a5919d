// The HTTP layer: routing under /api/v1, parameter collection (query string,
// plus the form-encoded body for POST/PATCH/DELETE), HTTP Basic
// authentication, and the success/error envelopes.

import type { IncomingMessage, ServerResponse } from "node:http";
import { encodeAnswer } from "./compress.js";
import type { ServerContext } from "./context.js";
import {
  ApiError,
  endpointNotFound,
  invalidApiKey,
  methodNotAllowed,
  notLoggedIn,
  userDeactivated,
} from "./errors.js";
import { boundaryOf, MultipartError, parseMultipart, type UploadedFile } from "./multipart.js";
import { Params } from "./params.js";
import type { State, User } from "./state.js";
import { fileTooLarge, maxUploadMib } from "./uploads.js";

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface RequestContext {
  server: ServerContext;
  params: Params;
  /** Values of `:name` path segments. */
  path: Record<string, string>;
  /** The authenticated user (routes with `auth: false`, and anonymous calls of "optional" ones, get none). */
  user: User;
  /** Aborts when the client closes the connection before the response. */
  signal: AbortSignal;
  /** The User-Agent header ("" when absent). */
  userAgent: string;
  /** Files of a multipart/form-data body. */
  files: UploadedFile[];
}

export interface Route {
  method: Method;
  /** Path below /api/v1, with `:name` segments (a last `*name` takes the rest), e.g. "/users/me/:stream_id/topics". */
  path: string;
  /** Default true; "optional": authenticated when credentials are sent, anonymous (spectator) otherwise. */
  auth?: boolean | "optional";
  handler(ctx: RequestContext): Promise<Record<string, unknown>> | Record<string, unknown>;
}

const API_PREFIX = "/api/v1";
const MAX_BODY_BYTES = 5 * 1024 * 1024;

export class Router {
  private readonly routes: { route: Route; segments: string[] }[] = [];

  constructor(private readonly server: ServerContext) {}

  add(routes: Route[]): void {
    for (const route of routes) this.routes.push({ route, segments: split(route.path) });
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    let status: number;
    let body: Record<string, unknown>;
    let headers: Record<string, string> = {};
    try {
      body = { result: "success", msg: "", ...(await this.dispatch(req, abort.signal)) };
      status = 200;
    } catch (err) {
      if (err instanceof ApiError) {
        [status, body, headers] = [err.status, err.body(), err.headers];
      } else {
        console.error("[termchat server]", err);
        [status, body] = [500, { result: "error", msg: "Internal server error", code: "BAD_REQUEST" }];
      }
    }
    if (this.server.onResponse) {
      const path = new URL(req.url ?? "/", "http://localhost").pathname.replace(/^\/api\/v1(?=\/)/, "");
      try {
        this.server.onResponse({ method: (req.method ?? "GET").toUpperCase(), path, status, body });
      } catch (err) {
        console.error("[termchat server] onResponse hook failed:", err);
      }
    }
    await send(req, res, status, body, headers);
  }

  private async dispatch(req: IncomingMessage, signal: AbortSignal): Promise<Record<string, unknown>> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const method = (req.method ?? "GET").toUpperCase();
    if (!url.pathname.startsWith(API_PREFIX + "/")) throw endpointNotFound();
    const segments = split(url.pathname.slice(API_PREFIX.length));

    const candidates = this.routes
      .map(({ route, segments: pattern }) => ({ route, path: match(pattern, segments) }))
      .filter((c): c is { route: Route; path: Record<string, string> } => c.path !== null);
    if (candidates.length === 0) throw endpointNotFound();
    const chosen = candidates.find((c) => c.route.method === method);
    if (!chosen) throw methodNotAllowed([...new Set(candidates.map((c) => c.route.method))]);

    const sources = [url.searchParams];
    let files: UploadedFile[] = [];
    if (method !== "GET") {
      const body = await readForm(req, this.server.state);
      sources.push(body.fields);
      files = body.files;
    }
    const params = Params.fromSearchParams(...sources);
    const anonymous = chosen.route.auth === false || (chosen.route.auth === "optional" && !req.headers.authorization);
    const user = anonymous ? null : authenticate(this.server.state, req);
    // Long-polls are not rate limited: a waiting client must be able to come back.
    if (user && chosen.route.path !== "/events") this.server.rateLimiter?.take(user.id);
    const result = await chosen.route.handler({
      server: this.server,
      params,
      path: chosen.path,
      user: user as User,
      signal,
      userAgent: req.headers["user-agent"] ?? "",
      files,
    });
    const ignored = params.unsupported();
    return ignored.length > 0 ? { ...result, ignored_parameters_unsupported: ignored } : result;
  }

}

/** The account of an HTTP Basic `Authorization` header (email and API key). */
export function authenticate(state: State, req: IncomingMessage): User {
  const header = req.headers.authorization;
  if (!header) throw notLoggedIn();
  const m = /^Basic\s+(.+)$/i.exec(header.trim());
  if (!m) throw notLoggedIn();
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw invalidApiKey();
  const user = state.userByEmail(decoded.slice(0, colon));
  if (!user || user.apiKey !== decoded.slice(colon + 1)) throw invalidApiKey();
  if (!user.isActive) throw userDeactivated();
  return user;
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

/**
 * The path's parameters when `segments` fit `pattern`: `:name` takes one segment, a last
 * `*name` takes all the rest (a navigation view's fragment holds slashes, sent as they are
 * or as %2F).
 */
function match(pattern: string[], segments: string[]): Record<string, string> | null {
  const rest = pattern[pattern.length - 1]?.startsWith("*") === true;
  if (rest ? segments.length < pattern.length : pattern.length !== segments.length) return null;
  const out: Record<string, string> = {};
  try {
    for (let i = 0; i < pattern.length; i++) {
      const p = pattern[i]!;
      const s = segments[i]!;
      if (p.startsWith("*")) out[p.slice(1)] = segments.slice(i).map((x) => decodeURIComponent(x)).join("/");
      else if (p.startsWith(":")) out[p.slice(1)] = decodeURIComponent(s);
      else if (p !== s) return null;
    }
  } catch {
    return null; // a malformed percent-escape
  }
  return out;
}

async function readForm(req: IncomingMessage, state: State): Promise<{ fields: URLSearchParams; files: UploadedFile[] }> {
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  const multipart = type.startsWith("multipart/form-data");
  // A multipart body may carry one file up to the organization's limit, plus its headers.
  const limit = multipart ? maxUploadMib(state) * 1024 * 1024 + 64 * 1024 : MAX_BODY_BYTES;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    // Too large: read on (so that the client gets the answer) without keeping the bytes.
    if (size > limit * 4) req.destroy();
    if (size <= limit) chunks.push(buf);
  }
  if (size > limit) throw multipart ? fileTooLarge(maxUploadMib(state)) : new ApiError(413, "BAD_REQUEST", "Request body too large");
  const body = Buffer.concat(chunks);
  if (multipart) {
    const boundary = boundaryOf(req.headers["content-type"] ?? "");
    if (!boundary) throw new ApiError(400, "BAD_REQUEST", "Malformed multipart body");
    try {
      return parseMultipart(body, boundary);
    } catch (err) {
      if (err instanceof MultipartError) throw new ApiError(400, "BAD_REQUEST", err.message);
      throw err;
    }
  }
  const text = body.toString("utf8");
  if (text === "" || (type !== "" && !type.startsWith("application/x-www-form-urlencoded"))) {
    return { fields: new URLSearchParams(), files: [] };
  }
  return { fields: new URLSearchParams(text), files: [] };
}

async function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
  if (res.headersSent || res.destroyed) return;
  const encoded = await encodeAnswer(JSON.stringify(body), req.headers["accept-encoding"]);
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(encoded.body),
    ...encoded.headers,
    ...headers,
  });
  res.end(encoded.body);
}
