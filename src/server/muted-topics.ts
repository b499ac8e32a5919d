// The deprecated `muted_topics` form of a user's topic preferences: a list of
// [channel name, topic, time muted] for the muted topics only. It is served in
// the register response and as `muted_topics` events to clients that did not
// explicitly ask for its replacement, `user_topic`.

import type { ServerContext } from "./context.js";
import type { EventQueue } from "./queues.js";
import { clientTopic } from "./wire.js";

/** Visibility policy value of a muted topic. */
const MUTED = 1;

export function mutedTopics(ctx: ServerContext, userId: number): [string, string, number][] {
  const out: [string, string, number][] = [];
  for (const t of ctx.state.userTopics) {
    if (t.userId !== userId || t.visibilityPolicy !== MUTED) continue;
    const channel = ctx.state.channels.get(t.channelId);
    if (!channel) continue;
    out.push([channel.name, clientTopic(ctx, t.topic, false), t.lastUpdated]);
  }
  return out;
}

/** Whether the legacy form goes to this queue: asked for (or all types), and user_topic not named. */
function wantsLegacy(queue: EventQueue): boolean {
  const types = queue.settings.eventTypes;
  return types === null || (types.has("muted_topics") && !types.has("user_topic"));
}

/** A `muted_topics` event with the user's whole current list, to each of the user's queues that takes it. */
export function sendMutedTopics(ctx: ServerContext, userId: number): void {
  const list = mutedTopics(ctx, userId);
  for (const queue of ctx.queues.forUser(userId)) {
    if (!wantsLegacy(queue)) continue;
    ctx.queues.push(queue, { type: "muted_topics", muted_topics: list.map((entry) => [...entry]) });
  }
}
