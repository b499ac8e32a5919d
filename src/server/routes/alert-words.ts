// A user's alert words: GET, POST (add) and DELETE (remove) on
// /users/me/alert_words. Words compare case-insensitively, keep the case
// they were first added with, and every change sends the whole list to the
// user's clients as an `alert_words` event.

import type { ServerContext } from "../context.js";
import { badRequest, missingArgument } from "../errors.js";
import type { Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import type { Params } from "../params.js";

const MAX_ALERT_WORD_LENGTH = 100;

/** The `alert_words` parameter: a JSON list of strings, trimmed, empty ones dropped. */
function wordsParam(params: Params): string[] {
  const words = params.strList("alert_words");
  if (words === undefined) throw missingArgument("alert_words");
  words.forEach((w, i) => {
    if ([...w].length > MAX_ALERT_WORD_LENGTH) {
      throw badRequest(`alert_words[${i}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
    }
  });
  return words.map((w) => w.trim()).filter((w) => w !== "");
}

function current(server: ServerContext, userId: number): string[] {
  let list = server.state.alertWords.get(userId);
  if (!list) {
    list = [];
    server.state.alertWords.set(userId, list);
  }
  return list;
}

function changed(server: ServerContext, userId: number, list: string[]): Record<string, unknown> {
  sendToUsers(server, [userId], "alert_words", { type: "alert_words", alert_words: [...list] });
  return { alert_words: [...list] };
}

export const alertWordRoutes: Route[] = [
  {
    method: "GET",
    path: "/users/me/alert_words",
    handler({ server, user }) {
      return { alert_words: [...(server.state.alertWords.get(user.id) ?? [])] };
    },
  },
  {
    method: "POST",
    path: "/users/me/alert_words",
    handler({ server, params, user }) {
      const words = wordsParam(params);
      const list = current(server, user.id);
      const known = new Set(list.map((w) => w.toLowerCase()));
      for (const w of words) {
        if (known.has(w.toLowerCase())) continue;
        known.add(w.toLowerCase());
        list.push(w);
      }
      return changed(server, user.id, list);
    },
  },
  {
    method: "DELETE",
    path: "/users/me/alert_words",
    handler({ server, params, user }) {
      const drop = new Set(wordsParam(params).map((w) => w.toLowerCase()));
      const list = current(server, user.id).filter((w) => !drop.has(w.toLowerCase()));
      server.state.alertWords.set(user.id, list);
      return changed(server, user.id, list);
    },
  },
];
