// Drafts (GET/POST /drafts, PATCH/DELETE /drafts/{id}) and saved snippets
// (GET/POST /saved_snippets, PATCH/DELETE /saved_snippets/{id}), each change
// announced to all of the user's queues.

import { nowSeconds, type ServerContext } from "../context.js";
import { ApiError, badRequest } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import type { Draft, SavedSnippet, User } from "../state.js";

function draftToWire(d: Draft): Record<string, unknown> {
  return { id: d.id, type: d.type, to: [...d.to], topic: d.topic, content: d.content, timestamp: d.timestamp };
}

function checkSyncEnabled(server: ServerContext, user: User): void {
  if (server.state.userSettings.get(user.id)?.["enable_drafts_synchronization"] === false) {
    throw badRequest("User has disabled synchronizing drafts.");
  }
}

/** Validates one draft object of a request; returns it without id. */
function parseDraft(server: ServerContext, user: User, raw: unknown, where: string): Omit<Draft, "id"> {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw badRequest(`${where} is not a dict`);
  const obj = raw as Record<string, unknown>;
  for (const key of ["type", "to", "topic", "content"]) {
    if (!(key in obj)) throw badRequest(`${where} is missing '${key}'`);
  }
  const type = obj["type"];
  if (type !== "" && type !== "stream" && type !== "private") throw badRequest(`${where}["type"] is not an allowed value`);
  const to = obj["to"];
  if (!Array.isArray(to) || !to.every((x) => Number.isInteger(x))) throw badRequest(`${where}["to"] is not a list of integers`);
  const topic = obj["topic"];
  const content = obj["content"];
  if (typeof topic !== "string") throw badRequest(`${where}["topic"] is not a string`);
  if (typeof content !== "string") throw badRequest(`${where}["content"] is not a string`);
  if (content.includes("\u0000")) throw badRequest("Content must not contain null bytes");
  if (topic.includes("\u0000")) throw badRequest("Topic must not contain null bytes");
  let timestamp = nowSeconds(server);
  if (obj["timestamp"] !== undefined && obj["timestamp"] !== null) {
    const t = obj["timestamp"];
    if (typeof t !== "number" || !Number.isFinite(t)) throw badRequest(`${where}["timestamp"] is not a number`);
    if (t < 0) throw badRequest("Timestamp must not be negative.");
    timestamp = Math.floor(t);
  }
  const { state } = server;
  if (type === "stream") {
    if (to.length !== 1) throw badRequest("Must specify exactly 1 channel ID for channel messages");
    const channel = state.channels.get(to[0] as number);
    if (!channel || !state.canAccessChannel(user, channel)) throw badRequest("Invalid channel ID");
    return { type, to: [channel.id], topic, content, timestamp };
  }
  if (type === "private") {
    for (const id of to as number[]) if (!state.users.has(id)) throw badRequest(`Invalid user ID ${id}`);
    return { type, to: [...new Set(to as number[])].sort((a, b) => a - b), topic: "", content, timestamp };
  }
  return { type: "", to: [], topic: "", content, timestamp };
}

function draftFromPath(ctx: RequestContext): { list: Draft[]; index: number } {
  const raw = ctx.path["draft_id"] ?? "";
  const list = ctx.server.state.drafts.get(ctx.user.id) ?? [];
  const index = /^\d+$/.test(raw) ? list.findIndex((d) => d.id === Number(raw)) : -1;
  if (index < 0) throw new ApiError(404, "BAD_REQUEST", "Draft does not exist");
  return { list, index };
}

function snippetToWire(s: SavedSnippet): Record<string, unknown> {
  return { id: s.id, title: s.title, content: s.content, date_created: s.dateCreated };
}

function snippetFromPath(ctx: RequestContext): { list: SavedSnippet[]; index: number } {
  const raw = ctx.path["saved_snippet_id"] ?? "";
  const list = ctx.server.state.savedSnippets.get(ctx.user.id) ?? [];
  const index = /^\d+$/.test(raw) ? list.findIndex((s) => s.id === Number(raw)) : -1;
  if (index < 0) throw new ApiError(404, "BAD_REQUEST", "Saved snippet does not exist.");
  return { list, index };
}

function checkSnippetText(title: string | undefined, content: string | undefined): void {
  if (title !== undefined && title.trim() === "") throw badRequest("Title cannot be empty.");
  if (content !== undefined && content.trim() === "") throw badRequest("Content cannot be empty.");
  if (title !== undefined && [...title].length > 60) throw badRequest("title is too long (limit: 60 characters)");
}

export const draftRoutes: Route[] = [
  {
    method: "GET",
    path: "/drafts",
    handler({ server, user }) {
      const drafts = (server.state.drafts.get(user.id) ?? []).map(draftToWire);
      return { count: drafts.length, drafts };
    },
  },
  {
    method: "POST",
    path: "/drafts",
    handler({ server, params, user }) {
      checkSyncEnabled(server, user);
      const raw = params.json("drafts") ?? [];
      if (!Array.isArray(raw)) throw badRequest("drafts is not a list");
      const parsed = raw.map((d, i) => parseDraft(server, user, d, `drafts[${i}]`));
      const created = parsed.map((d): Draft => ({ id: server.state.allocate("draft"), ...d }));
      const list = server.state.drafts.get(user.id) ?? [];
      list.push(...created);
      server.state.drafts.set(user.id, list);
      if (created.length > 0) {
        sendToUsers(server, [user.id], "drafts", { type: "drafts", op: "add", drafts: created.map(draftToWire) });
      }
      return { ids: created.map((d) => d.id) };
    },
  },
  {
    method: "PATCH",
    path: "/drafts/:draft_id",
    handler(ctx) {
      const { server, params, user } = ctx;
      checkSyncEnabled(server, user);
      const { list, index } = draftFromPath(ctx);
      const draft: Draft = { id: list[index]!.id, ...parseDraft(server, user, params.reqJson("draft"), "draft") };
      list[index] = draft;
      sendToUsers(server, [user.id], "drafts", { type: "drafts", op: "update", draft: draftToWire(draft) });
      return {};
    },
  },
  {
    method: "DELETE",
    path: "/drafts/:draft_id",
    handler(ctx) {
      const { server, user } = ctx;
      checkSyncEnabled(server, user);
      const { list, index } = draftFromPath(ctx);
      const [draft] = list.splice(index, 1);
      sendToUsers(server, [user.id], "drafts", { type: "drafts", op: "remove", draft_id: draft!.id });
      return {};
    },
  },
  {
    method: "GET",
    path: "/saved_snippets",
    handler({ server, user }) {
      return { saved_snippets: (server.state.savedSnippets.get(user.id) ?? []).map(snippetToWire) };
    },
  },
  {
    method: "POST",
    path: "/saved_snippets",
    handler({ server, params, user }) {
      const title = params.reqStr("title");
      const content = params.reqStr("content");
      checkSnippetText(title, content);
      const snippet: SavedSnippet = { id: server.state.allocateExtra("snippet"), title: title.trim(), content, dateCreated: nowSeconds(server) };
      const list = server.state.savedSnippets.get(user.id) ?? [];
      list.push(snippet);
      server.state.savedSnippets.set(user.id, list);
      sendToUsers(server, [user.id], "saved_snippets", { type: "saved_snippets", op: "add", saved_snippet: snippetToWire(snippet) });
      return { saved_snippet_id: snippet.id };
    },
  },
  {
    method: "PATCH",
    path: "/saved_snippets/:saved_snippet_id",
    handler(ctx) {
      const { server, params, user } = ctx;
      const { list, index } = snippetFromPath(ctx);
      const title = params.str("title");
      const content = params.str("content");
      if (title === undefined && content === undefined) throw badRequest("At least one of title or content must be provided.");
      checkSnippetText(title, content);
      const snippet = list[index]!;
      if (title !== undefined) snippet.title = title.trim();
      if (content !== undefined) snippet.content = content;
      sendToUsers(server, [user.id], "saved_snippets", { type: "saved_snippets", op: "update", saved_snippet: snippetToWire(snippet) });
      return {};
    },
  },
  {
    method: "DELETE",
    path: "/saved_snippets/:saved_snippet_id",
    handler(ctx) {
      const { list, index } = snippetFromPath(ctx);
      const [snippet] = list.splice(index, 1);
      sendToUsers(ctx.server, [ctx.user.id], "saved_snippets", { type: "saved_snippets", op: "remove", saved_snippet_id: snippet!.id });
      return {};
    },
  },
];
