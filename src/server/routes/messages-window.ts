// Finding a window of messages around an anchor in a narrow: shared by
// GET /messages and POST /messages/flags/narrow. Messages are walked outward
// from the anchor's position in the id-sorted list, so a window costs about
// as much as the distance it has to cover, not the size of the organization.

import { ANCHOR_DATE_LEVEL, FEATURE_LEVEL, type ServerContext } from "../context.js";
import { badRequest, missingArgument } from "../errors.js";
import type { CompiledNarrow } from "../narrow.js";
import { parseIntText } from "../params.js";
import type { Message, User } from "../state.js";

/** The anchor reported for "newest" (larger than any message id), as the public API does. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export type Anchor = { kind: "id"; id: number } | { kind: "newest" | "oldest" | "first_unread" | "date" };

/** `featureLevel`: the level the server answers as; `date` is an invalid anchor before ANCHOR_DATE_LEVEL, as on older servers. */
export function parseAnchor(raw: string, featureLevel = FEATURE_LEVEL): Anchor {
  const text = raw.trim().replace(/^"(.*)"$/, "$1");
  if (text === "date" && featureLevel < ANCHOR_DATE_LEVEL) throw badRequest("Invalid anchor");
  if (text === "newest" || text === "oldest" || text === "first_unread" || text === "date") return { kind: text };
  let id: number;
  try {
    id = parseIntText("anchor", text);
  } catch {
    throw badRequest("Invalid anchor");
  }
  return { kind: "id", id: Math.min(Math.max(id, 0), LARGER_THAN_MAX_MESSAGE_ID) };
}

/** ISO 8601 date or datetime in UTC seconds; date-only means 00:00 UTC; no zone means UTC. */
export function parseAnchorDate(raw: string): number {
  let text = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += "T00:00:00Z";
  else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) text = text.replace(" ", "T") + "Z";
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw badRequest(`Invalid anchor_date: '${raw}' is not an ISO 8601 date or datetime`);
  return Math.floor(ms / 1000);
}

export interface WindowRequest {
  anchor: Anchor;
  /** Required when anchor.kind is "date" (raw parameter text). */
  anchorDate?: string;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
}

export interface MessageWindow {
  anchor: number;
  messages: Message[];
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}

/** Whether `user` sees `m` in this narrow (personal history, or shared history when the narrow allows it). */
export function narrowVisibility(server: ServerContext, user: User, narrow: CompiledNarrow): (m: Message) => boolean {
  const { state } = server;
  const mine = state.userMessages.get(user.id);
  if (narrow.includeHistory) return (m) => state.canReadMessage(user, m) && narrow.matches(m);
  return (m) => mine?.has(m.id) === true && narrow.matches(m);
}

/** Index of the first message with id >= `id` in the id-sorted list. */
export function lowerBound(messages: readonly Message[], id: number): number {
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (messages[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function resolveAnchor(server: ServerContext, user: User, req: WindowRequest, ok: (m: Message) => boolean, narrow: CompiledNarrow): number {
  const { messages } = server.state;
  switch (req.anchor.kind) {
    case "id":
      return req.anchor.id;
    case "oldest":
      return 0;
    case "newest":
      return LARGER_THAN_MAX_MESSAGE_ID;
    case "first_unread": {
      const mine = server.state.userMessages.get(user.id);
      for (const m of messages) {
        const flags = mine?.get(m.id);
        // Like the public service, the first unread message is looked for outside what is muted.
        if (flags && !flags.has("read") && ok(m) && !narrow.mutedForFirstUnread(m)) return m.id;
      }
      return LARGER_THAN_MAX_MESSAGE_ID;
    }
    case "date": {
      if (req.anchorDate === undefined) throw missingArgument("anchor_date");
      const ts = parseAnchorDate(req.anchorDate);
      for (const m of messages) if (m.timestamp >= ts && ok(m)) return m.id;
      return LARGER_THAN_MAX_MESSAGE_ID;
    }
  }
}

export function messageWindow(server: ServerContext, user: User, narrow: CompiledNarrow, req: WindowRequest): MessageWindow {
  const { messages } = server.state;
  const ok = narrowVisibility(server, user, narrow);
  const anchor = resolveAnchor(server, user, req, ok, narrow);
  const at = lowerBound(messages, anchor);
  const anchorMessage = messages[at]?.id === anchor && ok(messages[at]!) ? messages[at] : undefined;

  // One extra in each direction tells whether the range reached the end.
  const before: Message[] = [];
  for (let i = at - 1; i >= 0 && before.length <= req.numBefore; i--) {
    const m = messages[i]!;
    if (ok(m)) before.push(m);
  }
  const after: Message[] = [];
  for (let i = messages[at]?.id === anchor ? at + 1 : at; i < messages.length && after.length <= req.numAfter; i++) {
    const m = messages[i]!;
    if (ok(m)) after.push(m);
  }
  const included = req.includeAnchor ? anchorMessage : undefined;
  return {
    anchor,
    messages: [...before.slice(0, req.numBefore).reverse(), ...(included ? [included] : []), ...after.slice(0, req.numAfter)],
    foundAnchor: included !== undefined,
    foundOldest: before.length <= req.numBefore,
    foundNewest: after.length <= req.numAfter,
  };
}
