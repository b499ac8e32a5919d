/**
 * Files: uploading one from disk (checked against the organization's limit
 * before anything is sent), the address that opens a link (an uploaded
 * file's temporary URL: no credentials in it), saving a link's file
 * (authenticated for the organization's uploads, never over an existing
 * file), and the account's attachments.
 */
import { createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { basename } from "node:path";
import {
  deleteAttachment,
  downloadTo,
  listAttachments,
  temporaryUrl,
  uploadFile,
  uploadPathOf,
  type Attachment,
  type Progress,
} from "../../api/routes/uploads.js";
import type { Store } from "../../model/store.js";
import { expandPath, saveTarget } from "../file-paths.js";
import { command, failed, perform, request, succeeded, type ActionResult, type ActionSession } from "./result.js";

export type { Attachment, Progress } from "../../api/routes/uploads.js";

type Session = Pick<ActionSession, "machine">;

const MIB = 1024 * 1024;

/** The organization's upload limit in MiB (a `realm` event's value over the register's). */
export function uploadLimitMib(store: Store): number {
  const live = store.realm.settings["max_file_upload_size_mib"];
  return typeof live === "number" ? live : store.realm.maxFileUploadMib;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MIB) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / MIB).toFixed(1)} MiB`;
}

export interface LocalFile {
  path: string;
  name: string;
  size: number;
}

/** A file that can be sent: it exists, is a regular file, and fits the limit. Nothing is sent. */
export async function checkUpload(rawPath: string, limitMib: number): Promise<ActionResult<LocalFile>> {
  const path = expandPath(rawPath);
  const name = basename(path);
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) return failed(`${name} is not a file`, "NOT_A_FILE");
    size = s.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return failed(code === "ENOENT" ? `No such file: ${rawPath}` : `Cannot read ${rawPath}: ${code ?? (err as Error).message}`, "UNREADABLE");
  }
  if (limitMib <= 0) return failed("This organization does not accept file uploads", "UPLOADS_OFF");
  if (size > limitMib * MIB) return failed(`${name} is ${formatSize(size)}; the organization accepts files up to ${limitMib} MiB`, "FILE_TOO_LARGE");
  return succeeded({ path, name, size });
}

export interface Uploaded {
  name: string;
  url: string;
  /** `[name](url)`, what goes into the message. */
  markdown: string;
}

/** `[name](url)` with the brackets of the name escaped. */
export function uploadLink(name: string, url: string): string {
  return `[${name.replace(/([[\]\\])/g, "\\$1")}](${url})`;
}

/** Uploads one checked file; `onProgress` counts the bytes sent. */
export async function uploadLocalFile(session: Session, file: LocalFile, o: { onProgress?: Progress; signal?: AbortSignal } = {}): Promise<ActionResult<Uploaded>> {
  return request(session, async (client) => {
    const res = await uploadFile(client, file.path, { name: file.name, onProgress: o.onProgress, signal: o.signal });
    const name = res.filename ?? file.name;
    return { name, url: res.url, markdown: uploadLink(name, res.url) };
  });
}

/**
 * The address to open for a link: an uploaded file's temporary URL (it
 * reads the file for a minute without credentials), else the link itself,
 * made absolute against the organization.
 */
export function addressToOpen(session: Session, link: string): Promise<ActionResult<string>> {
  const client = session.machine.client;
  const upload = uploadPathOf(client, link);
  if (upload !== undefined) return request(session, (c) => temporaryUrl(c, upload));
  return perform(async () => new URL(link, client.site.href).href);
}

export interface Saved {
  path: string;
  bytes: number;
}

/** The file name a link suggests. */
export function linkFileName(link: string): string {
  let last = link.split(/[?#]/)[0]!.replace(/\/+$/, "").split("/").pop() ?? "";
  try {
    last = decodeURIComponent(last);
  } catch {
    // kept as written
  }
  return last && !/^[a-z]+:$/i.test(last) ? last : "download";
}

/**
 * Saves a link's file under `given` (a directory or a file; default the
 * downloads directory). An existing file is never replaced: ` (1)` and so
 * on are added. A failed download leaves nothing behind.
 */
export async function saveLink(session: Session, link: string, given?: string, o: { onProgress?: Progress; signal?: AbortSignal } = {}): Promise<ActionResult<Saved>> {
  let path: string;
  try {
    path = saveTarget(given, linkFileName(link));
  } catch (err) {
    return failed((err as Error).message, "NO_NAME");
  }
  let created = false;
  const r = await request(session, async (client) => {
    // "wx": created here or not at all (a file that appeared meanwhile is left alone).
    const out = createWriteStream(path, { flags: "wx" });
    await new Promise<void>((resolve, reject) => {
      out.once("open", () => resolve());
      out.once("error", reject);
    });
    created = true;
    const got = await downloadTo(client, link, out, o);
    return { path, bytes: got.bytes };
  });
  if (!r.ok && created) await rm(path, { force: true }).catch(() => undefined);
  return r;
}

export function myAttachments(session: Session): Promise<ActionResult<{ attachments: Attachment[]; used?: number }>> {
  return request(session, async (c) => {
    const res = await listAttachments(c);
    return { attachments: res.attachments, used: res.upload_space_used ?? undefined };
  });
}

export function removeAttachment(session: Session, id: number): Promise<ActionResult> {
  return command(session, (c) => deleteAttachment(c, id));
}
