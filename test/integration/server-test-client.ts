// Helpers for the reference server's integration tests: start servers on
// 127.0.0.1 port 0 (closed after each file), call the API as an account over
// real HTTP, and drain event queues without blocking. Every response of the
// servers started here is recorded; after the file, every success body and
// every event must fit the public API description.

import { afterAll, expect } from "vitest";
import { startServer, type DemoAccount, type RunningServer, type ServerOptions } from "../../src/server/index.js";
import { ConformanceRecorder } from "../fixtures/conformance.js";

export type Json = Record<string, any>;
export type Api = (method: string, path: string, params?: Record<string, unknown>) => Promise<{ status: number; body: Json }>;

const started: RunningServer[] = [];
/** Shared by every server this file's test starts. */
export const recorder = new ConformanceRecorder();
let startedAny = false;
afterAll(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
  if (startedAny) expect(recorder.count).toBeGreaterThan(0);
  expect(recorder.problems()).toEqual([]);
});

export async function start(opts: ServerOptions = {}): Promise<RunningServer> {
  const server = await startServer(recorder.options({ host: "127.0.0.1", port: 0, ...opts }));
  started.push(server);
  startedAny = true;
  return server;
}

export function account(server: RunningServer, role: DemoAccount["role"], index = 0): DemoAccount {
  const found = server.accounts.filter((a) => a.role === role)[index];
  if (!found) throw new Error(`no ${role} account`);
  return found;
}

export function client(server: RunningServer, who: DemoAccount, timeoutMs = 10_000): Api {
  const auth = "Basic " + Buffer.from(`${who.email}:${who.apiKey}`).toString("base64");
  return async (method, path, params = {}) => {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) form.set(k, typeof v === "string" ? v : JSON.stringify(v));
    const get = method === "GET";
    const res = await fetch(`${server.url}/api/v1${path}${get ? `?${form}` : ""}`, {
      method,
      headers: { Authorization: auth, ...(get ? {} : { "Content-Type": "application/x-www-form-urlencoded" }) },
      body: get ? undefined : form.toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
}

/** Registers a queue that fetches almost no state. */
export async function register(api: Api, params: Record<string, unknown> = {}): Promise<Json> {
  const res = await api("POST", "/register", { fetch_event_types: ["realm"], ...params });
  if (res.status !== 200) throw new Error(`register failed: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Pending events of a queue (dont_block), without acknowledging them. */
export async function pending(api: Api, queueId: string): Promise<Json[]> {
  const res = await api("GET", "/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
  if (res.status !== 200) throw new Error(`events failed: ${JSON.stringify(res.body)}`);
  return res.body["events"] as Json[];
}

/** Ids of the messages a narrow returns (newest 1000). */
export async function ids(api: Api, narrow: unknown[], extra: Record<string, unknown> = {}): Promise<number[]> {
  const res = await api("GET", "/messages", { anchor: "newest", num_before: 1000, num_after: 0, narrow, ...extra });
  if (res.status !== 200) throw new Error(`GET /messages failed: ${JSON.stringify(res.body)}`);
  return (res.body["messages"] as Json[]).map((m) => m["id"] as number);
}

export async function send(api: Api, params: Record<string, unknown>): Promise<number> {
  const res = await api("POST", "/messages", params);
  if (res.status !== 200) throw new Error(`send failed: ${JSON.stringify(res.body)}`);
  return res.body["id"] as number;
}

/** The id of a channel `api`'s user is subscribed to, by name. */
export async function subscribedChannelId(api: Api, name: string): Promise<number> {
  const subs = (await api("GET", "/users/me/subscriptions")).body["subscriptions"] as Json[];
  const found = subs.find((s) => s["name"] === name);
  if (!found) throw new Error(`not subscribed to ${name}`);
  return found["stream_id"] as number;
}
