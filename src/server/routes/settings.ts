// PATCH /settings: the user's own settings, those the register's
// `user_settings` holds. Each value that changes goes to the user's queues
// as a `user_settings` update event; names the server does not keep come back
// in `ignored_parameters_unsupported`, as the public service reports them.

import { badRequest } from "../errors.js";
import type { Route } from "../http.js";
import { sendToUsers } from "../notify.js";
import type { Params } from "../params.js";

/** Settings whose values are one of a few (the public description lists them). */
const CHOICES: Record<string, readonly (number | string)[]> = {
  web_mark_read_on_scroll_policy: [1, 2, 3],
  web_home_view: ["recent_topics", "inbox", "all_messages"],
};

/** The new value of one setting, of the same type as the one held; undefined when it was not sent. */
function readSetting(params: Params, name: string, held: unknown): unknown {
  let value: unknown;
  if (typeof held === "boolean") value = params.bool(name);
  else if (typeof held === "number") value = params.int(name);
  else if (typeof held === "string") value = unquoted(params.str(name));
  else return undefined;
  const choices = CHOICES[name];
  if (value !== undefined && choices && !choices.includes(value as number | string)) throw badRequest(`Invalid ${name}`);
  return value;
}

/** Text values may arrive JSON-encoded (`"inbox"`), as clients that encode every value send them. */
function unquoted(v: string | undefined): string | undefined {
  if (v === undefined || !/^".*"$/.test(v)) return v;
  try {
    const parsed: unknown = JSON.parse(v);
    return typeof parsed === "string" ? parsed : v;
  } catch {
    return v;
  }
}

export const settingsRoutes: Route[] = [
  {
    method: "PATCH",
    path: "/settings",
    handler({ server, params, user }) {
      const settings = server.state.userSettings.get(user.id) ?? {};
      const changes: Array<[string, unknown]> = [];
      for (const [name, held] of Object.entries(settings)) {
        const value = readSetting(params, name, held);
        if (value !== undefined && value !== held) changes.push([name, value]);
      }
      // All checked before any is applied: a bad value changes nothing.
      for (const [name, value] of changes) settings[name] = value;
      server.state.userSettings.set(user.id, settings);
      for (const [property, value] of changes) {
        sendToUsers(server, [user.id], "user_settings", { type: "user_settings", op: "update", property, value });
      }
      return {};
    },
  },
];
