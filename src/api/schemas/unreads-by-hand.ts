/**
 * The unread record (the register's, and the local cache's copy of it), checked by hand: on a
 * big organization it holds tens of thousands of message ids, and checking them one by one
 * through the schema was the largest part of checking the register (about half of it on a cold
 * start) and of drawing from the cache. The result has the shape the schema gives (defaults
 * filled in); what is not that shape throws, and the register's field then lets the schema
 * say where (register.ts).
 */
import type { UnreadMsgs } from "./register.js";

/** An integer as the schema's `int()` takes it: a safe one. */
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function ids(v: unknown): number[] {
  if (!Array.isArray(v)) throw new TypeError("not a list of ids");
  for (const id of v) if (!isInt(id)) throw new TypeError("not an id");
  return v as number[];
}

function optionalInt(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isInt(v)) throw new TypeError("not an integer");
  return v;
}

function records<T>(v: unknown, each: (r: Record<string, unknown>) => T): T[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new TypeError("not a list");
  return v.map((r) => {
    if (!isRecord(r)) throw new TypeError("not a record");
    return each(r);
  });
}

/** The unread record as the register's schema would read it; throws a TypeError when it is not one. */
export function unreadsByHand(raw: unknown): UnreadMsgs | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) throw new TypeError("not a record");
  if (raw.old_unreads_missing !== undefined && typeof raw.old_unreads_missing !== "boolean") throw new TypeError("not a flag");
  return {
    ...raw,
    count: optionalInt(raw.count) ?? 0,
    pms: records(raw.pms, (r) => ({
      ...r,
      other_user_id: optionalInt(r.other_user_id),
      sender_id: optionalInt(r.sender_id),
      unread_message_ids: ids(r.unread_message_ids),
    })),
    streams: records(raw.streams, (r) => {
      if (!isInt(r.stream_id) || typeof r.topic !== "string") throw new TypeError("not a channel's unreads");
      return { ...r, stream_id: r.stream_id, topic: r.topic, unread_message_ids: ids(r.unread_message_ids) };
    }),
    huddles: records(raw.huddles, (r) => {
      if (typeof r.user_ids_string !== "string") throw new TypeError("not a group's unreads");
      return { ...r, user_ids_string: r.user_ids_string, unread_message_ids: ids(r.unread_message_ids) };
    }),
    mentions: raw.mentions === undefined ? [] : ids(raw.mentions),
    old_unreads_missing: raw.old_unreads_missing ?? false,
  };
}
