// Channel folders: POST /channel_folders/create, PATCH /channel_folders/{id},
// GET /channel_folders; `channel_folder` add/update events to everyone.

import { LIMITS, nowSeconds, type ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToRealm } from "../notify.js";
import { requireAdmin } from "../permissions.js";
import type { ChannelFolder } from "../state.js";

export function folderToWire(server: ServerContext, f: ChannelFolder): Record<string, unknown> {
  return {
    id: f.id,
    name: f.name,
    description: f.description,
    rendered_description: server.markdown.render(f.description),
    order: f.order,
    date_created: f.dateCreated,
    creator_id: f.creatorId,
    is_archived: f.isArchived,
  };
}

function checkName(server: ServerContext, raw: string, self?: ChannelFolder): string {
  const name = raw.trim();
  if (name === "") throw badRequest("Channel folder name can't be empty.");
  if ([...name].length > LIMITS.maxChannelFolderNameLength) {
    throw badRequest(`name is too long (limit: ${LIMITS.maxChannelFolderNameLength} characters)`);
  }
  for (const f of server.state.folders.values()) {
    if (f !== self && f.name.toLowerCase() === name.toLowerCase()) throw badRequest(`Channel folder name already in use`);
  }
  return name;
}

function checkDescription(raw: string): string {
  if ([...raw].length > LIMITS.maxChannelFolderDescriptionLength) {
    throw badRequest(`description is too long (limit: ${LIMITS.maxChannelFolderDescriptionLength} characters)`);
  }
  return raw;
}

export const channelFolderRoutes: Route[] = [
  {
    method: "GET",
    path: "/channel_folders",
    handler({ server, params }) {
      const includeArchived = params.bool("include_archived") ?? false;
      const folders = [...server.state.folders.values()]
        .filter((f) => includeArchived || !f.isArchived)
        .sort((a, b) => a.order - b.order || a.id - b.id)
        .map((f) => folderToWire(server, f));
      return { channel_folders: folders };
    },
  },
  {
    method: "POST",
    path: "/channel_folders/create",
    handler({ server, params, user }) {
      requireAdmin(user);
      const name = checkName(server, params.reqStr("name"));
      const description = checkDescription(params.reqStr("description"));
      const { state } = server;
      const order = Math.max(-1, ...[...state.folders.values()].map((f) => f.order)) + 1;
      const folder: ChannelFolder = {
        id: state.allocate("folder"), name, description, order, dateCreated: nowSeconds(server), creatorId: user.id, isArchived: false,
      };
      state.folders.set(folder.id, folder);
      sendToRealm(server, "channel_folder", { type: "channel_folder", op: "add", channel_folder: folderToWire(server, folder) });
      return { channel_folder_id: folder.id };
    },
  },
  {
    method: "PATCH",
    path: "/channel_folders/:channel_folder_id",
    handler({ server, params, path, user }) {
      requireAdmin(user);
      const raw = path["channel_folder_id"] ?? "";
      const folder = /^\d+$/.test(raw) ? server.state.folders.get(Number(raw)) : undefined;
      if (!folder) throw badRequest("Invalid channel folder ID");
      const nameRaw = params.str("name");
      const descRaw = params.str("description");
      const isArchived = params.bool("is_archived");
      const name = nameRaw !== undefined ? checkName(server, nameRaw, folder) : undefined;
      const description = descRaw !== undefined ? checkDescription(descRaw) : undefined;
      const data: Record<string, unknown> = {};
      if (name !== undefined && name !== folder.name) data["name"] = folder.name = name;
      if (description !== undefined && description !== folder.description) {
        data["description"] = folder.description = description;
        data["rendered_description"] = server.markdown.render(description);
      }
      if (isArchived !== undefined && isArchived !== folder.isArchived) data["is_archived"] = folder.isArchived = isArchived;
      if (Object.keys(data).length > 0) {
        sendToRealm(server, "channel_folder", { type: "channel_folder", op: "update", channel_folder_id: folder.id, data });
      }
      return {};
    },
  },
];
