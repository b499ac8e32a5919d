// Serves file downloads outside /api/v1: GET /user_uploads/<realm>/<path...>
// with the API's credentials (Basic auth, or the account's key as an
// `api_key` query parameter), its thumbnails at
// GET /user_uploads/thumbnail/<realm>/<path...>/<format> to whoever may read
// the file (image-thumbnails.ts), and GET /user_uploads/temporary/<token>[/<name>]
// without credentials while the token lasts.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerContext } from "./context.js";
import { ApiError, notLoggedIn } from "./errors.js";
import { authenticate } from "./http.js";
import { thumbnailOf } from "./image-thumbnails.js";
import type { User } from "./state.js";
import { canAccessUpload, uploadForToken, uploadStore } from "./uploads.js";

export function isUploadPath(url: string): boolean {
  return url.startsWith("/user_uploads/");
}

function userOf(ctx: ServerContext, req: IncomingMessage, url: URL): User {
  const key = url.searchParams.get("api_key");
  if (!req.headers.authorization && key) {
    const user = [...ctx.state.users.values()].find((u) => u.apiKey === key && u.isActive);
    if (!user) throw notLoggedIn();
    return user;
  }
  return authenticate(ctx.state, req);
}

interface Found {
  bytes: Buffer;
  contentType: string;
  name: string;
}

const notFound = () => new ApiError(404, "BAD_REQUEST", "File not found.");

function find(ctx: ServerContext, req: IncomingMessage, url: URL): Found {
  const segments = url.pathname.split("/").filter((s) => s !== "").slice(1).map((s) => decodeURIComponent(s));
  if (segments[0] === "temporary") {
    const found = uploadForToken(ctx, segments[1] ?? "");
    if (!found) throw notFound();
    return found;
  }
  const thumbnail = segments[0] === "thumbnail" ? segments.pop() : undefined;
  if (thumbnail !== undefined) segments.shift();
  const user = userOf(ctx, req, url);
  const found = uploadStore(ctx.state).byPath.get(segments.join("/"));
  if (!found || !canAccessUpload(ctx.state, user, found)) throw notFound();
  if (thumbnail === undefined) return found;
  const made = thumbnailOf(found, thumbnail, ctx.options.thumbnailFormats);
  if (!made) throw notFound();
  return { bytes: made.bytes, contentType: `image/${made.format.format === "jpg" ? "jpeg" : made.format.format}`, name: made.format.name };
}

function inline(type: string): boolean {
  return /^(image\/(png|jpeg|gif|webp)|text\/plain|application\/pdf)$/.test(type);
}

export function serveUpload(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): void {
  const method = (req.method ?? "GET").toUpperCase();
  let status = 200;
  let body: Buffer;
  let headers: Record<string, string>;
  try {
    if (method !== "GET" && method !== "HEAD") throw new ApiError(405, "BAD_REQUEST", "Method Not Allowed", {}, { Allow: "GET, HEAD" });
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://localhost");
      const found = find(ctx, req, url);
      const type = found.contentType + (found.contentType.startsWith("text/") ? "; charset=utf-8" : "");
      const disposition = `${inline(found.contentType) ? "inline" : "attachment"}; filename*=UTF-8''${encodeURIComponent(found.name)}`;
      headers = { "Content-Type": type, "Content-Disposition": disposition, "Cache-Control": "private, max-age=300" };
      body = found.bytes;
    } catch (err) {
      if (err instanceof URIError) throw new ApiError(404, "BAD_REQUEST", "File not found.");
      throw err;
    }
  } catch (err) {
    if (!(err instanceof ApiError)) {
      console.error("[termchat server]", err);
      err = new ApiError(500, "BAD_REQUEST", "Internal server error");
    }
    const e = err as ApiError;
    status = e.status;
    body = Buffer.from(JSON.stringify(e.body()));
    headers = { "Content-Type": "application/json", ...e.headers };
  }
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...headers, "Content-Length": body.length });
  res.end(method === "HEAD" ? undefined : body);
  ctx.onFileRequest?.({ method, path: (req.url ?? "/").split("?")[0]!, status, bytes: body.length });
}
