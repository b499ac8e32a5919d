/**
 * A start's first events poll, sent as soon as the register's answer is in: from a look at its
 * bytes (peekScalars), else from its parse, before the check (tens of milliseconds on a cold
 * start) and before the store is built and drawn, so the server hears from the new queue at
 * once. A parse that contradicts the look polls the parsed queue instead; an answer the check
 * then refuses stops the poll (update-machine.ts, rebuild). The look also finds the server's
 * feature level, for the refetch of the cached narrows that leaves beside the poll.
 */
import { turns, type ApiClient } from "../api/http.js";
import { peekScalars } from "../api/json-sections.js";
import type { EventsResult, getEvents } from "../api/routes/events.js";

/** What a look at the register's bytes takes: the queue's members and the server's feature level (either spelling). */
const LOOKED_AT = ["queue_id", "last_event_id", "event_queue_longpoll_timeout_seconds", "svc_feature_level", "zulip_feature_level"] as const;

/** The register's members a look at its bytes found (each scalar that occurs once). */
export function lookAtRegister(bytes: Buffer): Record<string, unknown> {
  return peekScalars(bytes, LOOKED_AT);
}

/** The feature level a look at the register's bytes found, if it found one. */
export function lookedLevel(seen: Record<string, unknown>): number | undefined {
  const level = seen["svc_feature_level"] ?? seen["zulip_feature_level"];
  return typeof level === "number" && Number.isSafeInteger(level) && level >= 0 ? level : undefined;
}

export interface FirstPollOptions {
  client: ApiClient;
  getEvents: typeof getEvents;
  /** The machine's: aborts the poll when it stops. */
  signal: AbortSignal;
  /** Throws when the machine has stopped. */
  checkStopped: () => void;
  /** Beyond the server's heartbeat, how long the poll may take (default 15 s). */
  pollMarginMs?: number;
}

export class FirstPoll {
  private sent: { reply: Promise<EventsResult>; stop: AbortController; queueId: string; lastEventId: number } | undefined;

  constructor(private readonly o: FirstPollOptions) {}

  /** The queue polled, if a poll was sent. */
  get queueId(): string | undefined {
    return this.sent?.queueId;
  }

  /**
   * Polls the queue `reg` names (a look at the register's bytes, or its parse), unless that poll
   * is out already. It waits one turn of the event loop first: the HTTP client reuses a
   * connection only then, and the poll takes the register's instead of opening a new one and
   * waiting its set-up (TCP and TLS round trips). The client checks an idle connection for a
   * turn or two before writing on it.
   */
  async send(reg: unknown): Promise<void> {
    if (typeof reg !== "object" || reg === null) return;
    const { queue_id: queueId, last_event_id: lastEventId, event_queue_longpoll_timeout_seconds: heartbeatS } = reg as Record<string, unknown>;
    if (typeof queueId !== "string" || !queueId || typeof lastEventId !== "number" || !Number.isSafeInteger(lastEventId)) return;
    const sent = this.sent;
    if (sent && sent.queueId === queueId && sent.lastEventId === lastEventId) return;
    // Sent from a look at the bytes that the parse contradicts: that poll is not this queue's.
    sent?.stop.abort();
    await turns(1);
    this.o.checkStopped();
    const stop = new AbortController();
    const reply = this.o.getEvents(
      this.o.client,
      { queue_id: queueId, last_event_id: lastEventId },
      {
        timeoutMs: (typeof heartbeatS === "number" && heartbeatS > 0 ? heartbeatS : 90) * 1000 + (this.o.pollMarginMs ?? 15_000),
        signal: AbortSignal.any([this.o.signal, stop.signal]),
      },
    );
    reply.catch(() => undefined); // the poll loop reads its outcome
    this.sent = { reply, stop, queueId, lastEventId };
    await turns(2); // it goes out on the reused connection in those, not after the store is built
  }

  /** The poll's reply, for the poll loop (and forgets it). */
  take(): Promise<EventsResult> | undefined {
    const reply = this.sent?.reply;
    this.sent = undefined;
    return reply;
  }

  /** Stops the poll (a rebuild that failed half-way). */
  drop(): void {
    this.sent?.stop.abort();
    this.sent = undefined;
  }
}
