// Sending events to the queues of a set of users, each queue filtered by the
// event types it registered for; the event may be shaped per queue (client
// capabilities) or skipped for a queue by returning null.

import type { ServerContext } from "./context.js";
import type { EventQueue, ServerEvent } from "./queues.js";

export type EventBuilder = (queue: EventQueue) => ServerEvent | null;

export function sendToUsers(ctx: ServerContext, userIds: Iterable<number>, type: string, build: EventBuilder | ServerEvent): void {
  const wanted = new Set(userIds);
  if (wanted.size === 0) return;
  for (const queue of ctx.queues.all()) {
    if (!wanted.has(queue.userId) || !queue.wants(type)) continue;
    const event = typeof build === "function" ? build(queue) : structuredClone(build);
    if (event) ctx.queues.push(queue, event);
  }
}

/** Every queue of every active user. */
export function sendToRealm(ctx: ServerContext, type: string, build: EventBuilder | ServerEvent): void {
  const ids = [...ctx.state.users.values()].filter((u) => u.isActive).map((u) => u.id);
  sendToUsers(ctx, ids, type, build);
}
