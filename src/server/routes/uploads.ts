// Files: POST /user_uploads (one multipart file), the temporary-URL endpoint
// GET /user_uploads/{realm_id}/{path...} below /api/v1, and the uploader's
// list (GET /attachments) and deletion (DELETE /attachments/{id}), with
// `attachment` events to the uploader's clients.

import type { ServerContext } from "../context.js";
import { ApiError, badRequest } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import {
  addUpload,
  attachmentToWire,
  canAccessUpload,
  fileTooLarge,
  linkedPathIds,
  maxUploadMib,
  removeUpload,
  temporaryToken,
  uploadSpaceUsed,
  uploadStore,
  uploadUrl,
  type Upload,
} from "../uploads.js";

function attachmentEvent(server: ServerContext, ownerId: number, op: "add" | "update" | "remove", upload: Upload): void {
  const attachment = op === "remove" ? { id: upload.id } : attachmentToWire(server.state, upload);
  sendToUsers(server, [ownerId], "attachment", {
    type: "attachment",
    op,
    attachment,
    upload_space_used: uploadSpaceUsed(server.state),
  });
}

/** Sends `attachment` update events for the uploads a message links (after a send or an edit). */
export function notifyLinkedUploads(server: ServerContext, content: string): void {
  if (!content.includes("/user_uploads/")) return;
  const store = uploadStore(server.state);
  for (const pathId of linkedPathIds(content)) {
    const upload = store.byPath.get(pathId);
    if (upload) attachmentEvent(server, upload.ownerId, "update", upload);
  }
}

function upload(ctx: RequestContext): Record<string, unknown> {
  const { server, user, files } = ctx;
  if (files.length === 0) throw badRequest("You must specify a file to upload");
  if (files.length > 1) throw badRequest("You may only upload one file at a time");
  const file = files[0]!;
  const limit = maxUploadMib(server.state);
  if (file.bytes.length > limit * 1024 * 1024) throw fileTooLarge(limit);
  const stored = addUpload(server.state, user, file.filename, file.bytes, file.contentType, server.now());
  attachmentEvent(server, user.id, "add", stored);
  const url = uploadUrl(stored);
  return { uri: url, url, filename: stored.name };
}

/** The upload a `/user_uploads/<realm>/<a>/<b>/<name>` path names, when `user` may read it. */
function accessibleUpload(ctx: RequestContext): Upload {
  const { server, user, path } = ctx;
  const pathId = [path["realm_id"], path["a"], path["b"], path["name"]].join("/");
  const found = uploadStore(server.state).byPath.get(pathId);
  if (!found || !canAccessUpload(server.state, user, found)) throw new ApiError(404, "BAD_REQUEST", "File not found.");
  return found;
}

function attachmentFromPath(ctx: RequestContext): Upload {
  const raw = ctx.path["attachment_id"] ?? "";
  const found = /^\d+$/.test(raw) ? uploadStore(ctx.server.state).byId.get(Number(raw)) : undefined;
  if (!found || found.ownerId !== ctx.user.id) throw badRequest("Invalid attachment");
  return found;
}

export const uploadRoutes: Route[] = [
  { method: "POST", path: "/user_uploads", handler: upload },
  {
    method: "GET",
    path: "/user_uploads/:realm_id/:a/:b/:name",
    handler(ctx) {
      const found = accessibleUpload(ctx);
      const token = temporaryToken(ctx.server, found);
      return { url: `/user_uploads/temporary/${token}/${encodeURIComponent(found.name)}` };
    },
  },
  {
    method: "GET",
    path: "/attachments",
    handler({ server, user }) {
      const mine = [...uploadStore(server.state).byId.values()].filter((u) => u.ownerId === user.id);
      return {
        attachments: mine.map((u) => attachmentToWire(server.state, u)),
        upload_space_used: uploadSpaceUsed(server.state),
      };
    },
  },
  {
    method: "DELETE",
    path: "/attachments/:attachment_id",
    handler(ctx) {
      const found = attachmentFromPath(ctx);
      removeUpload(ctx.server.state, found);
      attachmentEvent(ctx.server, found.ownerId, "remove", found);
      return {};
    },
  },
];
