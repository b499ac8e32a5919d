/**
 * The messages a recent conversation remembers — who wrote when — as one
 * flat array of (id, sender, time) triples sorted by id. Thousands of
 * conversations hold a message or two each: a plain array of numbers costs a
 * fraction of a Map, and the usual change (a new message, the newest) is a
 * push. A conversation keeps at most `KEPT` messages: enough to follow the
 * deletes and moves of what is on screen, without growing all day.
 */

/** Messages remembered per conversation. */
export const KEPT = 200;

/** Flat triples: id, sender id, timestamp (seconds); sorted by id. */
export type LoadedMessages = number[];

export interface LoadedMessage {
  id: number;
  sender: number;
  timestamp: number;
}

/** Index of the first triple whose id is >= `id` (in triples). */
function lowerBound(a: LoadedMessages, id: number): number {
  let lo = 0;
  let hi = a.length / 3;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((a[mid * 3] as number) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function count(a: LoadedMessages): number {
  return a.length / 3;
}

export function has(a: LoadedMessages, id: number): boolean {
  if (a.length === 0 || id > (a[a.length - 3] as number)) return false;
  return a[lowerBound(a, id) * 3] === id;
}

export function get(a: LoadedMessages, id: number): LoadedMessage | undefined {
  const i = lowerBound(a, id) * 3;
  return a[i] === id ? { id, sender: a[i + 1] as number, timestamp: a[i + 2] as number } : undefined;
}

/** Adds a message (ignored when known); the oldest goes when more than KEPT are held. */
export function add(a: LoadedMessages, id: number, sender: number, timestamp: number): void {
  if (a.length === 0 || id > (a[a.length - 3] as number)) a.push(id, sender, timestamp);
  else {
    const i = lowerBound(a, id);
    if (a[i * 3] === id) return;
    a.splice(i * 3, 0, id, sender, timestamp);
  }
  if (a.length > KEPT * 3) a.splice(0, 3);
}

export function remove(a: LoadedMessages, id: number): LoadedMessage | undefined {
  const m = get(a, id);
  if (m) a.splice(lowerBound(a, id) * 3, 3);
  return m;
}

/** The newest id held, or -1. */
export function newest(a: LoadedMessages): number {
  return a.length ? (a[a.length - 3] as number) : -1;
}

/** Senders, the one who wrote last first. */
export function senders(a: LoadedMessages): number[] {
  const seen = new Set<number>();
  for (let i = a.length - 2; i > 0; i -= 3) seen.add(a[i] as number);
  return [...seen];
}

export function wrote(a: LoadedMessages, userId: number): boolean {
  for (let i = 1; i < a.length; i += 3) if (a[i] === userId) return true;
  return false;
}

/** Whether the triples are sorted by id without repeats (for consistency checks). */
export function isSorted(a: LoadedMessages): boolean {
  for (let i = 3; i < a.length; i += 3) if ((a[i] as number) <= (a[i - 3] as number)) return false;
  return a.length % 3 === 0;
}
