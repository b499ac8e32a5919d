/**
 * The cache's unread record, checked by hand, reads as the register's schema
 * reads it (defaults, nulls, fields passed through), and refuses what the
 * schema refuses.
 */
import { expect, it } from "vitest";
import { unreadMsgsSchema } from "../../src/api/schemas/register.js";
import { checkCachedUnreads } from "../../src/sync/cache-unreads.js";

const records: unknown[] = [
  {},
  { count: 3, streams: [{ stream_id: 10, topic: "lunch", unread_message_ids: [1, 2] }], pms: [{ other_user_id: 7, unread_message_ids: [3] }], huddles: [], mentions: [2], old_unreads_missing: true },
  { count: 1, pms: [{ sender_id: 7, other_user_id: null, unread_message_ids: [4] }], huddles: [{ user_ids_string: "1,7,9", unread_message_ids: [5], extra: "kept" }], newer_field: { a: 1 } },
];

it("reads a record as the register's schema does", () => {
  for (const r of records) expect(checkCachedUnreads(r)).toEqual(unreadMsgsSchema.parse(r));
  expect(checkCachedUnreads(undefined)).toBeUndefined();
});

it("refuses what the schema refuses", () => {
  const bad: unknown[] = [
    [1, 2],
    { count: 1.5 },
    { streams: [{ stream_id: 10, topic: "lunch", unread_message_ids: [1, "2"] }] },
    { streams: [{ stream_id: "10", topic: "lunch", unread_message_ids: [] }] },
    { streams: "all" },
    { huddles: [{ unread_message_ids: [1] }] },
    { pms: [null] },
    { mentions: [1.5] },
    { old_unreads_missing: "yes" },
  ];
  for (const r of bad) {
    expect(unreadMsgsSchema.safeParse(r).success).toBe(false);
    expect(() => checkCachedUnreads(r)).toThrow(TypeError);
  }
});
