/**
 * Helpers for the api-operations tests: the client's api functions against
 * the reference server over real HTTP (127.0.0.1, port 0). One server per
 * file; its every response is recorded and, after the file, must fit the
 * public API description. Another user's queue is read with the client's own
 * `register` + `getEvents`, so events arrive parsed by `parseEvent`.
 */
import { afterAll, beforeAll, expect } from "vitest";
import {
  ApiError,
  deleteQueue,
  getEvents,
  register,
  type ApiClient,
  type EventOfType,
  type KnownEventType,
  type RegisterParams,
  type ServerEvent,
} from "../../src/api/index.js";
import type { ServerOptions } from "../../src/server/index.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

/** Starts one server for the file (beforeAll) and checks conformance when it closes (afterAll). */
export function useServer(opts: ServerOptions = {}): () => ServerFixture {
  let ctx: ServerFixture | undefined;
  beforeAll(async () => {
    ctx = await withServer(opts);
  });
  afterAll(async () => {
    if (!ctx) return;
    // Checked here for a readable diff; close() would refuse a mismatch too.
    const problems = ctx.conformance.problems();
    const count = ctx.conformance.count;
    await ctx.close().catch(() => undefined);
    expect(count).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
  return () => {
    if (!ctx) throw new Error("the server is not started yet");
    return ctx;
  };
}

let counter = 0;
/** A name no other test uses (short enough for every length limit). */
export function uniq(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

/** Awaits a rejected call and checks it is an ApiError with this code and message. */
export async function expectApiError(call: Promise<unknown>, code: string, msg?: string | RegExp, status?: number): Promise<ApiError> {
  let err: unknown;
  try {
    await call;
  } catch (e) {
    err = e;
  }
  expect(err, `expected ApiError ${code}`).toBeInstanceOf(ApiError);
  const e = err as ApiError;
  expect({ code: e.code, ...(msg === undefined ? {} : { msg: e.message }) }).toEqual({
    code,
    ...(msg === undefined ? {} : { msg: typeof msg === "string" ? msg : expect.stringMatching(msg) }),
  });
  if (status !== undefined) expect(e.status).toBe(status);
  return e;
}

/** An event queue of one client, read without blocking. */
export class Listener {
  private buffer: ServerEvent[] = [];
  private constructor(
    readonly client: ApiClient,
    readonly queueId: string,
    private lastEventId: number,
  ) {}

  static async open(client: ApiClient, eventTypes?: string[], extra: RegisterParams = {}): Promise<Listener> {
    const reg = await register(client, { fetch_event_types: ["realm"], ...(eventTypes ? { event_types: eventTypes } : {}), ...extra });
    if (reg.queue_id === null) throw new Error("register returned no queue");
    return new Listener(client, reg.queue_id, reg.last_event_id);
  }

  /** Pending events (heartbeats dropped), acknowledged. */
  async poll(): Promise<ServerEvent[]> {
    const res = await getEvents(this.client, { queue_id: this.queueId, last_event_id: this.lastEventId, dont_block: true }, { timeoutMs: 5000 });
    for (const e of res.events) this.lastEventId = Math.max(this.lastEventId, e.id);
    return res.events.filter((e) => e.type !== "heartbeat");
  }

  /** Every event received so far plus what is pending (keeps them for later `next` calls). */
  async all(): Promise<ServerEvent[]> {
    this.buffer.push(...(await this.poll()));
    return [...this.buffer];
  }

  /**
   * The first event of a known type (and matching `match`); fails after a
   * bounded wait. Events before it stay available for later calls.
   */
  async next<T extends KnownEventType>(type: T, match: (e: EventOfType<T>) => boolean = () => true, timeoutMs = 2000): Promise<EventOfType<T>> {
    const deadline = Date.now() + timeoutMs;
    for (let i = 0; i < 200; i++) {
      const index = this.buffer.findIndex((e) => e.type === type && match(e as EventOfType<T>));
      if (index >= 0) return this.buffer.splice(index, 1)[0] as EventOfType<T>;
      if (i > 0 && Date.now() > deadline) break;
      if (i > 0) await new Promise((r) => setTimeout(r, 20));
      this.buffer.push(...(await this.poll()));
    }
    const seen = this.buffer.map((e) => ("op" in e ? `${e.type}/${String(e.op)}` : e.type));
    throw new Error(`no ${type} event within ${timeoutMs} ms; queue held: ${seen.join(", ") || "nothing"}`);
  }

  /** Like `next`, for one `op` of the type, typed as that variant. */
  async nextOp<T extends KnownEventType, O extends string>(
    type: T,
    op: O,
    match: (e: Extract<EventOfType<T>, { op: O }>) => boolean = () => true,
  ): Promise<Extract<EventOfType<T>, { op: O }>> {
    const e = await this.next(type, (x) => (x as { op?: unknown }).op === op && match(x as Extract<EventOfType<T>, { op: O }>));
    return e as Extract<EventOfType<T>, { op: O }>;
  }

  /** Asserts no pending event of `type` (after the calls that would have caused one returned). */
  async expectNone(type: KnownEventType | "unknown", match: (e: ServerEvent) => boolean = () => true): Promise<void> {
    const events = await this.all();
    expect(events.filter((e) => e.type === type && match(e))).toEqual([]);
  }

  close(): Promise<unknown> {
    return deleteQueue(this.client, this.queueId);
  }
}
