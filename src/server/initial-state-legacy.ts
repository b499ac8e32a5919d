// Register sections kept for older clients: the deprecated `muted_topics`
// list (only when its replacement `user_topic` is not asked for by name), the
// legacy linkifier list (always empty since its replacement), and sections of
// features this server does not have, served empty as the service serves an
// organization without them.

import type { ServerContext } from "./context.js";
import { mutedTopics } from "./muted-topics.js";

type Section = Record<string, unknown>;

export function legacySections(ctx: ServerContext, userId: number, fetchTypes: Set<string> | null): Section {
  const want = (type: string) => fetchTypes === null || fetchTypes.has(type);
  const out: Section = {};
  if (want("muted_topics") && !fetchTypes?.has("user_topic")) out["muted_topics"] = mutedTopics(ctx, userId);
  if (want("realm_filters")) out["realm_filters"] = [];
  if (want("realm_playgrounds")) out["realm_playgrounds"] = [];
  if (want("realm_domains")) out["realm_domains"] = [];
  if (want("default_stream_groups")) out["realm_default_stream_groups"] = [];
  if (want("stop_words")) out["stop_words"] = [];
  if (want("realm_embedded_bots")) out["realm_embedded_bots"] = [];
  if (want("realm_incoming_webhook_bots")) out["realm_incoming_webhook_bots"] = [];
  return out;
}
