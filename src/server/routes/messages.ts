// Reading messages: GET /messages (a window around an anchor, or explicit
// ids), one message, its edit history, matches_narrow, and rendering a draft.
// Editing and deleting live in messages-edit.ts.

import { LIMITS } from "../context.js";
import { badRequest, incompatibleParameters, missingArgument } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { compileNarrow, parseNarrow } from "../narrow.js";
import type { Message } from "../state.js";
import { clientTopic } from "../wire.js";
import { messageEditRoutes } from "./messages-edit.js";
import { accessMessage, messagesToWire, readView, searchFields } from "./messages-view.js";
import { messageWindow, parseAnchor, type Anchor } from "./messages-window.js";
import { checkSpectatorNarrow, requireSpectatorAccess, SPECTATOR } from "../spectators.js";

/** Parameters that describe a range; none may accompany message_ids. */
const RANGE_PARAMS = ["num_before", "num_after", "anchor", "message_ids", "include_anchor", "use_first_unread_anchor"];

function getMessages(ctx: RequestContext): Record<string, unknown> {
  const { server, params } = ctx;
  const view = readView(params);
  const terms = parseNarrow(params.json("narrow"));
  // Without credentials: a spectator, held to web-public channels (spectators.ts).
  const spectator = !ctx.user;
  if (spectator) {
    checkSpectatorNarrow(server.state, terms);
    if (params.bool("client_gravatar") === true) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    view.clientGravatar = false;
  }
  const user = ctx.user ?? SPECTATOR;
  const narrow = compileNarrow(terms, server.state, user);
  const messageIds = params.intList("message_ids");

  if (messageIds !== undefined) {
    if (RANGE_PARAMS.some((p) => p !== "message_ids" && params.has(p))) throw incompatibleParameters(RANGE_PARAMS);
    if (messageIds.length > LIMITS.maxMessagesPerFetch) {
      throw badRequest(`Too many messages requested (maximum ${LIMITS.maxMessagesPerFetch}).`);
    }
    const { state } = server;
    const list = [...new Set(messageIds)]
      .map((id) => state.messagesById.get(id))
      .filter((m): m is Message => m !== undefined && state.canReadMessage(user, m) && narrow.matches(m))
      .sort((a, b) => a.id - b.id);
    return {
      messages: messagesToWire(server, user, list, view, narrow.searches),
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    };
  }

  // The deprecated flag wins over any anchor sent with it (older clients send
  // both, with a placeholder anchor), like the public service.
  const useFirstUnread = !spectator && (params.bool("use_first_unread_anchor") ?? false);
  const anchorText = params.str("anchor");
  if (anchorText === undefined && !useFirstUnread) throw missingArgument("anchor");
  const anchor: Anchor = useFirstUnread ? { kind: "first_unread" } : parseAnchor(anchorText!, server.options.featureLevel);
  const numBefore = params.reqInt("num_before");
  const numAfter = params.reqInt("num_after");
  if (numBefore < 0 || numAfter < 0) throw badRequest("num_before and num_after must not be negative");
  if (numBefore + numAfter > LIMITS.maxMessagesPerFetch) {
    throw badRequest(`Too many messages requested (maximum ${LIMITS.maxMessagesPerFetch}).`);
  }
  const includeAnchor = params.bool("include_anchor") ?? true;
  if (numBefore > 0 && numAfter > 0 && !includeAnchor) {
    throw badRequest("The anchor can only be excluded at an end of the range");
  }
  const window = messageWindow(server, user, narrow, {
    anchor,
    anchorDate: params.str("anchor_date"),
    includeAnchor,
    numBefore,
    numAfter,
  });
  return {
    anchor: window.anchor,
    found_anchor: window.foundAnchor,
    found_oldest: window.foundOldest,
    found_newest: window.foundNewest,
    // No plan limits here: the whole history is always available.
    history_limited: false,
    messages: messagesToWire(server, user, window.messages, view, narrow.searches),
  };
}

function matchesNarrow(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const ids = params.intList("msg_ids");
  if (ids === undefined) throw missingArgument("msg_ids");
  const narrow = compileNarrow(parseNarrow(params.reqJson("narrow")), server.state, user);
  const mine = server.state.userMessages.get(user.id);
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    const m = server.state.messagesById.get(id);
    // Like the public service, only messages the user actually received are checked.
    if (!m || !mine?.has(id) || !narrow.matches(m)) continue;
    out[String(id)] = searchFields(server, m, narrow.searches);
  }
  return { messages: out };
}

/** Snapshots of the message after each edit, oldest (the original) first. */
function editHistory(ctx: RequestContext, m: Message, allowEmpty: boolean): Record<string, unknown>[] {
  const { server } = ctx;
  const topicOut = (t: string) => (m.type === "stream" ? clientTopic(server, t, allowEmpty) : t);
  const render = (c: string) => server.markdown.render(c);
  let content = m.content;
  let topic = m.topic;
  let stream = m.channelId;
  const snapshots: Record<string, unknown>[] = [];
  for (const e of m.editHistory ?? []) {
    const snap: Record<string, unknown> = {
      user_id: e.user_id,
      timestamp: e.timestamp,
      topic: topicOut(topic),
      content,
      rendered_content: render(content),
    };
    if (e.prev_topic !== undefined) {
      snap["prev_topic"] = topicOut(e.prev_topic);
      topic = e.prev_topic;
    }
    if (e.prev_stream !== undefined) {
      snap["stream"] = stream;
      snap["prev_stream"] = e.prev_stream;
      stream = e.prev_stream;
    }
    if (e.prev_content !== undefined) {
      snap["prev_content"] = e.prev_content;
      snap["prev_rendered_content"] = e.prev_rendered_content ?? render(e.prev_content);
      content = e.prev_content;
    }
    snapshots.push(snap);
  }
  snapshots.push({ user_id: m.senderId, timestamp: m.timestamp, topic: topicOut(topic), content, rendered_content: render(content) });
  return snapshots.reverse();
}

export const messageRoutes: Route[] = [
  { method: "GET", path: "/messages", auth: "optional", handler: getMessages },
  { method: "GET", path: "/messages/matches_narrow", handler: matchesNarrow },
  {
    method: "POST",
    path: "/messages/render",
    handler({ server, params }) {
      const content = params.reqStr("content");
      if (content.trim() === "") throw badRequest("Message must not be empty");
      if ([...content].length > LIMITS.maxMessageLength) {
        throw badRequest(`Message is too long (limit: ${LIMITS.maxMessageLength} characters)`);
      }
      return { rendered: server.markdown.render(content) };
    },
  },
  {
    method: "GET",
    path: "/messages/:message_id",
    auth: "optional",
    handler(ctx) {
      const { server, params, path } = ctx;
      const view = readView(params);
      if (!ctx.user) requireSpectatorAccess(server.state);
      const user = ctx.user ?? SPECTATOR;
      const m = accessMessage(server, user, path["message_id"]);
      const [message] = messagesToWire(server, user, [m], view);
      return { raw_content: m.content, message };
    },
  },
  {
    method: "GET",
    path: "/messages/:message_id/history",
    handler(ctx) {
      const { server, params, user, path } = ctx;
      const allowEmpty = params.bool("allow_empty_topic_name") ?? false;
      const m = accessMessage(server, user, path["message_id"]);
      return { message_history: editHistory(ctx, m, allowEmpty) };
    },
  },
  ...messageEditRoutes,
];
