// Event queues of the reference server: long-poll wake-up, heartbeats,
// local echo, flag events, queue deletion and garbage collection.

import { client as sharedClient } from "./server-test-client.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startServer, type DemoAccount, type RunningServer } from "../../src/server/index.js";
import { ConformanceRecorder } from "../fixtures/conformance.js";

type Json = Record<string, any>;

const started: RunningServer[] = [];
// Every success body and event of every server here must fit the public API description.
const recorder = new ConformanceRecorder();
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});
afterAll(() => {
  expect(recorder.count).toBeGreaterThan(0);
  expect(recorder.problems()).toEqual([]);
});

async function start(opts: Parameters<typeof startServer>[0] = {}): Promise<RunningServer> {
  const s = await startServer(recorder.options({ host: "127.0.0.1", port: 0, ...opts }));
  started.push(s);
  return s;
}

/** The shared raw-HTTP caller, with a 5 s limit per request. */
function client(server: RunningServer, who: DemoAccount) {
  return sharedClient(server, who, 5000);
}

const ONLY_QUEUE = { fetch_event_types: ["realm"] };

describe("event queues", () => {
  it("wakes a blocked poll when another user sends a message", async () => {
    const server = await start();
    const maya = client(server, server.accounts[0]!);
    const ben = client(server, server.accounts[1]!);
    const reg = (await maya("POST", "/register", { ...ONLY_QUEUE, event_types: ["message"] })).body;
    let settled = false;
    const poll = maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: reg["last_event_id"] }).then((r) => {
      settled = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(settled).toBe(false);
    const sent = await ben("POST", "/messages", { type: "stream", to: "engineering", topic: "long-poll", content: "ping @**Maya Okafor**" });
    const res = await poll;
    expect(res.status).toBe(200);
    const events = res.body["events"] as Json[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "message", id: 0, flags: ["mentioned"] });
    expect(events[0]!["message"]).toMatchObject({ id: sent.body["id"], subject: "long-poll", sender_email: "ben@lighthouse.test" });
    expect(events[0]).not.toHaveProperty("local_message_id");
  });

  it("echoes local_id to the sender's own queue only, and filters by event_types and narrow", async () => {
    const server = await start();
    const maya = client(server, server.accounts[0]!);
    const mine = (await maya("POST", "/register", { ...ONLY_QUEUE, event_types: ["message"] })).body;
    const other = (await maya("POST", "/register", { ...ONLY_QUEUE, event_types: ["message"] })).body;
    const noMessages = (await maya("POST", "/register", { ...ONLY_QUEUE, event_types: ["presence"] })).body;
    const designOnly = (await maya("POST", "/register", { ...ONLY_QUEUE, narrow: [["channel", "design"]] })).body;
    await maya("POST", "/messages", { type: "direct", to: [server.accounts[2]!.userId], content: "hi", queue_id: mine["queue_id"], local_id: "42.01" });
    const poll = (q: Json) => maya("GET", "/events", { queue_id: q["queue_id"], last_event_id: -1, dont_block: true }).then((r) => r.body["events"] as Json[]);
    const [a, b, c, d] = [await poll(mine), await poll(other), await poll(noMessages), await poll(designOnly)];
    expect(a[0]).toMatchObject({ type: "message", local_message_id: "42.01", flags: ["read"] });
    expect(b[0]).toMatchObject({ type: "message" });
    expect(b[0]).not.toHaveProperty("local_message_id");
    expect(c).toEqual([]);
    expect(d).toEqual([]);
  });

  it("sends a heartbeat after heartbeatMs and acknowledges by last_event_id", async () => {
    const server = await start({ heartbeatMs: 50 });
    const maya = client(server, server.accounts[0]!);
    const reg = (await maya("POST", "/register", ONLY_QUEUE)).body;
    const first = await maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: -1 });
    expect(first.body["events"]).toEqual([{ type: "heartbeat", id: 0 }]);
    const again = await maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: -1, dont_block: true });
    expect(again.body["events"]).toEqual([{ type: "heartbeat", id: 0 }]);
    const acked = await maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: 0, dont_block: true });
    expect(acked.body["events"]).toEqual([]);
  });

  it("emits update_message_flags events", async () => {
    const server = await start();
    const maya = client(server, server.accounts[0]!);
    const reg = (await maya("POST", "/register", { event_types: ["update_message_flags"], fetch_event_types: ["message", "update_message_flags"], client_capabilities: { empty_topic_name: true } })).body;
    const unread = reg["unread_msgs"].streams[0];
    const id = unread.unread_message_ids[0];
    await maya("POST", "/messages/flags", { messages: [id], op: "add", flag: "read" });
    await maya("POST", "/messages/flags", { messages: [id], op: "remove", flag: "read" });
    const events = (await maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: -1, dont_block: true })).body["events"];
    expect(events[0]).toEqual({ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [id], all: false, id: 0 });
    expect(events[1]).toMatchObject({ op: "remove", flag: "read", messages: [id] });
    expect(events[1].message_details[String(id)]).toMatchObject({ type: "stream", stream_id: unread.stream_id, topic: unread.topic });
  });

  it("garbage-collects idle queues and deletes queues on request", async () => {
    const server = await start({ queueIdleMs: 100 });
    const maya = client(server, server.accounts[0]!);
    const reg = (await maya("POST", "/register", ONLY_QUEUE)).body;
    await new Promise((r) => setTimeout(r, 250));
    const gone = await maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: -1, dont_block: true });
    expect(gone.status).toBe(400);
    expect(gone.body).toMatchObject({ result: "error", code: "BAD_EVENT_QUEUE_ID", queue_id: reg["queue_id"] });

    const reg2 = (await maya("POST", "/register", ONLY_QUEUE)).body;
    expect((await maya("DELETE", "/events", { queue_id: reg2["queue_id"] })).status).toBe(200);
    const deleted = await maya("GET", "/events", { queue_id: reg2["queue_id"], dont_block: true });
    expect(deleted.body["code"]).toBe("BAD_EVENT_QUEUE_ID");
  });

  it("does not collect a queue while a poll waits, and close() ends the poll", async () => {
    const server = await start({ queueIdleMs: 100, heartbeatMs: 60_000 });
    const maya = client(server, server.accounts[0]!);
    const reg = (await maya("POST", "/register", ONLY_QUEUE)).body;
    const poll = maya("GET", "/events", { queue_id: reg["queue_id"], last_event_id: -1 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 250));
    const t0 = Date.now();
    await server.close();
    const result = await poll;
    expect(Date.now() - t0).toBeLessThan(2000);
    if (!(result instanceof Error)) expect((result as Json)["status"]).toBe(200);
  });
});
