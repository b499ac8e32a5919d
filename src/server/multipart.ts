// A small multipart/form-data parser over a fully read (and size-bounded)
// body: text fields and files, with their declared names and types.

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string | undefined;
  bytes: Buffer;
}

export interface MultipartBody {
  fields: URLSearchParams;
  files: UploadedFile[];
}

export class MultipartError extends Error {}

export function boundaryOf(contentType: string): string | undefined {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

function headerParam(header: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|;)\\s*${name}\\*?=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, "i").exec(header);
  if (!m) return undefined;
  const raw = m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? "").trim();
  const ext = /^utf-8''(.*)$/i.exec(raw);
  if (ext) {
    try {
      return decodeURIComponent(ext[1]!);
    } catch {
      return ext[1];
    }
  }
  return raw;
}

/** Parses the parts between `--boundary` delimiters; at most `maxParts`. */
export function parseMultipart(body: Buffer, boundary: string, maxParts = 100): MultipartBody {
  const fields = new URLSearchParams();
  const files: UploadedFile[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new MultipartError("Malformed multipart body");
  for (let parts = 0; parts <= maxParts; parts++) {
    pos += delimiter.length;
    if (body.subarray(pos, pos + 2).toString() === "--") return { fields, files };
    if (body.subarray(pos, pos + 2).toString() === "\r\n") pos += 2;
    const headerEnd = body.indexOf("\r\n\r\n", pos);
    if (headerEnd < 0) throw new MultipartError("Malformed multipart body");
    const headers = body.subarray(pos, headerEnd).toString("utf8").split("\r\n");
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
    if (next < 0) throw new MultipartError("Malformed multipart body");
    const content = body.subarray(headerEnd + 4, next);
    let disposition = "";
    let type: string | undefined;
    for (const line of headers) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === "content-disposition") disposition = value;
      if (key === "content-type") type = value;
    }
    const field = headerParam(disposition, "name") ?? "";
    const filename = headerParam(disposition, "filename");
    if (filename !== undefined) files.push({ field, filename, contentType: type, bytes: Buffer.from(content) });
    else fields.append(field, content.toString("utf8"));
    pos = next + 2;
  }
  throw new MultipartError("Too many parts in the multipart body");
}
