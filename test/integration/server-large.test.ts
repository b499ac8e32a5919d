// The `large` data set: its size, the owner's capped unreads, speed of
// register, and that generation is deterministic.

import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/index.js";
import { MAX_UNREAD_MESSAGES } from "../../src/server/user-history.js";
import { seed, type SeedResult } from "../../src/server/seed/index.js";
import { LARGE } from "../../src/server/seed/large.js";
import { client, start, type Api, type Json } from "./server-test-client.js";

let server: RunningServer;
let owner: Api;
let startMs: number;

beforeAll(async () => {
  const t0 = performance.now();
  server = await start({ data: "large" });
  startMs = performance.now() - t0;
  owner = client(server, server.accounts[0]!, 15_000);
}, 30_000);

/** A digest of every 997th message and the owner's flags on it. */
function sampleHash(result: SeedResult): string {
  const { state, accounts } = result;
  const hash = createHash("sha256");
  for (let i = 0; i < state.messages.length; i += 997) {
    const m = state.messages[i]!;
    const flags = [...(state.flags(accounts[0]!.userId, m.id) ?? [])].sort().join(",");
    hash.update(JSON.stringify([m.id, m.senderId, m.channelId, m.topic, m.content, m.timestamp, m.dmUserIds, m.reactions, flags]));
  }
  hash.update(JSON.stringify(accounts));
  return hash.digest("hex");
}

describe("large data set", () => {
  it("starts in a few seconds with the demo owner's credentials first", async () => {
    expect(startMs).toBeLessThan(10_000);
    expect(server.accounts[0]).toMatchObject({ email: "maya@lighthouse.test", role: "owner", password: "termchat-demo" });
    const demo = await start();
    expect(server.accounts[0]!.apiKey).toBe(demo.accounts[0]!.apiKey);
    await demo.close();
  });

  it("has 20,000 users, 2,000 channels (300 for the owner) and caps the owner's unreads", async () => {
    const t0 = performance.now();
    const res = await owner("POST", "/register", { client_capabilities: { archived_channels: true, empty_topic_name: true } });
    const ms = performance.now() - t0;
    expect(res.status).toBe(200);
    const body = res.body;
    expect(ms).toBeLessThan(5_000);
    expect(body["realm_users"].length + body["realm_non_active_users"].length).toBe(LARGE.users);
    expect(body["subscriptions"]).toHaveLength(LARGE.ownerChannels);
    expect(body["subscriptions"].length + body["unsubscribed"].length + body["never_subscribed"].length).toBe(LARGE.channels);
    const general = body["subscriptions"].find((s: Json) => s.name === "general");
    expect(general.subscriber_count).toBe(LARGE.users);
    const unread = body["unread_msgs"];
    expect(unread.old_unreads_missing).toBe(true);
    const listed = [...unread.streams, ...unread.pms, ...unread.huddles].reduce((n: number, e: Json) => n + e.unread_message_ids.length, 0);
    expect(listed).toBe(MAX_UNREAD_MESSAGES);
    expect(unread.count).toBeLessThanOrEqual(MAX_UNREAD_MESSAGES);
    expect(unread.mentions.length).toBeGreaterThan(0);
    expect(body["max_message_id"]).toBeGreaterThan(200_000);
  });

  it("serves windows, searches and first_unread quickly", async () => {
    for (const params of [
      { anchor: "first_unread", num_before: 50, num_after: 50 },
      { anchor: "newest", num_before: 200, num_after: 0, narrow: [{ operator: "search", operand: "deploy" }] },
      { anchor: "newest", num_before: 100, num_after: 0, narrow: [{ operator: "channels", operand: "public" }, { operator: "is", operand: "resolved" }] },
    ]) {
      const t0 = performance.now();
      const res = await owner("GET", "/messages", params);
      expect(res.status).toBe(200);
      expect(res.body["messages"].length).toBeGreaterThan(0);
      expect(performance.now() - t0).toBeLessThan(2_000);
    }
  });

  it("is generated deterministically, and the server holds the same messages", async () => {
    const a = seed("large", Date.now());
    const b = seed("large", Date.now() + 12_345);
    expect(a.state.messages).toHaveLength(LARGE.messages);
    expect(a.state.users.size).toBe(LARGE.users);
    expect(a.state.channels.size).toBe(LARGE.channels);
    expect(sampleHash(b)).toBe(sampleHash(a));
    const ownerId = a.accounts[0]!.userId;
    const unread = [...a.state.userMessages.get(ownerId)!.values()].filter((f) => !f.has("read")).length;
    expect(unread).toBeGreaterThan(MAX_UNREAD_MESSAGES);
    const sample = a.state.messages.filter((m, i) => i % 4999 === 0 && m.type === "stream").slice(0, 20);
    const res = await owner("GET", "/messages", { message_ids: sample.map((m) => m.id), narrow: [{ operator: "channels", operand: "public" }], apply_markdown: false, allow_empty_topic_name: true });
    const served = new Map((res.body["messages"] as Json[]).map((m) => [m.id, m]));
    const expected = sample.filter((m) => !a.state.channels.get(m.channelId!)!.inviteOnly);
    expect(served.size).toBe(expected.length);
    for (const m of expected) expect(served.get(m.id)).toMatchObject({ content: m.content, subject: m.topic, sender_id: m.senderId, timestamp: m.timestamp });
  }, 20_000);
});
