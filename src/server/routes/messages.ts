// GET /messages: a window of messages around an anchor, filtered by a narrow,
// or an explicit list of message ids.

import { LIMITS, type ServerContext } from "../context.js";
import { badRequest, incompatibleParameters, missingArgument } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import { escapeHtml } from "../markdown-html.js";
import { compileNarrow, parseNarrow, type CompiledNarrow } from "../narrow.js";
import { parseIntText } from "../params.js";
import type { Message, User } from "../state.js";
import { clientTopic, messageToWire, type MessageView } from "../wire.js";

/** The anchor reported for "newest" (larger than any message id), as the public API does. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

type Anchor = { kind: "id"; id: number } | { kind: "newest" | "oldest" | "first_unread" | "date" };

function parseAnchor(raw: string): Anchor {
  const text = raw.trim().replace(/^"(.*)"$/, "$1");
  if (text === "newest" || text === "oldest" || text === "first_unread" || text === "date") return { kind: text };
  try {
    return { kind: "id", id: parseIntText("anchor", text) };
  } catch {
    throw badRequest(`Invalid anchor`);
  }
}

/** ISO 8601 date or datetime; date-only means midnight UTC; no zone means UTC. */
function parseAnchorDate(raw: string): number {
  let text = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += "T00:00:00Z";
  else if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) text += "Z";
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw badRequest("Invalid anchor_date");
  return Math.floor(ms / 1000);
}

function highlight(html: string, words: string[]): string {
  if (words.length === 0) return html;
  const pattern = new RegExp(`(${words.map((w) => escapeHtml(w).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "gi");
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith("<") ? part : part.replace(pattern, '<span class="highlight">$1</span>')))
    .join("");
}

function renderList(ctx: RequestContext, list: Message[], view: MessageView, narrow: CompiledNarrow): unknown[] {
  const { server, user } = ctx;
  return list.map((m) => {
    const wire = messageToWire(server, m, view);
    wire["flags"] = server.state.viewFlags(user.id, m.id);
    if (narrow.searchWords.length > 0) {
      wire["match_content"] = highlight(server.markdown.render(m.content), narrow.searchWords);
      wire["match_subject"] = highlight(escapeHtml(clientTopic(server, m.topic, view.allowEmptyTopicName)), narrow.searchWords);
    }
    return wire;
  });
}

/** Messages the user may see in this narrow, by ascending id. */
export function matchingMessages(server: ServerContext, user: User, narrow: CompiledNarrow): Message[] {
  const { state } = server;
  return state.messages.filter((m) => {
    const visible = narrow.channelScoped ? state.canReadMessage(user, m) : state.flags(user.id, m.id) !== undefined;
    return visible && narrow.matches(m);
  });
}

function getMessages(ctx: RequestContext): Record<string, unknown> {
  const { server, params, user } = ctx;
  const view: MessageView = {
    applyMarkdown: params.bool("apply_markdown") ?? true,
    clientGravatar: params.bool("client_gravatar") ?? true,
    allowEmptyTopicName: params.bool("allow_empty_topic_name") ?? false,
  };
  const narrow = compileNarrow(parseNarrow(params.json("narrow")), server.state, user);
  const messageIds = params.intList("message_ids");
  const rangeParams = ["anchor", "include_anchor", "use_first_unread_anchor", "num_before", "num_after"];

  if (messageIds !== undefined) {
    const clash = rangeParams.filter((p) => params.has(p));
    if (clash.length > 0) throw incompatibleParameters(["message_ids", ...clash]);
    const wanted = new Set(messageIds);
    const list = server.state.messages.filter(
      (m) => wanted.has(m.id) && server.state.canReadMessage(user, m) && narrow.matches(m),
    );
    return {
      messages: renderList(ctx, list, view, narrow),
      found_anchor: false,
      found_oldest: false,
      found_newest: false,
      history_limited: false,
    };
  }

  const useFirstUnread = params.bool("use_first_unread_anchor") ?? false;
  const anchorText = params.str("anchor");
  if (useFirstUnread && anchorText !== undefined) throw incompatibleParameters(["anchor", "use_first_unread_anchor"]);
  if (anchorText === undefined && !useFirstUnread) throw missingArgument("anchor");
  const anchor: Anchor = useFirstUnread ? { kind: "first_unread" } : parseAnchor(anchorText!);
  const numBefore = params.reqInt("num_before");
  const numAfter = params.reqInt("num_after");
  if (numBefore < 0 || numAfter < 0) throw badRequest("num_before and num_after must be non-negative");
  if (numBefore + numAfter > LIMITS.maxMessagesPerFetch) {
    throw badRequest(`Too many messages requested (maximum ${LIMITS.maxMessagesPerFetch}).`);
  }
  const includeAnchor = params.bool("include_anchor") ?? true;
  const anchorDate = params.str("anchor_date");

  const all = matchingMessages(server, user, narrow);
  let anchorId: number;
  switch (anchor.kind) {
    case "id":
      anchorId = anchor.id;
      break;
    case "oldest":
      anchorId = 0;
      break;
    case "newest":
      anchorId = LARGER_THAN_MAX_MESSAGE_ID;
      break;
    case "first_unread": {
      const first = all.find((m) => {
        const flags = server.state.flags(user.id, m.id);
        return flags !== undefined && !flags.has("read");
      });
      anchorId = first?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
      break;
    }
    case "date": {
      if (anchorDate === undefined) throw missingArgument("anchor_date");
      const ts = parseAnchorDate(anchorDate);
      anchorId = all.find((m) => m.timestamp >= ts)?.id ?? LARGER_THAN_MAX_MESSAGE_ID;
      break;
    }
  }

  const before = all.filter((m) => m.id < anchorId);
  const after = all.filter((m) => m.id > anchorId);
  const atAnchor = includeAnchor ? all.find((m) => m.id === anchorId) : undefined;
  const list = [
    ...before.slice(Math.max(0, before.length - numBefore)),
    ...(atAnchor ? [atAnchor] : []),
    ...after.slice(0, numAfter),
  ];
  return {
    anchor: anchorId,
    found_anchor: atAnchor !== undefined,
    found_oldest: before.length <= numBefore,
    found_newest: after.length <= numAfter,
    history_limited: false,
    messages: renderList(ctx, list, view, narrow),
  };
}

export const messageRoutes: Route[] = [{ method: "GET", path: "/messages", handler: getMessages }];
