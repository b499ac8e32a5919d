/**
 * One exhaustive switch from server events to store changes. Returns whether
 * anything a view shows may have changed.
 */
import type { Message } from "../api/schemas/common.js";
import { subscriptionAddSchema, type ServerEvent, type SubscriptionEvent, type UpdateMessageEvent } from "../api/schemas/events.js";
import { userSchema } from "../api/schemas/common.js";
import { messageDmUsers, topicKey } from "./narrow.js";
import { normalizeSubscription, type Store } from "./store.js";

export function applyEvent(store: Store, e: ServerEvent): boolean {
  switch (e.type) {
    case "heartbeat":
    case "unknown":
      return false;
    case "message": {
      const m: Message = { ...e.message, flags: e.flags };
      store.insertLive(m);
      if (!m.flags.includes("read")) {
        const mentioned = m.flags.includes("mentioned") || m.flags.includes("wildcard_mentioned");
        store.unreads.add(
          m.id,
          m.type === "stream"
            ? { type: "stream", channelId: m.stream_id, topic: m.subject }
            : { type: "private", userIds: messageDmUsers(m) },
          mentioned,
        );
      }
      return true;
    }
    case "update_message_flags":
      return applyFlags(store, e);
    case "update_message":
      return applyUpdateMessage(store, e);
    case "delete_message": {
      const ids = new Set(e.message_ids ?? (e.message_id !== undefined ? [e.message_id] : []));
      for (const id of ids) store.messages.byId.delete(id);
      store.messages.removeFromLists(ids);
      store.unreads.removeMany(ids);
      return true;
    }
    case "reaction": {
      const m = store.messages.byId.get(e.message_id);
      if (!m) return false;
      const same = (r: Message["reactions"][number]) =>
        r.user_id === e.user_id && r.emoji_code === e.emoji_code && r.reaction_type === e.reaction_type;
      if (e.op === "add") {
        if (m.reactions.some(same)) return false;
        m.reactions = [
          ...m.reactions,
          { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id },
        ];
      } else {
        m.reactions = m.reactions.filter((r) => !same(r));
      }
      return true;
    }
    case "subscription":
      return applySubscription(store, e);
    case "realm_user": {
      const id = e.person.user_id;
      if (e.op === "add") {
        const parsed = userSchema.safeParse(e.person);
        if (parsed.success) store.users.set(id, parsed.data);
        return parsed.success;
      }
      const u = store.users.get(id);
      if (!u) return false;
      if (e.op === "remove") store.users.set(id, { ...u, is_active: false });
      else store.users.set(id, { ...u, ...(e.person as object) });
      return true;
    }
    case "typing":
      return false;
    default:
      // Event types the model does not keep yet.
      return false;
  }
}

function applyFlags(store: Store, e: Extract<ServerEvent, { type: "update_message_flags" }>): boolean {
  const op = e.op ?? e.operation;
  if (e.flag === "read") {
    if (op === "add") {
      if (e.all) store.unreads.clear();
      else store.unreads.removeMany(e.messages);
    } else if (op === "remove") {
      for (const id of e.messages) {
        const d = e.message_details?.[String(id)];
        const m = store.messages.byId.get(id);
        if (d) {
          store.unreads.add(
            id,
            d.type === "stream"
              ? { type: "stream", channelId: d.stream_id, topic: d.topic }
              : { type: "private", userIds: d.user_ids ?? [] },
            d.mentioned ?? false,
          );
        } else if (m) {
          store.unreads.add(
            id,
            m.type === "stream"
              ? { type: "stream", channelId: m.stream_id, topic: m.subject }
              : { type: "private", userIds: messageDmUsers(m) },
            m.flags.includes("mentioned") || m.flags.includes("wildcard_mentioned"),
          );
        }
      }
    }
  }
  if ((e.flag === "mentioned" || e.flag === "wildcard_mentioned") && op) {
    for (const id of e.messages) store.unreads.setMentioned(id, op === "add");
  }
  const targets = e.all ? [...store.messages.byId.keys()] : e.messages;
  for (const id of targets) {
    const m = store.messages.byId.get(id);
    if (!m) continue;
    const has = m.flags.includes(e.flag);
    if (op === "add" && !has) m.flags = [...m.flags, e.flag];
    else if (op === "remove" && has) m.flags = m.flags.filter((f) => f !== e.flag);
  }
  return true;
}

function applyUpdateMessage(store: Store, e: UpdateMessageEvent): boolean {
  const m = store.messages.byId.get(e.message_id);
  if (m && e.content !== undefined && !e.rendering_only) {
    m.content = e.content;
    if (e.edit_timestamp !== undefined) m.last_edit_timestamp = e.edit_timestamp;
  }
  if (m && e.is_me_message !== undefined) m.is_me_message = e.is_me_message;
  const moved = e.subject !== undefined || (e.new_stream_id !== undefined && e.new_stream_id !== e.stream_id);
  if (!moved) return m !== undefined;
  const newChannel = e.new_stream_id ?? e.stream_id;
  const newTopic = e.subject ?? e.orig_subject ?? "";
  if (newChannel === undefined) return true;
  const ids = new Set(e.message_ids);
  for (const id of ids) {
    const msg = store.messages.byId.get(id);
    if (!msg) continue;
    msg.stream_id = newChannel;
    msg.subject = newTopic;
    if (e.edit_timestamp !== undefined) msg.last_moved_timestamp = e.edit_timestamp;
    store.noteMessage(msg);
  }
  store.unreads.move(ids, newChannel, newTopic);
  // Lists of the old place lose the messages; lists of the new place are refetched by their views.
  for (const l of store.messages.lists.values()) {
    const n = l.narrow;
    if (n.kind === "topic" || n.kind === "channel") {
      const stillHere = (id: number) => {
        const msg = store.messages.byId.get(id);
        if (!msg || !ids.has(id)) return true;
        return msg.stream_id === n.channelId && (n.kind === "channel" || topicKey(msg.subject) === topicKey(n.topic));
      };
      l.ids = l.ids.filter(stillHere);
    }
  }
  return true;
}

function applySubscription(store: Store, e: SubscriptionEvent): boolean {
  switch (e.op) {
    case "add": {
      const parsed = subscriptionAddSchema.safeParse(e.subscriptions ?? []);
      if (!parsed.success) return false;
      for (const s of parsed.data) store.channels.set(s.stream_id, normalizeSubscription(s));
      return true;
    }
    case "remove": {
      for (const s of (e.subscriptions ?? []) as Array<{ stream_id?: number }>) {
        if (typeof s.stream_id === "number") store.channels.delete(s.stream_id);
      }
      return true;
    }
    case "update": {
      if (e.stream_id === undefined || !e.property) return false;
      const s = store.channels.get(e.stream_id);
      if (!s) return false;
      const next: Record<string, unknown> = { ...s, [e.property]: e.value };
      if (e.property === "in_home_view") next.is_muted = !e.value;
      if (e.property === "is_muted") next.in_home_view = !e.value;
      store.channels.set(e.stream_id, next as typeof s);
      return true;
    }
    case "peer_add":
    case "peer_remove": {
      const delta = (e.user_ids?.length ?? 0) * (e.op === "peer_add" ? 1 : -1);
      for (const id of e.stream_ids ?? []) {
        const s = store.channels.get(id);
        if (!s) continue;
        const subscribers = s.subscribers
          ? e.op === "peer_add"
            ? [...new Set([...s.subscribers, ...(e.user_ids ?? [])])]
            : s.subscribers.filter((u) => !(e.user_ids ?? []).includes(u))
          : undefined;
        store.channels.set(id, { ...s, subscribers, subscriber_count: Math.max(0, (s.subscriber_count ?? 0) + delta) });
      }
      return true;
    }
  }
}
