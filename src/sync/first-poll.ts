/**
 * A start's first events poll, sent as soon as the register's answer names its queue: from a look
 * at its first bytes while the rest arrives (leadingScalars: a server that gives the queue first),
 * else from a look at its whole bytes (peekScalars), else from its parse; before the check (tens
 * of milliseconds on a cold start) and before the store is built and drawn, so the server hears
 * from the new queue at once. A parse that contradicts the look polls the parsed queue instead;
 * an answer the check then refuses, or that fails to arrive whole, stops the poll
 * (update-machine.ts, rebuild). The look also finds the server's feature level, for the refetch
 * of the cached narrows that leaves right after the poll.
 */
import { turns, type ApiClient } from "../api/http.js";
import { leadingScalars, peekScalars } from "../api/json-sections.js";
import type { EventsResult, getEvents, RegisterLooks } from "../api/routes/events.js";

/** What a look at the register's bytes takes: the queue's members and the server's feature level (either spelling). */
const LOOKED_AT = ["queue_id", "last_event_id", "event_queue_longpoll_timeout_seconds", "svc_feature_level", "zulip_feature_level"] as const;

/** The register's members a look at its bytes found (each scalar that occurs once). */
export function lookAtRegister(bytes: Buffer): Record<string, unknown> {
  return peekScalars(bytes, LOOKED_AT);
}

/**
 * A look at the register's first bytes while the rest arrives (a member of the answer's top level
 * before its first object or array: the reference server gives the queue first): what it found
 * once it holds the queue, else undefined; `done` once more bytes could not add to it.
 */
export function lookAtRegisterHead(head: Buffer): { seen?: Record<string, unknown>; done: boolean } {
  const { found, more } = leadingScalars(head, LOOKED_AT);
  const queued = typeof found["queue_id"] === "string" && typeof found["last_event_id"] === "number";
  return { seen: queued ? found : undefined, done: queued || !more };
}

/** The feature level a look at the register's bytes found, if it found one. */
export function lookedLevel(seen: Record<string, unknown>): number | undefined {
  const level = seen["svc_feature_level"] ?? seen["zulip_feature_level"];
  return typeof level === "number" && Number.isSafeInteger(level) && level >= 0 ? level : undefined;
}

/**
 * The register's looks at a start: the first poll leaves from the first that finds the queue
 * (its first bytes, its whole bytes, its parse before the check), and the refetch of the cached
 * narrows from the first that finds the feature level.
 */
export function registerLooks(poll: FirstPoll, refetching?: { at(level: number): void }, idleConnection: () => boolean | undefined = () => undefined): RegisterLooks {
  // The poll first: while the answer arrives it takes the idle connection there is, and the
  // refetch, whose answer is wanted only once the store is built, the next.
  const found = async (seen: Record<string, unknown>) => {
    const level = lookedLevel(seen);
    try {
      await poll.send(seen);
    } finally {
      if (level !== undefined) refetching?.at(level);
    }
  };
  return {
    lookAtHead: (head) => {
      const { seen, done } = lookAtRegisterHead(head);
      if (!seen) return done;
      // The answer's own connection is busy until its end: the poll leaves now only on another one
      // open and idle (a new one would cost its set-up first), else at a later piece or at the end.
      if (idleConnection() === false) return false;
      found(seen).catch(() => undefined); // a stopped machine: the register's own await says so
      return true;
    },
    beforeParse: (bytes) => found(lookAtRegister(bytes)),
    beforeCheck: (json) => poll.send(json),
  };
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

/** A first poll, from the moment it is asked for: it leaves a turn later, unless stopped by then. */
interface Poll {
  queueId: string;
  lastEventId: number;
  stop: AbortController;
  /** The poll's reply, once it has left. */
  reply?: Promise<EventsResult>;
  /** Settles once it has left (or was stopped before it could). */
  out: Promise<void>;
}

export class FirstPoll {
  private poll: Poll | undefined;

  constructor(private readonly o: FirstPollOptions) {}

  /** The queue polled, if a poll was asked for. */
  get queueId(): string | undefined {
    return this.poll?.queueId;
  }

  /**
   * Polls the queue `reg` names (a look at the register's first bytes while the rest arrives, at
   * its whole bytes, or its parse), unless that poll is out or on its way already. It waits one
   * turn of the event loop first: the HTTP client reuses a connection only then, and a poll sent
   * once the answer is in takes the register's instead of opening a new one and waiting its
   * set-up (TCP and TLS round trips); one sent while it arrives takes another idle connection
   * (the one that asked for the user's own record, at start). The client checks an idle
   * connection for a turn or two before writing on it.
   */
  async send(reg: unknown): Promise<void> {
    if (typeof reg !== "object" || reg === null) return;
    const { queue_id: queueId, last_event_id: lastEventId, event_queue_longpoll_timeout_seconds: heartbeatS } = reg as Record<string, unknown>;
    if (typeof queueId !== "string" || !queueId || typeof lastEventId !== "number" || !Number.isSafeInteger(lastEventId)) return;
    const current = this.poll;
    if (current && current.queueId === queueId && current.lastEventId === lastEventId) return current.out;
    // Asked for from a look at the bytes that the parse contradicts: that poll is not this queue's.
    current?.stop.abort();
    const poll: Poll = { queueId, lastEventId, stop: new AbortController(), out: Promise.resolve() };
    poll.out = this.leave(poll, heartbeatS);
    this.poll = poll;
    return poll.out;
  }

  private async leave(poll: Poll, heartbeatS: unknown): Promise<void> {
    await turns(1);
    this.o.checkStopped();
    if (poll.stop.signal.aborted) return; // dropped, or given way to another queue, while it waited its turn
    poll.reply = this.o.getEvents(
      this.o.client,
      { queue_id: poll.queueId, last_event_id: poll.lastEventId },
      {
        timeoutMs: (typeof heartbeatS === "number" && heartbeatS > 0 ? heartbeatS : 90) * 1000 + (this.o.pollMarginMs ?? 15_000),
        signal: AbortSignal.any([this.o.signal, poll.stop.signal]),
      },
    );
    poll.reply.catch(() => undefined); // the poll loop reads its outcome
    await turns(2); // it goes out on the reused connection in those, not after the store is built
  }

  /** The poll's reply, for the poll loop (and forgets it). */
  take(): Promise<EventsResult> | undefined {
    const reply = this.poll?.reply;
    this.poll = undefined;
    return reply;
  }

  /** Stops the poll, or keeps it from leaving (a rebuild that failed half-way). */
  drop(): void {
    this.poll?.stop.abort();
    this.poll = undefined;
  }
}
