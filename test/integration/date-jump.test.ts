// Jumping to a date against the reference server over HTTP: `anchor=date`
// where the server has it, the id search on a server that answers as an
// older feature level, and the fallback when a server refuses the anchor.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { getServerSettings } from "../../src/api/routes/server-settings.js";
import type { NarrowTerm } from "../../src/api/schemas/common.js";
import { findDateAnchor } from "../../src/sync/date-jump.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

const HOUR = 3_600_000;
const START = Date.parse("2026-02-02T08:00:00Z");
let clock = START;

/** One message an hour in "timeline", with another topic's messages in between (other ids, same times). */
async function seedTimeline(ctx: ServerFixture, count: number): Promise<{ ids: number[]; times: number[]; narrow: NarrowTerm[] }> {
  const lena = ctx.client("lena");
  const ids: number[] = [];
  const times: number[] = [];
  clock = START;
  for (let i = 0; i < count; i++) {
    clock += HOUR;
    times.push(clock);
    ids.push((await sendMessage(lena, { type: "stream", to: "general", topic: "timeline", content: `hour ${i}` })).id);
    if (i % 3 === 0) await sendMessage(lena, { type: "stream", to: "general", topic: "noise", content: `noise ${i}` });
  }
  return { ids, times, narrow: [{ operator: "channel", operand: "general" }, { operator: "topic", operand: "timeline" }] };
}

let current: ServerFixture;
let older: ServerFixture;
let currentLine: Awaited<ReturnType<typeof seedTimeline>>;
let olderLine: Awaited<ReturnType<typeof seedTimeline>>;

beforeAll(async () => {
  current = await withServer({ now: () => clock });
  older = await withServer({ now: () => clock, featureLevel: 372 });
  currentLine = await seedTimeline(current, 40);
  olderLine = await seedTimeline(older, 300);
});

afterAll(async () => {
  await current?.close();
  await older?.close();
});

describe("anchor=date where the server has it", () => {
  it("lands on the first message on or after the moment, in one request, with a window around it", async () => {
    const { ids, times, narrow } = currentLine;
    const level = (await getServerSettings(current.client())).svc_feature_level as number;
    const r = await findDateAnchor(current.client(), { narrow, at: times[17]! - 30 * 60_000, featureLevel: level });
    expect(r).toMatchObject({ messageId: ids[17], via: "anchor_date", requests: 1, exact: true });
    expect(r.window!.messages.map((m) => m.id)).toContain(ids[17]);
    // Exactly on a message's time: that message.
    expect((await findDateAnchor(current.client(), { narrow, at: times[5]!, featureLevel: level })).messageId).toBe(ids[5]);
  });

  it("before the first message: the first; after the last: none (open at the newest)", async () => {
    const { ids, times, narrow } = currentLine;
    expect((await findDateAnchor(current.client(), { narrow, at: START - 86_400_000, featureLevel: 496 })).messageId).toBe(ids[0]);
    expect((await findDateAnchor(current.client(), { narrow, at: times[times.length - 1]! + 1000, featureLevel: 496 })).messageId).toBeUndefined();
  });
});

describe("an older server", () => {
  it("reports its level and refuses anchor=date as an invalid anchor", async () => {
    const c = older.client();
    expect((await getServerSettings(c)).svc_feature_level).toBe(372);
    const err = await getMessages(c, { anchor: "date", anchor_date: "2026-02-03", num_before: 0, num_after: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: "BAD_REQUEST", message: "Invalid anchor" });
  });

  it("is searched by message id with small fetches, landing on the same message, in few requests", async () => {
    const { ids, times, narrow } = olderLine;
    for (const k of [0, 1, 97, 150, 298, 299]) {
      const r = await findDateAnchor(older.client(), { narrow, at: times[k]! - 60_000, featureLevel: 372 });
      expect(r, `message ${k}`).toMatchObject({ messageId: ids[k], via: "search", exact: true });
      expect(r.requests).toBeLessThanOrEqual(12);
    }
    expect((await findDateAnchor(older.client(), { narrow, at: clock + HOUR, featureLevel: 372 })).messageId).toBeUndefined();
  });

  it("falls back to the search when a server refuses the anchor it was expected to have", async () => {
    const { ids, times, narrow } = olderLine;
    const r = await findDateAnchor(older.client(), { narrow, at: times[42]! - 1000, featureLevel: 496 });
    expect(r).toMatchObject({ messageId: ids[42], via: "search" });
  });

  it("stops at its request limit with the closest message found so far", async () => {
    const { ids, times, narrow } = olderLine;
    const r = await findDateAnchor(older.client(), { narrow, at: times[150]! - 60_000, featureLevel: 372, maxRequests: 3, probe: 2 });
    expect(r.requests).toBe(3);
    expect(r.exact).toBe(false);
    expect(ids.indexOf(r.messageId!)).toBeGreaterThanOrEqual(150);
  });
});
