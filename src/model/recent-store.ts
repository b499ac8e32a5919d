/**
 * The recent conversations model beside the rest of the store: what the
 * register tells of it, and the batches the recent view loads for itself.
 */
import type { Message } from "../api/schemas/common.js";
import type { RegisterResponse } from "../api/schemas/register.js";
import { locationOf } from "./apply-messages.js";
import { mentionKind } from "./narrow.js";
import { RecentConversations } from "./recent.js";
import type { Store } from "./store.js";
import { newestOf } from "./unreads.js";

/** Built after the unread model: recent direct-message conversations and every conversation with unread messages. */
export function recentFromRegister(store: Store, reg: RegisterResponse): RecentConversations {
  const u = store.unreads;
  const recent = new RecentConversations(store.selfId, (c) => newestOf(c.kind === "topic" ? u.idsInTopic(c.channelId, c.topic) : u.idsInDm([...c.userIds])));
  recent.batch(() => {
    for (const c of reg.recent_private_conversations) recent.noteDm(c.user_ids, c.max_message_id);
    for (const channelId of u.channelIds()) {
      for (const b of u.topicBuckets(channelId)) recent.noteTopicMax(channelId, b.topic, newestOf(b.ids));
    }
    for (const b of u.dmBuckets()) recent.noteDm(b.userIds, newestOf(b.ids));
  });
  return recent;
}

/**
 * A batch the recent view fetched (GET /messages, newest first in time).
 * Only what the view needs is kept (who wrote when, where): the messages
 * themselves are not stored, so loading thousands costs little memory.
 */
export function addRecentMessages(store: Store, messages: readonly Message[]): void {
  store.recent.batch(() => addEach(store, messages));
  store.changed();
}

function addEach(store: Store, messages: readonly Message[]): void {
  for (const m of messages) {
    const known = store.messages.byId.get(m.id);
    store.noteMessage(known ?? m);
    // Without the old unreads, a fetched message is the only news of them.
    if (!known && store.unreads.oldUnreadsMissing && !m.flags.includes("read") && !store.unreads.has(m.id)) {
      store.unreads.add(m.id, locationOf(m), mentionKind(m.flags));
    }
  }
}
