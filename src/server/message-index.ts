// Bookkeeping over the organization's messages that the routes share:
// removing a message everywhere, and per-channel statistics (first message,
// traffic of the last week) computed in one pass and remembered until the
// messages change.

import type { State } from "./state.js";

interface Bookkeeping {
  mutations: number;
  stats: { key: string; value: Map<number, ChannelStats> } | null;
}

export interface ChannelStats {
  firstId: number;
  /** Messages at or after the `sinceSecs` given to channelMessageStats. */
  lastWeek: number;
}

const books = new WeakMap<State, Bookkeeping>();

function book(state: State): Bookkeeping {
  let b = books.get(state);
  if (!b) books.set(state, (b = { mutations: 0, stats: null }));
  return b;
}

/** Call after changing messages in place (moves between channels or topics). */
export function noteMessagesChanged(state: State): void {
  book(state).mutations++;
}

/** Removes a message from the organization and from every user's history. */
export function removeMessage(state: State, id: number): void {
  if (!state.messagesById.delete(id)) return;
  const { messages } = state;
  let lo = 0;
  let hi = messages.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (messages[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  if (messages[lo]?.id === id) messages.splice(lo, 1);
  for (const mine of state.userMessages.values()) mine.delete(id);
  book(state).mutations++;
}

/** Per channel: first message id and the count of messages since `sinceSecs` (cached per minute). */
export function channelMessageStats(state: State, sinceSecs: number): Map<number, ChannelStats> {
  const b = book(state);
  const last = state.messages[state.messages.length - 1];
  const key = `${state.messages.length}:${last?.id ?? 0}:${b.mutations}:${Math.floor(sinceSecs / 60)}`;
  if (b.stats?.key === key) return b.stats.value;
  const value = new Map<number, ChannelStats>();
  for (const m of state.messages) {
    if (m.channelId === null) continue;
    let entry = value.get(m.channelId);
    if (!entry) value.set(m.channelId, (entry = { firstId: m.id, lastWeek: 0 }));
    if (m.timestamp >= sinceSecs) entry.lastWeek++;
  }
  b.stats = { key, value };
  return value;
}
