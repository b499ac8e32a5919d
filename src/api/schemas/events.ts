/**
 * Events from `GET /events`. Each known type has a tolerant schema; an event
 * of a type (or op) we do not know becomes `{type: "unknown"}` with its raw
 * JSON, so a newer server never crashes the client.
 *
 * Parsing runs on every event, so it dispatches through a table: by `type`,
 * then by `op` where the variants differ; one small schema is checked per
 * event, never a union of all of them.
 */
import * as z from "zod";
import { tolerantObject } from "./tolerant.js";
import { successBase } from "./common.js";
import { DeferredArray } from "../json-sections.js";
import { channelEventTable } from "./events-channels.js";
import {
  deleteMessageEvent,
  heartbeatEvent,
  messageEvent,
  messageEventTable,
  reactionAddEvent,
  reactionRemoveEvent,
  submessageEvent,
  typingStartEvent,
  typingStopEvent,
  updateMessageEvent,
  updateMessageFlagsEvent,
} from "./events-messages.js";
import { settingsEventTable } from "./events-settings.js";
import { scheduledEventTable } from "./scheduled.js";
import { userEventTable } from "./events-users.js";
import type { KnownEventType } from "../register-request.js";
import type {
  subscriptionAddEvent,
  subscriptionPeerAddEvent,
  subscriptionPeerRemoveEvent,
  subscriptionRemoveEvent,
  subscriptionUpdateEvent,
} from "./events-channels.js";
import type { realmUserAddEvent, realmUserRemoveEvent, realmUserUpdateEvent } from "./events-users.js";

export * from "./events-messages.js";
export * from "./events-channels.js";
export * from "./events-users.js";
export * from "./events-settings.js";
export { remindersAddEvent, remindersRemoveEvent, scheduledMessagesAddEvent, scheduledMessagesRemoveEvent, scheduledMessagesUpdateEvent } from "./scheduled.js";

interface OpTable {
  readonly ops: Readonly<Record<string, z.ZodType>>;
}
type Entry = z.ZodType | OpTable;

const knownEvents = {
  ...messageEventTable,
  ...channelEventTable,
  ...userEventTable,
  ...settingsEventTable,
  ...scheduledEventTable,
} as const satisfies Record<KnownEventType, Entry>;
// And every type with a schema is in the list (the list is what the client asks the server for).
type Unlisted = Exclude<keyof typeof knownEvents, KnownEventType>;
true satisfies [Unlisted] extends [never] ? true : Unlisted;

const table: ReadonlyMap<string, Entry> = new Map(Object.entries(knownEvents));

export { KNOWN_EVENT_TYPES, type KnownEventType } from "../register-request.js";

type EventOf<E> = E extends { ops: infer O } ? { [K in keyof O]: z.infer<O[K] & z.ZodType> }[keyof O] : z.infer<E & z.ZodType>;
/** Every known event, discriminated by `type` (then by `op`). */
export type KnownEvent = { [K in KnownEventType]: EventOf<(typeof knownEvents)[K]> }[KnownEventType];

export type HeartbeatEvent = z.infer<typeof heartbeatEvent>;
export type MessageEvent = z.infer<typeof messageEvent>;
export type UpdateMessageEvent = z.infer<typeof updateMessageEvent>;
export type DeleteMessageEvent = z.infer<typeof deleteMessageEvent>;
export type ReactionEvent = z.infer<typeof reactionAddEvent> | z.infer<typeof reactionRemoveEvent>;
export type UpdateMessageFlagsEvent = z.infer<typeof updateMessageFlagsEvent>;
export type SubscriptionEvent =
  | z.infer<typeof subscriptionAddEvent>
  | z.infer<typeof subscriptionRemoveEvent>
  | z.infer<typeof subscriptionUpdateEvent>
  | z.infer<typeof subscriptionPeerAddEvent>
  | z.infer<typeof subscriptionPeerRemoveEvent>;
export type RealmUserEvent =
  | z.infer<typeof realmUserAddEvent>
  | z.infer<typeof realmUserUpdateEvent>
  | z.infer<typeof realmUserRemoveEvent>;
export type SubmessageEvent = z.infer<typeof submessageEvent>;
export type TypingEvent = z.infer<typeof typingStartEvent> | z.infer<typeof typingStopEvent>;
/** The known event of one `type`, e.g. `EventOfType<"drafts">`. */
export type EventOfType<T extends KnownEventType> = Extract<KnownEvent, { type: T }>;

export interface UnknownEvent {
  type: "unknown";
  id: number;
  raw: Record<string, unknown>;
}
export type ServerEvent = KnownEvent | UnknownEvent;

/** Why one event could not be read. Carries the event so the caller can report it. */
export class MalformedEventError extends Error {
  constructor(readonly raw: unknown, readonly issues: z.core.$ZodIssue[]) {
    const first = issues[0];
    super(`malformed ${String((raw as { type?: unknown })?.type)} event: ${first ? `${first.path.join(".")}: ${first.message}` : "?"}`);
    this.name = "MalformedEventError";
  }
}

/**
 * Event types whose loss leaves nothing in the store in doubt (a typing notice, a presence
 * ping): one in a shape this client cannot read is ignored like an unknown event, never a
 * reason to rebuild the store.
 */
const PASSING_TYPES: ReadonlySet<string> = new Set(["heartbeat", "typing", "typing_edit_message", "presence"]);

/**
 * Reads one event. Unknown types and ops pass as `unknown`, and so do passing types
 * (PASSING_TYPES) in a shape we cannot read; other malformed known events throw
 * MalformedEventError.
 */
export function parseEvent(raw: unknown): ServerEvent {
  const obj = (raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const type = obj.type;
  const eventId = typeof obj.id === "number" ? obj.id : -1;
  const entry = typeof type === "string" ? table.get(type) : undefined;
  if (!entry) return { type: "unknown", id: eventId, raw: obj };
  const passing = PASSING_TYPES.has(type as string);
  let schema: z.ZodType;
  if ("ops" in entry) {
    const op = obj.op;
    if (typeof op !== "string") {
      if (passing) return { type: "unknown", id: eventId, raw: obj };
      throw new MalformedEventError(raw, [{ code: "custom", path: ["op"], message: "missing op", input: op }]);
    }
    const forOp = Object.hasOwn(entry.ops, op) ? entry.ops[op] : undefined;
    if (!forOp) return { type: "unknown", id: eventId, raw: obj };
    schema = forOp;
  } else {
    schema = entry;
  }
  const parsed = schema.safeParse(obj);
  if (parsed.success) return parsed.data as ServerEvent;
  // A new `op` value of a type with one schema is an unknown event, not a malformed one.
  if (passing || parsed.error.issues.some((i) => i.path.length === 1 && i.path[0] === "op" && i.code === "invalid_value")) {
    return { type: "unknown", id: eventId, raw: obj };
  }
  throw new MalformedEventError(raw, parsed.error.issues);
}

export const eventsResponseSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  events: z.array(z.unknown()),
  queue_id: z.string().optional(),
}));

/** The same, as the client reads it: a large answer's events stay in its bytes until read (json-sections.ts). */
export const eventsAnswerSchema = z.lazy(() => tolerantObject({
  ...successBase(),
  events: z.union([z.array(z.unknown()), z.instanceof(DeferredArray)]),
  queue_id: z.string().optional(),
}));

