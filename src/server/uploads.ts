// Uploaded files, kept in memory: the bytes, who uploaded them and when, the
// messages whose content links them (computed from the message contents),
// and the short-lived tokens of temporary download URLs.

import { randomBytes } from "node:crypto";
import type { ServerContext } from "./context.js";
import { badRequest, type ApiError } from "./errors.js";
import type { Message, State, User } from "./state.js";

export const DEFAULT_MAX_FILE_UPLOAD_MIB = 25;
export const TEMPORARY_URL_SECONDS = 60;
/** The realm id that appears in upload paths (one organization per server). */
export const REALM_ID = 2;

export interface Upload {
  id: number;
  ownerId: number;
  /** The sanitized file name (last path segment). */
  name: string;
  /** `<realm>/<xx>/<random>/<name>`, the part of the URL after /user_uploads/. */
  pathId: string;
  bytes: Buffer;
  contentType: string;
  /** Milliseconds. */
  createTime: number;
}

interface UploadStore {
  byId: Map<number, Upload>;
  byPath: Map<string, Upload>;
  nextId: number;
  maxMib: number;
  tokens: Map<string, { pathId: string; expires: number }>;
}

const stores = new WeakMap<State, UploadStore>();

export function uploadStore(state: State): UploadStore {
  let store = stores.get(state);
  if (!store) {
    store = { byId: new Map(), byPath: new Map(), nextId: 1, maxMib: DEFAULT_MAX_FILE_UPLOAD_MIB, tokens: new Map() };
    stores.set(state, store);
  }
  return store;
}

export function maxUploadMib(state: State): number {
  return uploadStore(state).maxMib;
}

export function setMaxUploadMib(state: State, mib: number): void {
  uploadStore(state).maxMib = mib;
}

/** Keeps letters, digits, dot, dash and underscore; spaces become dashes (like the service). */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .normalize("NFKC")
    .trim()
    .replace(/\s+/g, "-")
    .replace(/[^\p{L}\p{N}._-]/gu, "")
    .replace(/^\.+/, "");
  return cleaned === "" ? "uploaded-file" : cleaned.slice(0, 200);
}

const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  txt: "text/plain",
  md: "text/markdown",
  pdf: "application/pdf",
  json: "application/json",
  csv: "text/csv",
};

export function contentTypeFor(name: string, declared: string | undefined): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return TYPES[ext] ?? (declared && /^[\w.+-]+\/[\w.+-]+$/.test(declared) ? declared : "application/octet-stream");
}

function randomSegment(): string {
  return randomBytes(18).toString("base64url");
}

/** Stores a file; `fixedDir` ("xx/random") gives seeds a deterministic path. */
export function addUpload(
  state: State,
  owner: User,
  rawName: string,
  bytes: Buffer,
  declaredType: string | undefined,
  nowMs: number,
  fixedDir?: string,
): Upload {
  const store = uploadStore(state);
  const name = sanitizeFileName(rawName);
  const pathId = `${REALM_ID}/${fixedDir ?? `${randomBytes(1).toString("hex")}/${randomSegment()}`}/${name}`;
  const upload: Upload = {
    id: store.nextId++,
    ownerId: owner.id,
    name,
    pathId,
    bytes,
    contentType: contentTypeFor(name, declaredType),
    createTime: nowMs,
  };
  store.byId.set(upload.id, upload);
  store.byPath.set(pathId, upload);
  return upload;
}

export function removeUpload(state: State, upload: Upload): void {
  const store = uploadStore(state);
  store.byId.delete(upload.id);
  store.byPath.delete(upload.pathId);
}

export function uploadUrl(upload: Upload): string {
  return `/user_uploads/${upload.pathId.split("/").map(encodeURIComponent).join("/")}`;
}

/** Upload path ids linked from a message's content (relative or absolute links). */
export function linkedPathIds(content: string): string[] {
  const out = new Set<string>();
  for (const m of content.matchAll(/\/user_uploads\/(\d+\/[^\s)\]"'<>?#]+)/g)) {
    try {
      out.add(decodeURIComponent(m[1]!));
    } catch {
      out.add(m[1]!);
    }
  }
  return [...out];
}

export function messagesLinking(state: State, upload: Upload): Message[] {
  return state.messages.filter((m) => m.content.includes("/user_uploads/") && linkedPathIds(m.content).includes(upload.pathId));
}

export function uploadSpaceUsed(state: State): number {
  let n = 0;
  for (const u of uploadStore(state).byId.values()) n += u.bytes.length;
  return n;
}

export function attachmentToWire(state: State, upload: Upload): Record<string, unknown> {
  return {
    id: upload.id,
    name: upload.name,
    path_id: upload.pathId,
    size: upload.bytes.length,
    create_time: upload.createTime,
    messages: messagesLinking(state, upload).map((m) => ({ id: m.id, date_sent: m.timestamp * 1000 })),
  };
}

/** The uploader, or anyone who can read a message linking the file. */
export function canAccessUpload(state: State, user: User, upload: Upload): boolean {
  if (upload.ownerId === user.id) return true;
  return messagesLinking(state, upload).some((m) => state.canReadMessage(user, m));
}

export function temporaryToken(ctx: ServerContext, upload: Upload): string {
  const store = uploadStore(ctx.state);
  const now = ctx.now();
  for (const [t, v] of store.tokens) if (v.expires <= now) store.tokens.delete(t);
  const token = randomBytes(24).toString("hex");
  store.tokens.set(token, { pathId: upload.pathId, expires: now + TEMPORARY_URL_SECONDS * 1000 });
  return token;
}

export function uploadForToken(ctx: ServerContext, token: string): Upload | undefined {
  const store = uploadStore(ctx.state);
  const entry = store.tokens.get(token);
  if (!entry || entry.expires <= ctx.now()) return undefined;
  return store.byPath.get(entry.pathId);
}

export function fileTooLarge(mib: number): ApiError {
  return badRequest(`Uploaded file is larger than the allowed limit of ${mib} MiB`);
}
