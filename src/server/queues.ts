// Event queues: one per registered client. Events get per-queue increasing ids
// starting at 0; a poll acknowledges (drops) events up to last_event_id, returns
// pending ones at once, or waits until an event arrives or the heartbeat period
// passes. A queue nobody polls for its idle lifetime is garbage-collected.

import { randomUUID } from "node:crypto";
import { badEventQueue } from "./errors.js";
import type { NarrowTerm } from "./narrow.js";

export interface ServerEvent {
  type: string;
  [field: string]: unknown;
}
export type QueuedEvent = ServerEvent & { id: number };

export interface QueueSettings {
  userId: number;
  /** null: every type. */
  eventTypes: Set<string> | null;
  /** Register-time narrow restricting message events (empty = everything). */
  narrow: NarrowTerm[];
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  capabilities: Record<string, boolean>;
  idleMs: number;
}

interface Waiter {
  resolve(events: QueuedEvent[]): void;
  heartbeat: NodeJS.Timeout;
  flushScheduled: boolean;
}

export class EventQueue {
  readonly events: QueuedEvent[] = [];
  private nextEventId = 0;
  waiter: Waiter | null = null;
  lastActivity: number;
  gcTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly id: string,
    readonly settings: QueueSettings,
    now: number,
  ) {
    this.lastActivity = now;
  }

  get userId(): number {
    return this.settings.userId;
  }

  get lastEventId(): number {
    return this.nextEventId - 1;
  }

  wants(type: string): boolean {
    return this.settings.eventTypes === null || this.settings.eventTypes.has(type);
  }

  capability(name: string): boolean {
    return this.settings.capabilities[name] === true;
  }

  append(event: ServerEvent): QueuedEvent {
    const queued = { ...event, id: this.nextEventId++ } as QueuedEvent;
    this.events.push(queued);
    return queued;
  }

  acknowledge(lastEventId: number): void {
    let drop = 0;
    while (drop < this.events.length && this.events[drop]!.id <= lastEventId) drop++;
    if (drop > 0) this.events.splice(0, drop);
  }
}

export class QueueManager {
  private readonly queues = new Map<string, EventQueue>();
  private closed = false;

  constructor(
    private readonly clock: () => number,
    private readonly heartbeatMs: number,
  ) {}

  create(settings: QueueSettings): EventQueue {
    const queue = new EventQueue(randomUUID(), settings, this.clock());
    this.queues.set(queue.id, queue);
    this.armGc(queue);
    return queue;
  }

  /** The user's queue with that id, or BAD_EVENT_QUEUE_ID. */
  get(queueId: string, userId: number): EventQueue {
    const queue = this.queues.get(queueId);
    if (!queue || queue.userId !== userId) throw badEventQueue(queueId);
    if (!queue.waiter && this.clock() - queue.lastActivity >= queue.settings.idleMs) {
      this.remove(queue);
      throw badEventQueue(queueId);
    }
    return queue;
  }

  delete(queueId: string, userId: number): void {
    this.remove(this.get(queueId, userId));
  }

  forUser(userId: number): EventQueue[] {
    return [...this.queues.values()].filter((q) => q.userId === userId);
  }

  all(): EventQueue[] {
    return [...this.queues.values()];
  }

  /** Adds an event to one queue, waking its pending poll. */
  push(queue: EventQueue, event: ServerEvent): void {
    if (!this.queues.has(queue.id)) return;
    queue.append(event);
    const waiter = queue.waiter;
    if (waiter && !waiter.flushScheduled) {
      // Deliver at the end of the current job so that events emitted together
      // by one request arrive in one response.
      waiter.flushScheduled = true;
      queueMicrotask(() => this.finishPoll(queue, waiter));
    }
  }

  /**
   * Long-polls a queue. `signal` aborts when the client goes away; the queue
   * then counts as idle from that moment.
   */
  poll(queue: EventQueue, lastEventId: number | undefined, dontBlock: boolean, signal: AbortSignal): Promise<QueuedEvent[]> {
    if (lastEventId !== undefined) queue.acknowledge(lastEventId);
    this.touch(queue);
    if (queue.events.length > 0 || dontBlock || this.closed) return Promise.resolve([...queue.events]);
    if (queue.waiter) this.finishPoll(queue, queue.waiter); // a newer poll replaces the older one
    if (queue.gcTimer) clearTimeout(queue.gcTimer);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        resolve,
        flushScheduled: false,
        heartbeat: setTimeout(() => this.push(queue, { type: "heartbeat" }), this.heartbeatMs),
      };
      waiter.heartbeat.unref(); // the pending request keeps the process alive, not the timer
      queue.waiter = waiter;
      signal.addEventListener("abort", () => this.finishPoll(queue, waiter), { once: true });
    });
  }

  /** Ends every pending poll and forgets all queues. */
  shutdown(): void {
    this.closed = true;
    for (const queue of this.queues.values()) {
      if (queue.waiter) this.finishPoll(queue, queue.waiter);
      if (queue.gcTimer) clearTimeout(queue.gcTimer);
    }
    this.queues.clear();
  }

  private finishPoll(queue: EventQueue, waiter: Waiter): void {
    if (queue.waiter !== waiter) return;
    clearTimeout(waiter.heartbeat);
    queue.waiter = null;
    this.touch(queue);
    if (!this.closed) this.armGc(queue);
    waiter.resolve([...queue.events]);
  }

  private touch(queue: EventQueue): void {
    queue.lastActivity = this.clock();
  }

  /** Collects the queue once it has been idle for its lifetime (activity since arming postpones it). */
  private armGc(queue: EventQueue, delayMs = queue.settings.idleMs): void {
    if (queue.gcTimer) clearTimeout(queue.gcTimer);
    queue.gcTimer = setTimeout(() => {
      queue.gcTimer = null;
      if (queue.waiter || this.closed) return;
      const idle = this.clock() - queue.lastActivity;
      if (idle >= queue.settings.idleMs) this.remove(queue);
      else this.armGc(queue, queue.settings.idleMs - idle);
    }, Math.max(1, delayMs));
    queue.gcTimer.unref();
  }

  /** Number of live queues (for tests and diagnostics). */
  get size(): number {
    return this.queues.size;
  }

  private remove(queue: EventQueue): void {
    if (queue.gcTimer) clearTimeout(queue.gcTimer);
    this.queues.delete(queue.id);
    const waiter = queue.waiter;
    if (waiter) {
      clearTimeout(waiter.heartbeat);
      queue.waiter = null;
      waiter.resolve([]);
    }
  }
}
