// Event queues: idle lifetimes (server default and idle_queue_timeout),
// garbage collection, heartbeats, acknowledgement, filters, all_public_streams,
// dont_block and a prompt close().

import { describe, expect, it } from "vitest";
import { account, client, pending, register, send, start, type Json } from "./server-test-client.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("queue lifetime", () => {
  it("collects a queue idle longer than the server default (ms-scale), and reports BAD_EVENT_QUEUE_ID", async () => {
    // Margins wide enough for a loaded machine: polls every 60 ms keep a 250 ms queue alive.
    const server = await start({ queueIdleMs: 250 });
    const maya = client(server, server.accounts[0]!);
    const reg = await register(maya);
    expect(reg["idle_queue_timeout_secs"]).toBe(1);
    // Activity keeps it alive.
    for (let i = 0; i < 6; i++) {
      await sleep(60);
      expect((await maya("GET", "/events", { queue_id: reg["queue_id"], dont_block: true })).status).toBe(200);
    }
    await sleep(500);
    const gone = await maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: -1, dont_block: true });
    expect(gone.status).toBe(400);
    expect(gone.body).toEqual({ result: "error", code: "BAD_EVENT_QUEUE_ID", msg: `Bad event queue ID: ${reg["queue_id"]}`, queue_id: reg["queue_id"] });
  });

  it("honours idle_queue_timeout (seconds) and validates it", async () => {
    const server = await start();
    const maya = client(server, server.accounts[0]!);
    const reg = await register(maya, { idle_queue_timeout: 1 });
    expect(reg["idle_queue_timeout_secs"]).toBe(1);
    const dflt = await register(maya);
    expect(dflt["idle_queue_timeout_secs"]).toBe(600);
    await sleep(1150);
    expect((await maya("GET", "/events", { queue_id: reg["queue_id"], dont_block: true })).body["code"]).toBe("BAD_EVENT_QUEUE_ID");
    expect((await maya("GET", "/events", { queue_id: dflt["queue_id"], dont_block: true })).status).toBe(200);
    for (const bad of [0, -5, 10 ** 9, "soon"]) {
      expect((await maya("POST", "/register", { idle_queue_timeout: bad, fetch_event_types: ["realm"] })).status).toBe(400);
    }
  });

  it("refuses another user's queue and unknown queues", async () => {
    const server = await start();
    const maya = client(server, server.accounts[0]!);
    const ben = client(server, account(server, "admin"));
    const reg = await register(maya);
    expect((await ben("GET", "/events", { queue_id: reg["queue_id"], dont_block: true })).body["code"]).toBe("BAD_EVENT_QUEUE_ID");
    expect((await maya("GET", "/events", { queue_id: "nope", dont_block: true })).body).toMatchObject({ code: "BAD_EVENT_QUEUE_ID", queue_id: "nope" });
  });
});

describe("polling", () => {
  it("heartbeats, acknowledges by last_event_id, and returns at once with dont_block", async () => {
    const server = await start({ heartbeatMs: 60 });
    const maya = client(server, server.accounts[0]!);
    const reg = await register(maya);
    const t0 = Date.now();
    expect((await maya("GET", "/events", { queue_id: reg["queue_id"], dont_block: true })).body["events"]).toEqual([]);
    expect(Date.now() - t0).toBeLessThan(50);
    const beat = await maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: -1 });
    expect(beat.body["events"]).toEqual([{ type: "heartbeat", id: 0 }]);
    const beat2 = await maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: 0 });
    expect(beat2.body["events"]).toEqual([{ type: "heartbeat", id: 1 }]);
    expect(await pending(maya, reg["queue_id"])).toEqual([{ type: "heartbeat", id: 1 }]); // 0 was acknowledged, 1 not yet
  });

  it("filters by event_types and narrow; all_public_streams adds unsubscribed public channels", async () => {
    const server = await start();
    const maya = client(server, server.accounts[0]!);
    const ben = client(server, account(server, "admin"));
    const onlyFlags = await register(maya, { event_types: ["update_message_flags"] });
    const dmsOnly = await register(maya, { event_types: ["message"], narrow: [["is", "dm"]] });
    const engOnly = await register(maya, { event_types: ["message"], narrow: [["stream", "engineering"], ["topic", "q-lab"]] });
    const everything = await register(maya, { event_types: ["message"], all_public_streams: true });
    const mine = await register(maya, { event_types: ["message"] });
    const eng = await send(ben, { type: "stream", to: "engineering", topic: "q-lab", content: "a" });
    const help = await send(ben, { type: "stream", to: "help-desk", topic: "q-lab", content: "b" });
    const dm = await send(ben, { type: "direct", to: [server.accounts[0]!.userId], content: "c" });
    const ids = async (q: Json) => (await pending(maya, q["queue_id"])).map((e) => e.message?.id ?? e.type);
    expect(await ids(onlyFlags)).toEqual([]);
    expect(await ids(dmsOnly)).toEqual([dm]);
    expect(await ids(engOnly)).toEqual([eng]);
    expect(await ids(everything)).toEqual([eng, help, dm]);
    expect(await ids(mine)).toEqual([eng, dm]);
    const helpEvent = (await pending(maya, everything["queue_id"]))[1]!;
    expect(helpEvent["flags"]).toEqual(["read", "historical"]);
    const bad = await maya("POST", "/register", { event_types: ["message"], narrow: [["search", "x"], ["near", "5"]] });
    expect(bad.body).toMatchObject({ code: "BAD_REQUEST", msg: "Operator near not supported." });
  });

  it("close() answers pending polls and returns promptly", async () => {
    const server = await start({ heartbeatMs: 60_000 });
    const maya = client(server, server.accounts[0]!);
    const regs = await Promise.all([register(maya), register(maya), register(maya)]);
    const polls = regs.map((r) => maya("GET", "/events", { queue_id: r["queue_id"], last_event_id: -1 }).catch((e: unknown) => e));
    await sleep(100);
    const t0 = Date.now();
    await server.close();
    await Promise.all(polls);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
