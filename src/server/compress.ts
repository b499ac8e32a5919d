// Compression of JSON answers, as a reverse proxy in front of the service does: gzip when the
// request's Accept-Encoding allows it and the body is large enough to be worth it. Bodies are
// compressed whole (every answer, the events long-poll included, is complete when it is sent),
// so nothing is ever held back waiting for more.
import { promisify } from "node:util";
import { gzip } from "node:zlib";

/** Below this many bytes an answer goes as it is (a header's worth of savings at most). */
export const MIN_COMPRESS_BYTES = 1024;
/** nginx's default level: on the large data set's register, 8 % of the bytes (level 6: 7 %) for less CPU. */
export const GZIP_LEVEL = 1;

const gzipAsync = promisify(gzip);

/** Whether an Accept-Encoding header allows gzip (named, or by `*`, with a quality above zero). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(",")) {
    const [name = "", ...attrs] = part.split(";").map((s) => s.trim().toLowerCase());
    const q = attrs.find((a) => a.startsWith("q="));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name === "gzip" || name === "x-gzip") return allowed;
    if (name === "*") star = allowed;
  }
  return star ?? false;
}

/** The body to send and the headers that describe it. */
export async function encodeAnswer(text: string, acceptEncoding: string | undefined): Promise<{ body: Buffer | string; headers: Record<string, string> }> {
  const vary = { Vary: "Accept-Encoding" };
  const size = Buffer.byteLength(text);
  if (size < MIN_COMPRESS_BYTES || !acceptsGzip(acceptEncoding)) return { body: text, headers: vary };
  const body = await gzipAsync(text, { level: GZIP_LEVEL });
  return { body, headers: { ...vary, "Content-Encoding": "gzip" } };
}
