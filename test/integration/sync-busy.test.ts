/**
 * A busy organization: members post hundreds of messages across several channels as fast as
 * the server takes them, while the reader marks some read elsewhere (another device). Once the
 * burst is over, the client's unread messages and counts (per channel, per topic, mentions)
 * are exactly the server's, from a fresh register. How keys and memory fare during a minute of
 * it: `npm run bench` (BENCH_ONLY=hostile, the busy case).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/http.js";
import { register } from "../../src/api/routes/events.js";
import { sendMessage, updateMessageFlags } from "../../src/api/routes/messages.js";
import { getSubscriptions } from "../../src/api/routes/subscriptions.js";
import { UpdateMachine } from "../../src/sync/update-machine.js";
import { CLIENT_CAPABILITIES, FETCH_EVENT_TYPES } from "../../src/sync/register-params.js";
import { eventually, withServer, type ServerFixture } from "../fixtures/server.js";

let ctx: ServerFixture | undefined;
let machine: UpdateMachine | undefined;
afterEach(async () => {
  await machine?.stop();
  machine = undefined;
  await ctx?.close();
  ctx = undefined;
});

type Unread = { stream_id: number; topic: string; unread_message_ids: number[] };

/** The server's unread messages of the owner, by channel and topic, and its mentions. */
async function serverUnreads(client: ApiClient) {
  const fresh = await register(client, { apply_markdown: false, fetch_event_types: [...FETCH_EVENT_TYPES], client_capabilities: CLIENT_CAPABILITIES });
  const streams = (fresh.unread_msgs?.streams ?? []) as unknown as Unread[];
  const direct = [...(fresh.unread_msgs?.pms ?? []), ...(fresh.unread_msgs?.huddles ?? [])].flatMap((p) => p.unread_message_ids);
  const all = [...streams.flatMap((s) => s.unread_message_ids), ...direct].sort((a, b) => a - b);
  const perChannel = new Map<number, number>();
  for (const s of streams) perChannel.set(s.stream_id, (perChannel.get(s.stream_id) ?? 0) + s.unread_message_ids.length);
  return { all, perChannel, topics: streams, mentions: [...(fresh.unread_msgs?.mentions ?? [])].sort((a, b) => a - b) };
}

describe("a busy organization", () => {
  it("after a burst of 400 messages over four channels, with reads from elsewhere, the unread counts are the server's", async () => {
    ctx = await withServer({ rateLimit: false, heartbeatMs: 500 });
    machine = new UpdateMachine(ctx.client(), { backoff: { baseMs: 20, maxMs: 200 }, pollMarginMs: 1000 });
    const store = await machine.start();
    const channels = ["general", "engineering", "random", "design"].map((name) => [...store.channels.values()].find((c) => c.name === name)!);
    const owner = ctx.client();
    // Who may write where: the members subscribed to each channel.
    const writers = new Map<number, ApiClient[]>();
    for (const who of ["ben", "priya", "omar", "lena", "diego", "hana"]) {
      const client = ctx.client(who);
      for (const s of (await getSubscriptions(client)).subscriptions) writers.set(s.stream_id, [...(writers.get(s.stream_id) ?? []), client]);
    }
    const sent: number[] = [];
    const burst = Array.from({ length: 400 }, async (_, i) => {
      const channel = channels[i % channels.length]!;
      const who = writers.get(channel.stream_id)!;
      const mention = i % 25 === 0 ? "@**Maya Okafor** " : "";
      const m = await sendMessage(who[i % who.length]!, { type: "stream", to: channel.stream_id, topic: `busy ${i % 5}`, content: `${mention}message ${i}` });
      sent.push(m.id);
      // The reader reads some of them on another device as they come.
      if (i % 7 === 0) await updateMessageFlags(owner, { messages: [m.id], op: "add", flag: "read" });
    });
    await Promise.all(burst);
    expect(sent).toHaveLength(400);

    const want = await serverUnreads(owner);
    expect(want.all.length).toBeGreaterThan(300);
    await eventually(() => JSON.stringify([...store.unreads.allIds()].sort((a, b) => a - b)) === JSON.stringify(want.all), 20_000).catch(() => undefined);
    expect([...store.unreads.allIds()].sort((a, b) => a - b)).toEqual(want.all);
    for (const c of channels) expect(store.unreads.countInChannel(c.stream_id), c.name).toBe(want.perChannel.get(c.stream_id) ?? 0);
    for (const t of want.topics) expect(store.unreads.countInTopic(t.stream_id, t.topic), t.topic).toBe(t.unread_message_ids.length);
    expect(store.unreads.mentionIds(() => false).sort((a, b) => a - b)).toEqual(want.mentions);
    expect(store.unreads.recount()).toEqual([]);
  });
});
