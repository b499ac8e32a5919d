/**
 * Message flags the reader sets by hand: starring, and marking a whole
 * narrow read. The store follows through the server's flag events.
 */
import { markAllAsRead, markChannelAsRead, markTopicAsRead, updateMessageFlags, updateMessageFlagsForNarrow } from "../../api/routes/message-flags.js";
import { narrowToApi, type Narrow } from "../../model/narrow.js";
import type { Store } from "../../model/store.js";
import { command, failed, perform, type ActionResult, type ActionSession } from "./result.js";

const MAX_ROUNDS = 100;

export function setStarred(session: ActionSession, messageId: number, starred: boolean): Promise<ActionResult> {
  return command(session, (c) => updateMessageFlags(c, { messages: [messageId], op: starred ? "add" : "remove", flag: "starred" }));
}

export function markChannelRead(session: ActionSession, channelId: number): Promise<ActionResult> {
  return command(session, (c) => markChannelAsRead(c, channelId));
}

export function markTopicRead(session: ActionSession, channelId: number, topic: string): Promise<ActionResult> {
  return command(session, (c) => markTopicAsRead(c, channelId, topic));
}

/** Everything read; the server works in batches, asked again until it says it is done (bounded). */
export function markAllRead(session: ActionSession): Promise<ActionResult> {
  return perform(async () => {
    for (let i = 0; i < MAX_ROUNDS; i++) if ((await markAllAsRead(session.machine.client)).complete) return;
    throw new Error("The server is still marking messages as read; try again in a moment");
  });
}

/**
 * Marks every message of a narrow read on the server: a channel and "all"
 * through their own operations, anything else through flags-by-narrow,
 * window after window until the newest message (at most MAX_ROUNDS windows).
 */
export async function markNarrowRead(session: ActionSession, store: Store, narrow: Narrow): Promise<ActionResult> {
  if (narrow.kind === "channel") return markChannelRead(session, narrow.channelId);
  if (narrow.kind === "feed") return markAllRead(session);
  if (narrow.kind === "search") return failed("Search results are not marked read; open a topic or channel first");
  // Servers before flags-by-narrow (feature level 155) have the topic operation only.
  if (narrow.kind === "topic" && store.realm.featureLevel < 155) return markTopicRead(session, narrow.channelId, narrow.topic);
  const client = session.machine.client;
  return perform(async () => {
    // From the oldest unread message the client knows of, else from the oldest: not "first_unread",
    // which the server looks for outside muted topics only (so a muted topic would stay unread).
    // (When the register left old unreads out, the client does not know the oldest: from the oldest message.)
    let anchor: number | "oldest" = (store.unreads.oldUnreadsMissing ? undefined : store.firstUnreadIn(narrow)) ?? "oldest";
    for (let i = 0; i < MAX_ROUNDS; i++) {
      const res = await updateMessageFlagsForNarrow(client, {
        anchor,
        include_anchor: i === 0,
        num_before: 0,
        num_after: 1000,
        narrow: narrowToApi(narrow, store.realm.featureLevel),
        op: "add",
        flag: "read",
      });
      // Go on only while the server says there is more and the anchor moves forward (an answer
      // without those fields, or one that repeats itself, ends the loop instead of spinning).
      const next = res.last_processed_id;
      if (res.found_newest !== false || typeof next !== "number" || (typeof anchor === "number" && next <= anchor)) return;
      anchor = next;
    }
  });
}
