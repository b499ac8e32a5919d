// POST and DELETE /users/me/apns_device_token: registering an APNs device
// token (deprecated endpoint; the reference server stores it and sends nothing).

import { badRequest } from "../errors.js";
import type { Route } from "../http.js";

/** APNs tokens are hex strings; the public service accepts 1–255 characters. */
function checkToken(raw: string): string {
  const token = raw.trim();
  if (token.length === 0 || token.length > 255) throw badRequest("Empty or invalid length token");
  if (!/^[0-9a-fA-F]+$/.test(token)) throw badRequest("Invalid APNS token");
  return token.toLowerCase();
}

export const pushRoutes: Route[] = [
  {
    method: "POST",
    path: "/users/me/apns_device_token",
    handler({ server, params, user }) {
      const token = checkToken(params.reqStr("token"));
      const appid = params.reqStr("appid").trim();
      if (!/^[A-Za-z0-9.-]+$/.test(appid)) throw badRequest("Invalid app ID");
      const list = server.state.pushDevices.get(user.id) ?? [];
      if (!list.some((d) => d.token === token)) list.push({ kind: "apns", token, appid });
      server.state.pushDevices.set(user.id, list);
      return {};
    },
  },
  {
    method: "DELETE",
    path: "/users/me/apns_device_token",
    handler({ server, params, user }) {
      const token = checkToken(params.reqStr("token"));
      params.accept("appid");
      const list = server.state.pushDevices.get(user.id) ?? [];
      const index = list.findIndex((d) => d.token === token);
      if (index < 0) throw badRequest("Token does not exist");
      list.splice(index, 1);
      return {};
    },
  },
];
