// Per-account key/value storage (used by interactive bots through the
// bindings): PUT sets entries, GET reads some keys or all, DELETE removes some
// keys or all. Like the public service, any authenticated account has its
// own storage; the total of key and value lengths is capped.

import type { ServerContext } from "../context.js";
import { badRequest, missingArgument } from "../errors.js";
import type { Route } from "../http.js";
import type { Params } from "../params.js";

export const STORAGE_SIZE_LIMIT = 10_000_000;

function storageOf(server: ServerContext, userId: number): Map<string, string> {
  let store = server.state.botStorage.get(userId);
  if (!store) {
    store = new Map();
    server.state.botStorage.set(userId, store);
  }
  return store;
}

function size(entries: Iterable<[string, string]>): number {
  let n = 0;
  for (const [k, v] of entries) n += [...k].length + [...v].length;
  return n;
}

/** The optional `keys` list; undefined means every key. */
function keysParam(params: Params): string[] | undefined {
  return params.strList("keys");
}

function keyMissing(): never {
  throw badRequest("Key does not exist.");
}

export const botStorageRoutes: Route[] = [
  {
    method: "PUT",
    path: "/bot_storage",
    handler({ server, params, user }) {
      const raw = params.json("storage");
      if (raw === undefined) throw missingArgument("storage");
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw badRequest("storage is not a dict");
      const entries = Object.entries(raw as Record<string, unknown>);
      for (const [k, v] of entries) if (typeof v !== "string") throw badRequest(`storage[${JSON.stringify(k)}] is not a string`);
      const store = storageOf(server, user.id);
      const next = new Map(store);
      for (const [k, v] of entries as [string, string][]) next.set(k, v);
      const total = size(next);
      if (total > STORAGE_SIZE_LIMIT) {
        throw badRequest(
          `Request exceeds storage limit by ${total - STORAGE_SIZE_LIMIT} characters. The limit is ${STORAGE_SIZE_LIMIT} characters.`,
        );
      }
      server.state.botStorage.set(user.id, next);
      return {};
    },
  },
  {
    method: "GET",
    path: "/bot_storage",
    handler({ server, params, user }) {
      const store = storageOf(server, user.id);
      const keys = keysParam(params) ?? [...store.keys()];
      const storage: Record<string, string> = {};
      for (const k of keys) storage[k] = store.get(k) ?? keyMissing();
      return { storage };
    },
  },
  {
    method: "DELETE",
    path: "/bot_storage",
    handler({ server, params, user }) {
      const store = storageOf(server, user.id);
      const keys = keysParam(params) ?? [...store.keys()];
      if (!keys.every((k) => store.has(k))) keyMissing();
      for (const k of keys) store.delete(k);
      return {};
    },
  },
];
