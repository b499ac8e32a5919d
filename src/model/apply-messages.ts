/**
 * Events about messages: new, edited or moved, deleted, reactions, flags.
 * Each touches several sub-models (messages and their lists, unreads, topics,
 * recent DMs), so they live together here. Hot paths change records in place:
 * no array copies per event, O(1) work per message id for flags.
 */
import type { Message } from "../api/schemas/common.js";
import type {
  DeleteMessageEvent,
  MessageEvent,
  ReactionEvent,
  SubmessageEvent,
  UpdateMessageEvent,
  UpdateMessageFlagsEvent,
} from "../api/schemas/events.js";
import { MENTION_FLAGS, mentionKind, messageDmUsers, topicKey, type Narrow } from "./narrow.js";
import type { Store } from "./store.js";
import type { MentionKind, UnreadLocation } from "./unreads.js";

/** The prefix of a resolved topic. */
export const RESOLVED_PREFIX = "✔ ";

function unresolved(topic: string): string {
  return topic.startsWith(RESOLVED_PREFIX) ? topic.slice(RESOLVED_PREFIX.length) : topic;
}

export function locationOf(m: Message): UnreadLocation {
  return m.type === "stream"
    ? { type: "stream", channelId: m.stream_id, topic: m.subject }
    : { type: "private", userIds: messageDmUsers(m) };
}

export function applyMessage(store: Store, e: MessageEvent): boolean {
  const m = e.message;
  m.flags = e.flags;
  store.insertLive(m);
  if (!hasFlag(m, "read")) store.unreads.add(m.id, locationOf(m), mentionKind(m.flags));
  if (hasFlag(m, "starred")) store.messages.starred.add(m.id);
  return true;
}

function hasFlag(m: Message, flag: string): boolean {
  return m.flags.includes(flag);
}

export function applyUpdateMessage(store: Store, e: UpdateMessageEvent): boolean {
  const m = store.messages.byId.get(e.message_id);
  let changed = false;
  if (e.content !== undefined) {
    changed = true;
    if (m) {
      m.content = e.content;
      if (!e.rendering_only && e.edit_timestamp !== undefined) m.last_edit_timestamp = e.edit_timestamp;
      if (e.is_me_message !== undefined) m.is_me_message = e.is_me_message;
    }
    if (!e.rendering_only) {
      // The event carries the user's flags after the edit: mentions may have come or gone.
      // Only mention flags are taken from it; read and starred follow their own events.
      if (m) setMentionFlags(m, e.flags);
      if (store.unreads.has(e.message_id)) store.unreads.setMention(e.message_id, mentionKind(e.flags));
      if (m) store.messages.reconsider(e.message_id, store, (l) => l.narrow.kind === "search" || l.narrow.kind === "mentioned");
    }
  }
  const newChannel = e.new_stream_id ?? e.stream_id;
  const channelMoved = e.new_stream_id !== undefined && e.new_stream_id !== e.stream_id;
  const topicMoved = e.subject !== undefined && e.orig_subject !== undefined && e.subject !== e.orig_subject;
  if (newChannel === undefined || !(channelMoved || topicMoved)) return changed || m !== undefined;
  applyMove(store, e, newChannel, channelMoved);
  return true;
}

function applyMove(store: Store, e: UpdateMessageEvent, newChannel: number, channelMoved: boolean): void {
  const ids = new Set(e.message_ids);
  ids.add(e.message_id);
  const oldChannel = e.stream_id ?? newChannel;
  const newTopic = e.subject; // undefined: a move between channels keeping each message's topic
  const resolveOnly =
    !channelMoved && newTopic !== undefined && e.orig_subject !== undefined && unresolved(newTopic) === unresolved(e.orig_subject);
  const channelName = store.channelName(newChannel);
  let maxMoved = -1;
  const oldTopics = new Set<string>();
  for (const id of ids) {
    if (id > maxMoved) maxMoved = id;
    const msg = store.messages.byId.get(id);
    if (!msg) continue;
    oldTopics.add(msg.subject);
    store.messages.relocate(msg, newChannel, newTopic ?? msg.subject);
    if (channelName !== undefined) msg.display_recipient = channelName;
    if (!resolveOnly && e.edit_timestamp !== undefined) msg.last_moved_timestamp = e.edit_timestamp;
  }
  store.unreads.move(ids, newChannel, newTopic);

  // Topic lists: the new place gains, the old one loses (entirely with change_all).
  const origTopic = e.orig_subject;
  if (origTopic !== undefined) oldTopics.add(origTopic);
  for (const t of oldTopics) {
    const destination = newTopic ?? t;
    if (newChannel === oldChannel && topicKey(destination) === topicKey(t)) continue;
    store.topicsModel.forget(oldChannel, t, ids, () => store.newestKnownIn(oldChannel, t, ids), e.propagate_mode === "change_all");
  }
  if (newTopic !== undefined) store.topicsModel.note(newChannel, newTopic, maxMoved);
  else for (const t of oldTopics) store.topicsModel.note(newChannel, t, newestOf(store, ids, t));
  for (const t of oldTopics) store.recent.move(ids, { channelId: oldChannel, topic: t }, { channelId: newChannel, topic: newTopic ?? t }, e.propagate_mode === "change_all");

  for (const id of ids) {
    if (store.messages.byId.has(id)) store.messages.reconsider(id, store);
    else store.messages.markStale(id, (l) => mayHold(l.narrow, newChannel, newTopic));
  }
}

/** Whether a message now in this channel (and topic, when known) might belong to a narrow. */
function mayHold(n: Narrow, channelId: number, topic: string | undefined): boolean {
  switch (n.kind) {
    case "channel":
      return n.channelId === channelId;
    case "topic":
      return n.channelId === channelId && (topic === undefined || topicKey(n.topic) === topicKey(topic));
    case "dm":
    case "all-dms":
      return false;
    default:
      return true;
  }
}

function newestOf(store: Store, ids: Set<number>, topic: string): number {
  let max = -1;
  for (const id of ids) {
    const m = store.messages.byId.get(id);
    if (m && topicKey(m.subject) === topicKey(topic) && id > max) max = id;
  }
  return max;
}

export function applyDelete(store: Store, e: DeleteMessageEvent): boolean {
  const ids = new Set(e.message_ids ?? (e.message_id !== undefined ? [e.message_id] : []));
  if (ids.size === 0) return false;
  const topics = new Map<string, { channelId: number; topic: string }>();
  if (e.message_type === "stream" && e.stream_id !== undefined && e.topic !== undefined) {
    topics.set(`${e.stream_id}:${topicKey(e.topic)}`, { channelId: e.stream_id, topic: e.topic });
  }
  for (const id of ids) {
    const m = store.messages.byId.get(id);
    if (m?.type === "stream" && m.stream_id !== undefined) topics.set(`${m.stream_id}:${topicKey(m.subject)}`, { channelId: m.stream_id, topic: m.subject });
    store.messages.remove(id);
  }
  store.messages.removeFromLists(ids);
  store.unreads.removeMany(ids);
  store.recent.remove(ids, e.message_type === "stream" && e.stream_id !== undefined && e.topic !== undefined ? { channelId: e.stream_id, topic: e.topic } : undefined);
  for (const { channelId, topic } of topics.values()) {
    store.topicsModel.forget(channelId, topic, ids, () => store.newestKnownIn(channelId, topic, ids));
  }
  return true;
}

export function applyReaction(store: Store, e: ReactionEvent): boolean {
  const m = store.messages.byId.get(e.message_id);
  if (!m) return false;
  const rs = m.reactions;
  let at = -1;
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i]!;
    if (r.user_id === e.user_id && r.emoji_code === e.emoji_code && r.reaction_type === e.reaction_type) {
      at = i;
      break;
    }
  }
  if (e.op === "add") {
    if (at >= 0) return false;
    rs.push({ emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type, user_id: e.user_id });
  } else {
    if (at < 0) return false;
    rs.splice(at, 1);
  }
  return true;
}

/** A submessage (a vote, a task…) joins its message's list, in id order, once. */
export function applySubmessage(store: Store, e: SubmessageEvent): boolean {
  const m = store.messages.byId.get(e.message_id);
  if (!m) return false;
  const subs = (m.submessages ??= []);
  const sub = { id: e.submessage_id, message_id: e.message_id, sender_id: e.sender_id, msg_type: e.msg_type, content: e.content };
  const last = subs[subs.length - 1];
  // The usual case, a newer one, without a search (a poll can collect thousands).
  if (!last || last.id < sub.id) {
    subs.push(sub);
    return true;
  }
  if (subs.some((s) => s.id === e.submessage_id)) return false;
  subs.splice(subs.findIndex((s) => s.id > sub.id), 0, sub);
  return true;
}

export function applyFlags(store: Store, e: UpdateMessageFlagsEvent): boolean {
  const op = e.op ?? e.operation;
  if (op !== "add" && op !== "remove") return false;
  const add = op === "add";
  const { flag } = e;
  const byId = store.messages.byId;

  if (e.all) {
    // Only "mark everything read" is sent with all: true.
    if (flag === "read" && add) store.unreads.clear();
    if (flag === "starred" && !add) store.messages.starred.clear();
    for (const m of byId.values()) setFlag(m, flag, add);
    if (flag === "starred") for (const m of byId.values()) store.messages.reconsider(m.id, store, (l) => l.narrow.kind === "starred");
    return true;
  }

  // Read or unread, the ids leave or join the unread model all at once, below: each conversation's list is rewritten once.
  const unread: Array<{ id: number; loc: UnreadLocation; mentioned: MentionKind }> = [];
  for (const id of e.messages) {
    const m = byId.get(id);
    if (m) setFlag(m, flag, add);
    switch (flag) {
      case "read":
        if (!add) {
          const entry = markedUnread(store, e, id, m);
          if (entry) unread.push(entry);
        }
        break;
      case "starred":
        if (add) store.messages.starred.add(id);
        else store.messages.starred.delete(id);
        if (m) store.messages.reconsider(id, store, (l) => l.narrow.kind === "starred");
        else if (add) store.messages.markStale(id, (l) => l.narrow.kind === "starred");
        break;
      case "mentioned":
      case "wildcard_mentioned":
      case "stream_wildcard_mentioned":
      case "topic_wildcard_mentioned":
        if (m) store.unreads.setMention(id, mentionKind(m.flags));
        else if (!add) store.unreads.setMention(id, undefined);
        else if (store.unreads.mentionOf(id) !== "direct") store.unreads.setMention(id, flag === "mentioned" ? "direct" : "wildcard");
        if (m) store.messages.reconsider(id, store, (l) => l.narrow.kind === "mentioned");
        else if (add) store.messages.markStale(id, (l) => l.narrow.kind === "mentioned");
        break;
      default:
        break;
    }
  }
  if (flag === "read" && add) store.unreads.removeMany(e.messages);
  if (unread.length > 0) store.unreads.addMany(unread);
  return true;
}

/** Where a message marked unread goes in the unread model (and the recent conversations told of it), or undefined when nothing says. */
function markedUnread(store: Store, e: UpdateMessageFlagsEvent, id: number, m: Message | undefined): { id: number; loc: UnreadLocation; mentioned: MentionKind } | undefined {
  const d = e.message_details?.[String(id)];
  const loc: UnreadLocation | undefined =
    d?.type === "stream"
      ? { type: "stream", channelId: d.stream_id, topic: d.topic }
      : d?.type === "private" || d?.type === "direct"
        ? { type: "private", userIds: d.user_ids ?? [] }
        : undefined; // details of a kind this client does not know: as if there were none
  if (d && loc) {
    // A known message's own flags tell the kind; otherwise details say "mentioned" (present only when true).
    const kind = m ? mentionKind(m.flags) : d.mentioned ? "direct" : undefined;
    if (loc.type === "private") store.recent.noteUnread(id, { userIds: loc.userIds ?? [] });
    else if (loc.channelId !== undefined) store.recent.noteUnread(id, { channelId: loc.channelId, topic: loc.topic ?? "" });
    return { id, loc, mentioned: kind };
  }
  return m ? { id, loc: locationOf(m), mentioned: mentionKind(m.flags) } : undefined;
}

function setMentionFlags(m: Message, flags: readonly string[]): void {
  for (const f of MENTION_FLAGS) setFlag(m, f, flags.includes(f));
}

/** Adds or removes one flag in place (no copy). */
export function setFlag(m: Message, flag: string, on: boolean): void {
  const i = m.flags.indexOf(flag);
  if (on && i < 0) m.flags.push(flag);
  else if (!on && i >= 0) m.flags.splice(i, 1);
}
