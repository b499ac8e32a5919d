// Unauthenticated endpoints: exchanging a password for an API key, and the
// public server settings a client reads before logging in.

import { SERVER_VERSION } from "../context.js";
import { authenticationFailed, userDeactivated } from "../errors.js";
import type { Route } from "../http.js";
import { webPublicAccessEnabled } from "../spectators.js";

export const authRoutes: Route[] = [
  {
    method: "POST",
    path: "/fetch_api_key",
    auth: false,
    handler({ server, params }) {
      const username = params.reqStr("username");
      const password = params.reqStr("password");
      const user = server.state.userByEmail(username);
      if (!user || user.password === "" || user.password !== password) throw authenticationFailed();
      if (!user.isActive) throw userDeactivated();
      return { api_key: user.apiKey, email: user.email, user_id: user.id };
    },
  },
  {
    method: "GET",
    path: "/server_settings",
    auth: false,
    handler({ server }) {
      const realm = server.state.realm;
      return {
        authentication_methods: {
          password: true, dev: false, email: true, ldap: false, remoteuser: false, github: false, azuread: false,
          gitlab: false, apple: false, google: false, saml: false, "openid connect": false,
        },
        external_authentication_methods: [],
        svc_feature_level: server.options.featureLevel,
        zulip_version: SERVER_VERSION,
        zulip_merge_base: SERVER_VERSION,
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        realm_url: server.realmUrl,
        realm_uri: server.realmUrl,
        realm_name: realm.name,
        realm_icon: "",
        realm_description: server.markdown.render(realm.description),
        realm_web_public_access_enabled: webPublicAccessEnabled(server.state),
      };
    },
  },
];
