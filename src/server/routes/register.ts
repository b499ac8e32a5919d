// POST /register: creates an event queue and returns the initial state.

import { LIMITS, SERVER_VERSION } from "../context.js";
import type { ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import type { Params } from "../params.js";
import { newSubscription, SUBSCRIPTION_COLORS } from "../seed/common.js";
import { requireSpectatorAccess, SPECTATOR, webPublicChannels } from "../spectators.js";
import type { Channel } from "../state.js";
import { subscriptionToWire } from "../wire.js";
import type { Route } from "../http.js";
import { buildInitialState } from "../initial-state.js";
import { checkQueueNarrow, compileNarrow, parseNarrow } from "../narrow.js";

/** An idle queue lives at most a week. */
const MAX_IDLE_QUEUE_TIMEOUT_SECS = 7 * 86400;

function parseCapabilities(raw: unknown): Record<string, boolean> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw badRequest("client_capabilities is not a dict");
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) out[k] = v === true;
  return out;
}

/**
 * Register without credentials (a spectator of web-public channels), where the
 * organization allows it: no event queue and no personal data; the
 * organization, its web-public channels (as subscriptions, as the public
 * service gives them, so that a spectator's client lists them as it lists a
 * user's) and the folders holding them. `client_gravatar` and
 * `include_subscribers` cannot be true here.
 */
function spectatorRegister(server: ServerContext, params: Params): Record<string, unknown> {
  requireSpectatorAccess(server.state);
  if (params.bool("client_gravatar") === true) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
  const subs = (params.str("include_subscribers") ?? "false").trim().replace(/^"|"$/g, "");
  if (subs === "true") throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  params.accept(
    "apply_markdown", "slim_presence", "all_public_streams", "presence_history_limit_days", "event_types", "fetch_event_types",
    "narrow", "client_capabilities", "idle_queue_timeout", "user_client", "include_custom_profile_fields",
  );
  const realm = server.state.realm;
  const webPublic = webPublicChannels(server.state);
  const folderIds = new Set(webPublic.map((c) => c.folderId));
  return {
    queue_id: null,
    last_event_id: -1,
    svc_feature_level: server.options.featureLevel,
    zulip_version: SERVER_VERSION,
    zulip_merge_base: SERVER_VERSION,
    realm_name: realm.name,
    realm_url: server.realmUrl,
    realm_uri: server.realmUrl,
    realm_empty_topic_display_name: realm.emptyTopicDisplayName,
    realm_enable_spectator_access: true,
    max_stream_name_length: LIMITS.maxStreamNameLength,
    max_stream_description_length: LIMITS.maxStreamDescriptionLength,
    max_topic_length: LIMITS.maxTopicLength,
    max_message_length: LIMITS.maxMessageLength,
    subscriptions: webPublic.map((c, i) => spectatorSubscription(server, c, i)),
    unsubscribed: [],
    never_subscribed: [],
    // The spec: spectators see only the folders holding web-public channels, and of each its description.
    channel_folders: [...server.state.folders.values()]
      .filter((f) => folderIds.has(f.id) && !f.isArchived)
      .sort((a, b) => a.order - b.order || a.id - b.id)
      .map((f) => ({ id: f.id, name: f.name, description: f.description, rendered_description: server.markdown.render(f.description), order: f.order, is_archived: false })),
    realm_users: [],
  };
}

/** A web-public channel as a spectator's subscription: the channel with the defaults of a new subscription. */
function spectatorSubscription(server: ServerContext, channel: Channel, index: number): Record<string, unknown> {
  return subscriptionToWire(server, channel, newSubscription(SPECTATOR.id, channel.id, SUBSCRIPTION_COLORS[index % SUBSCRIPTION_COLORS.length]!), undefined);
}

export const registerRoutes: Route[] = [
  {
    method: "POST",
    path: "/register",
    auth: "optional",
    handler({ server, params, user }) {
      if (!user) return spectatorRegister(server, params);
      const applyMarkdown = params.bool("apply_markdown") ?? false;
      const clientGravatar = params.bool("client_gravatar") ?? true;
      const slimPresence = params.bool("slim_presence") ?? false;
      const allPublicStreams = params.bool("all_public_streams") ?? false;
      params.int("presence_history_limit_days");
      const rawSubs = (params.str("include_subscribers") ?? "false").trim().replace(/^"|"$/g, "");
      if (rawSubs !== "true" && rawSubs !== "false" && rawSubs !== "partial") {
        throw badRequest("Invalid include_subscribers");
      }
      const eventTypes = params.strList("event_types");
      const fetchTypes = params.strList("fetch_event_types") ?? eventTypes;
      const narrow = parseNarrow(params.json("narrow"));
      checkQueueNarrow(narrow);
      compileNarrow(narrow, server.state, user); // validate operands now
      const capabilities = parseCapabilities(params.json("client_capabilities"));
      // Seconds (feature level 481); without it the server-wide default applies.
      const idleSecs = params.int("idle_queue_timeout");
      if (idleSecs !== undefined && (idleSecs < 1 || idleSecs > MAX_IDLE_QUEUE_TIMEOUT_SECS)) {
        throw badRequest(`idle_queue_timeout must be between 1 and ${MAX_IDLE_QUEUE_TIMEOUT_SECS} seconds`);
      }
      params.accept("user_client", "include_custom_profile_fields");

      const idleMs = idleSecs !== undefined ? idleSecs * 1000 : server.options.queueIdleMs;
      const queue = server.queues.create({
        userId: user.id,
        eventTypes: eventTypes ? new Set(eventTypes) : null,
        narrow,
        applyMarkdown,
        clientGravatar,
        allPublicStreams,
        capabilities,
        idleMs,
      });
      const state = buildInitialState(server, {
        user,
        fetchTypes: fetchTypes ? new Set(fetchTypes) : null,
        clientGravatar,
        includeSubscribers: rawSubs,
        slimPresence,
        capabilities,
      });
      return {
        queue_id: queue.id,
        last_event_id: queue.lastEventId,
        svc_feature_level: server.options.featureLevel,
        zulip_version: SERVER_VERSION,
        zulip_merge_base: SERVER_VERSION,
        idle_queue_timeout_secs: Math.max(1, Math.ceil(idleMs / 1000)),
        event_queue_longpoll_timeout_seconds: server.options.longpollTimeoutSecs,
        server_presence_ping_interval_seconds: 60,
        server_presence_offline_threshold_seconds: 140,
        server_typing_started_expiry_period_milliseconds: 15000,
        server_typing_stopped_wait_period_milliseconds: 5000,
        server_typing_started_wait_period_milliseconds: 10000,
        ...state,
      };
    },
  },
];
