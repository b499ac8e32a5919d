/**
 * Lists of message ids in ascending order, no id twice: a narrow's loaded messages
 * (messages.ts), a conversation's unread ones (unreads.ts). Searches are binary; a list
 * grows at its end in the usual case (the newest message).
 */

/** First index whose value is >= id. */
export function lowerBound(ids: readonly number[], id: number): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ids[mid] as number) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of `id` in sorted `ids`, or -1. */
export function indexOfSorted(ids: readonly number[], id: number): number {
  const i = lowerBound(ids, id);
  return ids[i] === id ? i : -1;
}

/** Puts `id` in its place in sorted `ids`, unless it is there (the newest goes on the end at once). */
export function insertSorted(ids: number[], id: number): void {
  const n = ids.length;
  if (n === 0 || (ids[n - 1] as number) < id) {
    ids.push(id);
    return;
  }
  const at = lowerBound(ids, id);
  if (ids[at] !== id) ids.splice(at, 0, id);
}

/** Two sorted lists with no id in common, as one (a new list). */
export function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  if (a.length === 0) return b.slice();
  if (b.length === 0) return a.slice();
  if ((a[a.length - 1] as number) < (b[0] as number)) return a.concat(b);
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push((a[i] as number) < (b[j] as number) ? (a[i++] as number) : (b[j++] as number));
  while (i < a.length) out.push(a[i++] as number);
  while (j < b.length) out.push(b[j++] as number);
  return out;
}

export function isIncreasing(ids: readonly number[]): boolean {
  for (let i = 1; i < ids.length; i++) if ((ids[i] as number) <= (ids[i - 1] as number)) return false;
  return true;
}

/** A list's newest id (its last), or -1 when it has none. */
export function newestOf(ids: readonly number[]): number {
  return ids.length > 0 ? (ids[ids.length - 1] as number) : -1;
}
