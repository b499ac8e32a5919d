/**
 * The HTTP layer against a tiny scripted node:http server on 127.0.0.1:
 * retries with backoff for idempotent requests only, Retry-After, timeouts,
 * non-JSON bodies and the error envelope. `sleep` and `random` are injected,
 * so no test waits for a real backoff; every loop is bounded.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError, NetworkError, SchemaError, ServerError } from "../../src/api/errors.js";
import { ApiClient, type ClientOptions } from "../../src/api/http.js";
import { getMessages, sendMessage } from "../../src/api/routes/messages.js";
import { emptySuccessSchema } from "../../src/api/schemas/responses.js";
import { z } from "zod";

type Step = (req: IncomingMessage, res: ServerResponse) => void;

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  };
const text =
  (status: number, body: string): Step =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "text/html" });
    res.end(body);
  };
/** Drops the connection without an answer (the client sees a reset/closed socket). */
const reset: Step = (req) => req.socket.destroy();
/** Never answers. */
const hang: Step = () => {};
const success = json(200, { result: "success", msg: "" });
const messages = json(200, { result: "success", msg: "", messages: [], found_newest: true });

let server: Server;
let site: string;
let script: Step[] = [];
const seen: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "" });
    req.resume();
    req.on("end", () => (script.shift() ?? json(500, { result: "error", msg: "unscripted request", code: "TEST" }))(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  script = [];
  seen.length = 0;
});

function client(opts: ClientOptions = {}) {
  const sleeps: number[] = [];
  const c = new ApiClient(
    { site, email: "me@example.test", apiKey: "k" },
    {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 1,
      ...opts,
    },
  );
  return { c, sleeps };
}

describe("retries of idempotent requests", () => {
  for (const [name, step] of [
    ["a connection reset", reset],
    ["502", text(502, "<h1>Bad gateway</h1>")],
    ["503", text(503, "<h1>Unavailable</h1>")],
    ["504", text(504, "<h1>Gateway timeout</h1>")],
  ] as const) {
    it(`retries a GET after ${name}, with exponential backoff`, async () => {
      script = [step, step, messages];
      const { c, sleeps } = client();
      const res = await getMessages(c, { anchor: "newest", num_before: 10, num_after: 0 });
      expect(res.found_newest).toBe(true);
      expect(seen).toHaveLength(3);
      // random() = 1: the full cap of each attempt, 100 ms doubling.
      expect(sleeps).toEqual([100, 200]);
      await c.close();
    });
  }

  it("gives up after the policy's attempts, with the last error", async () => {
    script = Array.from({ length: 10 }, () => text(503, "busy"));
    const { c, sleeps } = client({ retry: { attempts: 3, baseMs: 50, maxMs: 120, maxRetryAfterMs: 1000 } });
    const err = await c.request("GET", "users", { schema: emptySuccessSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).status).toBe(503);
    expect(seen).toHaveLength(3);
    expect(sleeps).toEqual([50, 100]);
    await c.close();
  });

  it("does not retry a 500 or a 400", async () => {
    script = [text(500, "oops")];
    const { c } = client();
    await expect(c.request("GET", "users", { schema: emptySuccessSchema })).rejects.toBeInstanceOf(ServerError);
    script = [json(400, { result: "error", msg: "Invalid", code: "BAD_REQUEST" })];
    await expect(c.request("GET", "users", { schema: emptySuccessSchema })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(2);
    await c.close();
  });

  it("retries a POST marked idempotent (flags)", async () => {
    script = [text(502, "bad gateway"), json(200, { result: "success", msg: "", messages: [1] })];
    const { c } = client();
    await c.request("POST", "messages/flags", { schema: emptySuccessSchema, idempotent: true, params: { messages: [1] } });
    expect(seen.map((s) => s.method)).toEqual(["POST", "POST"]);
    await c.close();
  });

  it("stops retrying when the caller aborts during the backoff", async () => {
    script = [text(503, "busy"), messages];
    const ac = new AbortController();
    const { c } = client({
      sleep: async (_ms, signal) => {
        ac.abort(new Error("user left"));
        if (signal?.aborted) throw signal.reason;
      },
    });
    await expect(c.request("GET", "messages", { schema: emptySuccessSchema, signal: ac.signal })).rejects.toThrow("user left");
    expect(seen).toHaveLength(1);
    await c.close();
  });
});

describe("429 rate limits", () => {
  it("honours the Retry-After header", async () => {
    script = [json(429, { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT" }, { "retry-after": "3" }), success];
    const { c, sleeps } = client();
    await c.request("GET", "users", { schema: emptySuccessSchema });
    expect(sleeps).toEqual([3000]);
    expect(seen).toHaveLength(2);
    await c.close();
  });

  it("honours the body's retry-after (fractional seconds)", async () => {
    script = [json(429, { result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 1.5 }), success];
    const { c, sleeps } = client();
    await c.request("GET", "users", { schema: emptySuccessSchema });
    expect(sleeps).toEqual([1500]);
    await c.close();
  });

  it("a 429 without a JSON body is still a rate limit", async () => {
    script = [(_q, res) => { res.writeHead(429, { "retry-after": "2" }); res.end("slow down"); }, success];
    const { c, sleeps } = client();
    await c.request("GET", "users", { schema: emptySuccessSchema });
    expect(sleeps).toEqual([2000]);
    await c.close();
  });

  it("gives up at once when Retry-After is longer than the policy allows", async () => {
    script = [json(429, { result: "error", msg: "limit", code: "RATE_LIMIT_HIT", "retry-after": 600 })];
    const { c, sleeps } = client();
    const err = (await c.request("GET", "users", { schema: emptySuccessSchema }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.isRateLimit).toBe(true);
    expect(err.retryAfter).toBe(600);
    expect(sleeps).toEqual([]);
    await c.close();
  });
});

describe("sends are never retried", () => {
  for (const [name, step] of [
    ["a connection reset", reset],
    ["503", text(503, "busy")],
    ["429", json(429, { result: "error", msg: "limit", code: "RATE_LIMIT_HIT", "retry-after": 0.01 })],
  ] as const) {
    it(`POST /messages after ${name}: one attempt, the error goes to the caller`, async () => {
      script = [step, json(200, { result: "success", msg: "", id: 1 })];
      const { c, sleeps } = client();
      await expect(sendMessage(c, { type: "stream", to: 1, topic: "t", content: "once" })).rejects.toBeDefined();
      expect(seen).toEqual([{ method: "POST", url: "/api/v1/messages" }]);
      expect(sleeps).toEqual([]);
      await c.close();
    });
  }
});

describe("timeouts", () => {
  it("a hanging response ends as a NetworkError(timeout) after the per-request timeout", async () => {
    script = [hang];
    const { c } = client({ timeoutMs: 5_000 });
    const started = Date.now();
    const err = await c.request("GET", "users", { schema: emptySuccessSchema, timeoutMs: 150, retry: { attempts: 1 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).reason).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
    await c.close();
  });

  it("a timed-out idempotent request is retried, and the retry can succeed", async () => {
    script = [hang, success];
    const { c, sleeps } = client();
    await c.request("GET", "users", { schema: emptySuccessSchema, timeoutMs: 150 });
    expect(seen).toHaveLength(2);
    expect(sleeps).toEqual([100]);
    await c.close();
  });
});

describe("a request sent ahead (prefetch)", () => {
  const params = { narrow: [{ operator: "channel", operand: 5 }], anchor: "newest" };

  it("the first identical request takes its answer without sending again; the next one sends", async () => {
    script = [messages, messages];
    const { c } = client();
    c.prefetch("GET", "messages", { params });
    await new Promise((r) => setTimeout(r, 50)); // answered before anyone asks
    expect(seen).toHaveLength(1);
    await c.request("GET", "messages", { params, schema: emptySuccessSchema });
    expect(seen).toHaveLength(1);
    await c.request("GET", "messages", { params, schema: emptySuccessSchema });
    expect(seen).toHaveLength(2);
    await c.close();
  });

  it("a request with other parameters is not given its answer", async () => {
    script = [json(200, { result: "success", msg: "", which: "first" }), json(200, { result: "success", msg: "", which: "second" })];
    const { c } = client();
    c.prefetch("GET", "messages", { params });
    const other = await c.request("GET", "messages", { params: { ...params, anchor: "oldest" }, schema: emptySuccessSchema });
    expect(other).toMatchObject({ which: "second" });
    expect(seen.map((r) => new URL(r.url, site).searchParams.get("anchor"))).toEqual(["newest", "oldest"]);
    await c.close();
  });

  it("its failure reaches the request that takes it, which retries as its own would", async () => {
    script = [text(503, "<h1>busy</h1>"), messages];
    const { c, sleeps } = client();
    c.prefetch("GET", "messages", { params });
    await c.request("GET", "messages", { params, schema: emptySuccessSchema });
    expect(seen).toHaveLength(2);
    expect(sleeps).toEqual([100]);
    await c.close();
  });

  it("settles once the request is written to its connection, so the caller's next long task does not hold it back", async () => {
    script = [messages];
    const written: string[] = [];
    const onHeaders = (m: unknown) => written.push((m as { request: { path: string } }).request.path);
    subscribe("undici:client:sendHeaders", onHeaders);
    try {
      const { c } = client();
      const sent = c.prefetch("GET", "messages", { params });
      expect(written).toEqual([]); // not yet: connecting takes the event loop's turns
      await sent;
      expect(written).toEqual([expect.stringMatching(/^\/api\/v1\/messages\?/)]);
      await c.request("GET", "messages", { params, schema: emptySuccessSchema });
      expect(seen).toHaveLength(1);
      await c.close();
    } finally {
      unsubscribe("undici:client:sendHeaders", onHeaders);
    }
  });

  it("the taker's abort cancels it", async () => {
    script = [hang];
    const { c } = client();
    c.prefetch("POST", "register", { params: { apply_markdown: false }, timeoutMs: 10_000 });
    const stop = new AbortController();
    const pending = c.request("POST", "register", { params: { apply_markdown: false }, schema: emptySuccessSchema, signal: stop.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    stop.abort();
    const err = await pending;
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).reason).toBe("aborted");
    await c.close();
  });
});

describe("a look at the answer's first bytes while it arrives (lookAtHead)", () => {
  const schema = z.object({ result: z.literal("success"), queue_id: z.string() });
  const parseBytes = (bytes: Buffer) => JSON.parse(bytes.toString("utf8")) as unknown;
  /** An answer in two parts: the second only once `release` is called. */
  function inTwoParts(status: number, first: string, second: string) {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const step: Step = (_req, res) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.write(first);
      void released.then(() => res.end(second));
    };
    return { step, release };
  }

  it("is shown the first part before the rest is sent, for a request sent ahead too", async () => {
    for (const ahead of [false, true]) {
      const answer = inTwoParts(200, '{"result":"success","msg":"","queue_id":"q1",', '"rest":[1,2,3]}');
      script = [answer.step];
      const { c } = client();
      if (ahead) await c.prefetch("POST", "register", { params: { a: 1 }, parseBytes });
      const shown: string[] = [];
      const reply = c.request("POST", "register", {
        params: { a: 1 },
        schema,
        parseBytes,
        lookAtHead: (head) => {
          shown.push(head.toString("utf8"));
          answer.release();
          return true;
        },
      });
      expect((await reply).queue_id).toBe("q1");
      expect(shown).toEqual(['{"result":"success","msg":"","queue_id":"q1",']);
      expect(seen).toHaveLength(1);
      seen.length = 0;
      await c.close();
    }
  });

  it("an error answer is never shown", async () => {
    script = [json(400, { result: "error", msg: "no", code: "BAD_REQUEST" })];
    const { c } = client();
    const shown: Buffer[] = [];
    const err = await c.request("POST", "register", { schema, parseBytes, lookAtHead: (head) => (shown.push(head), true) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(shown).toEqual([]);
    await c.close();
  });
});

describe("a look at the answer before its check (beforeCheck)", () => {
  const schema = z.object({ result: z.literal("success"), queue_id: z.string() });

  it("is given the parsed body, and the check waits for it", async () => {
    script = [json(200, { result: "success", msg: "", queue_id: "q1" })];
    const { c } = client();
    const order: string[] = [];
    const answer = await c.request("POST", "register", {
      schema: schema.transform((r) => (order.push("checked"), r)),
      beforeCheck: async (body) => {
        order.push(`looked at ${(body as { queue_id: string }).queue_id}`);
        await new Promise((r) => setImmediate(r));
        order.push("done looking");
      },
    });
    expect(answer.queue_id).toBe("q1");
    expect(order).toEqual(["looked at q1", "done looking", "checked"]);
    await c.close();
  });

  it("an answer the check refuses still fails the request; an error answer is never looked at", async () => {
    script = [json(200, { result: "success", msg: "", queue_id: 5 }), json(400, { result: "error", msg: "no", code: "BAD_REQUEST" })];
    const { c } = client();
    const looked: unknown[] = [];
    const beforeCheck = (body: unknown) => void looked.push(body);
    await expect(c.request("POST", "register", { schema, beforeCheck })).rejects.toBeInstanceOf(SchemaError);
    await expect(c.request("POST", "register", { schema, beforeCheck })).rejects.toBeInstanceOf(ApiError);
    expect(looked).toEqual([{ result: "success", msg: "", queue_id: 5 }]);
    await c.close();
  });
});

describe("bodies that are not what we expect", () => {
  it("a 200 with HTML is a SchemaError naming the endpoint", async () => {
    script = [text(200, "<html>captive portal</html>")];
    const { c } = client();
    const err = await c.request("GET", "users", { schema: emptySuccessSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaError);
    expect((err as SchemaError).message).toMatch(/GET users: the body is not JSON/);
    await c.close();
  });

  it("a 200 with the wrong JSON shape is a SchemaError with the field", async () => {
    script = [json(200, { result: "success", msg: "", messages: "nope" })];
    const { c } = client();
    const err = await getMessages(c, { anchor: "newest", num_before: 1, num_after: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaError);
    expect((err as SchemaError).message).toMatch(/messages/);
    await c.close();
  });

  it("a 500 with HTML is a ServerError with the status", async () => {
    script = [text(500, "<h1>Internal Server Error</h1>")];
    const { c } = client();
    const err = await c.request("GET", "users", { schema: emptySuccessSchema }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServerError);
    expect((err as ServerError).status).toBe(500);
    await c.close();
  });

  it("a 401 without the envelope is an auth failure", async () => {
    script = [text(401, "Unauthorized")];
    const { c } = client();
    const err = (await c.request("GET", "users", { schema: emptySuccessSchema }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.isAuthFailure).toBe(true);
    await c.close();
  });
});

describe("the error envelope", () => {
  it("becomes an ApiError with code, msg, status and the extra data", async () => {
    script = [json(400, { result: "error", code: "BAD_EVENT_QUEUE_ID", msg: "Bad event queue ID: abc", queue_id: "abc" })];
    const { c } = client();
    const err = (await c.request("GET", "events", { schema: emptySuccessSchema }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe("BAD_EVENT_QUEUE_ID");
    expect(err.message).toBe("Bad event queue ID: abc");
    expect(err.status).toBe(400);
    expect(err.data).toEqual({ queue_id: "abc" });
    expect(seen).toHaveLength(1);
    await c.close();
  });

  it("an error envelope with HTTP 200 is still an error", async () => {
    script = [json(200, { result: "error", code: "BAD_REQUEST", msg: "odd" })];
    const { c } = client();
    await expect(c.request("GET", "users", { schema: emptySuccessSchema })).rejects.toMatchObject({ code: "BAD_REQUEST", status: 200 });
    await c.close();
  });
});
