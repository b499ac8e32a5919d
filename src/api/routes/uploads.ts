/**
 * Files: a multipart upload streamed from disk (with a count of the bytes
 * sent), the temporary URL of an uploaded file, the account's attachments,
 * and an authenticated download streamed to a writable.
 */
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { PassThrough, Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import dispatchRequest from "undici/lib/api/api-request.js";
import * as z from "zod";
import { ApiError, ServerError, classifyFailure } from "../errors.js";
import type { ApiClient } from "../http.js";
import { attachmentsSchema, temporaryUrlSchema, uploadResultSchema } from "../schemas/responses-uploads.js";
import { emptySuccessSchema } from "../schemas/responses.js";

export type { Attachment } from "../schemas/responses-uploads.js";

/** Bytes moved so far, and of how many. */
export type Progress = (done: number, total: number) => void;

/** Counts the bytes that pass through. */
export function countingStream(total: number, onProgress?: Progress): Transform {
  let done = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, next) {
      done += chunk.length;
      onProgress?.(done, total);
      next(null, chunk);
    },
  });
}

/** A name fit for a multipart header: no quotes, backslashes or line breaks (the exact name goes as filename*). */
function headerName(name: string): string {
  return name.replace(/[\\"\r\n\u0000-\u001f\u007f]/g, "_");
}

/** The parts around the file's bytes, and the total length the body will have. */
export function multipartFrame(name: string, size: number, boundary = `termchat-${randomBytes(12).toString("hex")}`) {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${headerName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { boundary, head, tail, length: head.length + size + tail.length };
}

export interface UploadOptions {
  onProgress?: Progress;
  signal?: AbortSignal;
  /** The name the server is told (default: the file's own). */
  name?: string;
}

/** Uploads one file, read from disk as it is sent; never retried (a repeat would store it twice). */
export async function uploadFile(client: ApiClient, path: string, o: UploadOptions = {}) {
  const size = (await stat(path)).size;
  const name = o.name ?? basename(path);
  const frame = multipartFrame(name, size);
  const open = (): Readable => {
    const out = new PassThrough();
    const counter = countingStream(size, o.onProgress);
    void (async () => {
      try {
        out.write(frame.head);
        await pipeline(createReadStream(path), counter, out, { end: false });
        out.end(frame.tail);
      } catch (err) {
        out.destroy(err as Error);
      }
    })();
    return out;
  };
  return client.request("POST", "user_uploads", {
    schema: uploadResultSchema,
    idempotent: false,
    signal: o.signal,
    // Big files on slow links: the deadline grows with the size (at least 10 KiB/s).
    timeoutMs: 60_000 + Math.ceil(size / 10_240) * 1000,
    body: { contentType: `multipart/form-data; boundary=${frame.boundary}`, length: frame.length, open },
  });
}

/** `/user_uploads/<realm>/<path>` → the part after `/user_uploads/`, or undefined for any other URL of the site. */
export function uploadPathOf(client: ApiClient, href: string): string | undefined {
  let u: URL;
  try {
    u = new URL(href, client.site.href);
  } catch {
    return undefined;
  }
  if (u.origin !== client.site.origin) return undefined;
  const m = /^\/user_uploads\/(\d+\/.+)$/.exec(u.pathname);
  return m && !m[1]!.startsWith("temporary/") ? m[1] : undefined;
}

/** A URL that reads the file without credentials for a short while (absolute). */
export async function temporaryUrl(client: ApiClient, uploadPath: string): Promise<string> {
  const res = await client.request("GET", `user_uploads/${uploadPath}`, { schema: temporaryUrlSchema });
  return new URL(res.url, client.site.href).href;
}

export function listAttachments(client: ApiClient) {
  return client.request("GET", "attachments", { schema: attachmentsSchema });
}

export function deleteAttachment(client: ApiClient, id: number) {
  return client.request("DELETE", `attachments/${id}`, { schema: emptySuccessSchema, idempotent: false });
}

const errorEnvelope = z.lazy(() => z.looseObject({ result: z.literal("error"), msg: z.string(), code: z.string().optional() }));

export interface Downloaded {
  bytes: number;
  contentType?: string;
}

/**
 * Streams a file of the organization (or any http(s) URL) into `sink`. The
 * account's credentials go only to the organization's own origin.
 */
export async function downloadTo(client: ApiClient, href: string, sink: Writable, o: { onProgress?: Progress; signal?: AbortSignal } = {}): Promise<Downloaded> {
  const url = new URL(href, client.site.href);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ApiError(400, "BAD_REQUEST", `Not a web address: ${url.protocol}`, {}, undefined);
  const headers: Record<string, string> = { "user-agent": "termchat" };
  const auth = client.authorizationFor(url);
  if (auth) headers.authorization = auth;
  const what = `GET ${url.pathname}`;
  let res;
  try {
    res = await dispatchRequest.call(await client.connection(), { origin: url.origin, path: `${url.pathname}${url.search}`, method: "GET", headers, signal: o.signal });
  } catch (err) {
    throw classifyFailure(err, what);
  }
  if (res.statusCode !== 200) {
    const text = await res.body.text().catch(() => "");
    let parsed: z.infer<typeof errorEnvelope> | undefined;
    try {
      parsed = errorEnvelope.safeParse(JSON.parse(text)).data;
    } catch {
      parsed = undefined;
    }
    if (parsed) throw new ApiError(res.statusCode, parsed.code ?? "BAD_REQUEST", parsed.msg, {}, undefined);
    if (res.statusCode === 401 || res.statusCode === 404) throw new ApiError(res.statusCode, res.statusCode === 404 ? "NOT_FOUND" : "UNAUTHORIZED", `HTTP ${res.statusCode}`, {}, undefined);
    throw new ServerError(res.statusCode, `${what}: server answered HTTP ${res.statusCode}`, undefined);
  }
  const total = Number(res.headers["content-length"] ?? 0) || 0;
  let bytes = 0;
  const counter = countingStream(total, (done, all) => {
    bytes = done;
    o.onProgress?.(done, all);
  });
  try {
    await pipeline(res.body, counter, sink);
  } catch (err) {
    throw classifyFailure(err, what);
  }
  const type = res.headers["content-type"];
  return { bytes, contentType: typeof type === "string" ? type : undefined };
}
