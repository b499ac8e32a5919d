/**
 * The unread record checked by hand (the register's and the local cache's) reads as the schema
 * reads it (defaults, nulls, fields passed through) and refuses what the schema refuses; in the
 * register, what the hand check refuses goes through the schema, which reads what only its
 * leniency takes and otherwise says where the record is wrong.
 */
import { describe, expect, it } from "vitest";
import { registerResponseSchema, unreadMsgsSchema } from "../../src/api/schemas/register.js";
import { unreadsByHand } from "../../src/api/schemas/unreads-by-hand.js";

const records: unknown[] = [
  {},
  { count: 3, streams: [{ stream_id: 10, topic: "lunch", unread_message_ids: [1, 2] }], pms: [{ other_user_id: 7, unread_message_ids: [3] }], huddles: [], mentions: [2], old_unreads_missing: true },
  { count: 1, pms: [{ sender_id: 7, other_user_id: null, unread_message_ids: [4] }], huddles: [{ user_ids_string: "1,7,9", unread_message_ids: [5], extra: "kept" }], newer_field: { a: 1 } },
];

const bad: Array<{ record: unknown; path: Array<string | number> }> = [
  { record: [1, 2], path: [] },
  { record: { count: 1.5 }, path: ["count"] },
  { record: { streams: [{ stream_id: 10, topic: "lunch", unread_message_ids: [1, "2"] }] }, path: ["streams", 0, "unread_message_ids"] },
  { record: { streams: [{ stream_id: "10", topic: "lunch", unread_message_ids: [] }] }, path: ["streams", 0, "stream_id"] },
  { record: { streams: "all" }, path: ["streams"] },
  { record: { huddles: [{ unread_message_ids: [1] }] }, path: ["huddles", 0, "user_ids_string"] },
  { record: { pms: [null] }, path: ["pms", 0] },
  { record: { mentions: [1.5] }, path: ["mentions"] },
  { record: { mentions: [2 ** 60] }, path: ["mentions"] },
  { record: { old_unreads_missing: "yes" }, path: ["old_unreads_missing"] },
];

const register = (unread_msgs: unknown) => registerResponseSchema.safeParse({ result: "success", msg: "", queue_id: "q", last_event_id: -1, unread_msgs });

describe("the unread record checked by hand", () => {
  it("reads a record as the schema does", () => {
    for (const r of records) expect(unreadsByHand(r)).toEqual(unreadMsgsSchema.parse(r));
    expect(unreadsByHand(undefined)).toBeUndefined();
  });

  it("refuses what the schema refuses", () => {
    for (const { record } of bad) {
      expect(unreadMsgsSchema.safeParse(record).success).toBe(false);
      expect(() => unreadsByHand(record)).toThrow(TypeError);
    }
  });
});

describe("the register's unread record", () => {
  it("is read as the schema reads it, absent included", () => {
    for (const r of records) expect(register(r).data?.unread_msgs).toEqual(unreadMsgsSchema.parse(r));
    expect(register(undefined).success).toBe(true);
    expect(register(undefined).data?.unread_msgs).toBeUndefined();
    const without = registerResponseSchema.safeParse({ result: "success", msg: "", queue_id: "q", last_event_id: -1 });
    expect(without.success).toBe(true);
    expect(without.data?.unread_msgs).toBeUndefined();
    expect(register(null).data?.unread_msgs).toBeUndefined();
  });

  it("takes what only the schema's leniency takes (a null where a list may be absent)", () => {
    const lenient = { mentions: null, streams: [{ stream_id: 10, topic: "lunch", unread_message_ids: [1] }] };
    expect(() => unreadsByHand(lenient)).toThrow(TypeError);
    expect(register(lenient).data?.unread_msgs).toEqual(unreadMsgsSchema.parse(lenient));
    expect(register(lenient).data?.unread_msgs?.mentions).toEqual([]);
  });

  it("is refused where the schema refuses it, with the schema's path to what is wrong", () => {
    for (const { record, path } of bad) {
      const r = register(record);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(["unread_msgs", ...path]);
    }
    expect(register({ mentions: [1, "2"] }).error?.issues[0]?.message).toBe("expected a list of integer ids");
  });
});
