// Shared pieces of the message routes: reading the per-request view options,
// access to one message, and message lists in wire form with the viewer's
// flags and search highlights.

import type { ServerContext } from "../context.js";
import { badRequest } from "../errors.js";
import { escapeHtml } from "../escape-html.js";
import { highlightHtml, type SearchQuery } from "../narrow.js";
import type { Params } from "../params.js";
import type { Message, User } from "../state.js";
import { messageToWire, type MessageView } from "../wire.js";

export function readView(params: Params, applyMarkdownDefault = true): MessageView {
  return {
    applyMarkdown: params.bool("apply_markdown") ?? applyMarkdownDefault,
    clientGravatar: params.bool("client_gravatar") ?? true,
    allowEmptyTopicName: params.bool("allow_empty_topic_name") ?? false,
  };
}

export function invalidMessage(): Error {
  return badRequest("Invalid message(s)");
}

/** The message with that id (path text) if the user may read it, else "Invalid message(s)". */
export function accessMessage(server: ServerContext, user: User, idText: string | undefined): Message {
  const id = /^\d+$/.test(idText ?? "") ? Number(idText) : NaN;
  const message = server.state.messagesById.get(id);
  if (!message || !server.state.canReadMessage(user, message)) throw invalidMessage();
  return message;
}

/** match_content and match_subject: rendered HTML and the escaped topic, with highlights. */
export function searchFields(server: ServerContext, m: Message, searches: SearchQuery[]): { match_content: string; match_subject: string } {
  return {
    match_content: highlightHtml(server.markdown.render(m.content), searches),
    match_subject: highlightHtml(escapeHtml(m.topic), searches),
  };
}

export function messagesToWire(
  server: ServerContext,
  user: User,
  list: readonly Message[],
  view: MessageView,
  searches: SearchQuery[] = [],
): Record<string, unknown>[] {
  return list.map((m) => {
    const wire = messageToWire(server, m, view);
    wire["flags"] = server.state.viewFlags(user.id, m.id);
    if (searches.length > 0) Object.assign(wire, searchFields(server, m, searches));
    return wire;
  });
}
