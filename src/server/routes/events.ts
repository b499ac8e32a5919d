// GET /events (long-poll) and DELETE /events (drop a queue).

import type { Route } from "../http.js";

export const eventRoutes: Route[] = [
  {
    method: "GET",
    path: "/events",
    async handler({ server, params, user, signal }) {
      const queueId = params.reqStr("queue_id");
      const lastEventId = params.int("last_event_id");
      const dontBlock = params.bool("dont_block") ?? false;
      const queue = server.queues.get(queueId, user.id);
      const events = await server.queues.poll(queue, lastEventId, dontBlock, signal);
      return { events };
    },
  },
  {
    method: "DELETE",
    path: "/events",
    handler({ server, params, user }) {
      server.queues.delete(params.reqStr("queue_id"), user.id);
      return {};
    },
  },
];
