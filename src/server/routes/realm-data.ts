// Organization data any member may read: the custom emoji (deactivated ones
// included, as in the register response) and the linkifiers.

import type { Route } from "../http.js";

export const realmDataRoutes: Route[] = [
  {
    method: "GET",
    path: "/realm/emoji",
    handler({ server }) {
      const emoji: Record<string, unknown> = {};
      for (const e of server.state.realmEmoji.values()) {
        emoji[e.id] = { id: e.id, name: e.name, source_url: e.sourceUrl, still_url: null, deactivated: e.deactivated, author_id: e.authorId };
      }
      return { emoji };
    },
  },
  {
    method: "GET",
    path: "/realm/linkifiers",
    handler({ server }) {
      return { linkifiers: server.state.linkifiers.map((l) => ({ ...l })) };
    },
  },
];
