/**
 * A least-recently-used cache bounded by the bytes of what it holds (as estimated by the
 * caller), not by its number of entries: a thousand one-line renderings and ten long code
 * listings should not weigh the same.
 */
export class ByteLru<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>(); // insertion order = recency
  private total = 0;

  constructor(readonly budget: number) {}

  get size(): number {
    return this.map.size;
  }

  /** The estimated bytes held. */
  get bytes(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** Stores `value` (unless it alone is over the budget), dropping the least recently used entries to fit. */
  set(key: K, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.budget) return;
    this.map.set(key, { value, bytes });
    this.total += bytes;
    for (const [k, e] of this.map) {
      if (this.total <= this.budget) break;
      this.map.delete(k);
      this.total -= e.bytes;
    }
  }

  delete(key: K): void {
    const had = this.map.get(key);
    if (had === undefined) return;
    this.map.delete(key);
    this.total -= had.bytes;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }
}

/** What a string costs at most (V8 stores text with characters past Latin-1 at two bytes each). */
export function stringBytes(s: string): number {
  return 16 + 2 * s.length;
}
