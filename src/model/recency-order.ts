/**
 * Items kept sorted by a rank (a conversation's newest message id) that
 * mostly grows: a new message makes its conversation the newest, so the
 * common change is "take it out of the middle, put it at the end". A doubly
 * linked list does that in constant time without allocating, and so is
 * putting a new item (no message yet) at the oldest end. Any other place is
 * found by walking from the nearer end by rank, which is short for recent
 * activity and for new items; many changes at once (building from the register, a loaded
 * batch, a topic list) go through `batch`, which sorts once.
 */

interface Node<T> {
  readonly item: T;
  readonly key: string;
  rank: number;
  prev: Node<T> | undefined;
  next: Node<T> | undefined;
}

function after<T>(n: Node<T>, rank: number, key: string): boolean {
  return n.rank > rank || (n.rank === rank && n.key > key);
}

export class RecencyOrder<T extends { readonly key: string }> {
  private readonly nodes = new Map<T, Node<T>>();
  private head: Node<T> | undefined;
  private tail: Node<T> | undefined;
  private deferred = false;

  get size(): number {
    return this.nodes.size;
  }

  /** Puts an item at its rank (ties ordered by key). */
  set(item: T, rank: number): void {
    let n = this.nodes.get(item);
    if (n) this.unlink(n);
    else this.nodes.set(item, (n = { item, key: item.key, rank, prev: undefined, next: undefined }));
    n.rank = rank;
    this.linkAfter(n, this.deferred ? this.tail : this.placeFor(rank, n.key));
  }

  /**
   * The node a new one of `rank` goes right after (undefined: first). Found by walking from the
   * nearer end, by rank: an item with recent activity from the newest end, and one with old or
   * none (a conversation just made, before its first message is filed, at rank -1) from the
   * oldest; a start that files hundreds such after thousands of ranked ones walked them all each time.
   */
  private placeFor(rank: number, key: string): Node<T> | undefined {
    const { head, tail } = this;
    if (!head || !tail || after(head, rank, key)) return undefined;
    if (!after(tail, rank, key)) return tail;
    if (rank - head.rank <= tail.rank - rank) {
      let at = head;
      while (at.next && !after(at.next, rank, key)) at = at.next;
      return at;
    }
    let at: Node<T> | undefined = tail;
    while (at && after(at, rank, key)) at = at.prev;
    return at;
  }

  delete(item: T): void {
    const n = this.nodes.get(item);
    if (!n) return;
    this.unlink(n);
    this.nodes.delete(item);
  }

  /** Highest rank first. */
  *descending(): IterableIterator<T> {
    for (let n = this.tail; n; n = n.prev) yield n.item;
  }

  /** Many changes at once: appended as they come, sorted once at the end. */
  batch(fill: () => void): void {
    if (this.deferred) return fill();
    this.deferred = true;
    try {
      fill();
    } finally {
      this.deferred = false;
      const all: Node<T>[] = [];
      for (let n = this.head; n; n = n.next) all.push(n);
      all.sort((a, b) => a.rank - b.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      this.head = this.tail = undefined;
      for (const n of all) {
        n.prev = n.next = undefined;
        this.linkAfter(n, this.tail);
      }
    }
  }

  /** Disagreements with the invariants (for tests): sorted, every item once, at the rank given. */
  check(rankOf: (item: T) => number): string[] {
    const problems: string[] = [];
    let count = 0;
    for (let n = this.head; n; n = n.next) {
      count++;
      if (n.next && after(n, n.next.rank, n.next.key)) problems.push(`order: ${n.key} before ${n.next.key}`);
      if (n.next && n.next.prev !== n) problems.push(`order: broken link after ${n.key}`);
      if (this.nodes.get(n.item) !== n) problems.push(`order: ${n.key} listed but not indexed`);
      if (rankOf(n.item) !== n.rank) problems.push(`order: ${n.key} at rank ${n.rank}, not ${rankOf(n.item)}`);
      if (count > this.nodes.size) break;
    }
    if (count !== this.nodes.size) problems.push(`order: ${count} listed for ${this.nodes.size} items`);
    return problems;
  }

  /** Links `n` right after `at` (undefined: at the oldest end). */
  private linkAfter(n: Node<T>, at: Node<T> | undefined): void {
    n.prev = at;
    n.next = at ? at.next : this.head;
    if (n.next) n.next.prev = n;
    else this.tail = n;
    if (at) at.next = n;
    else this.head = n;
  }

  private unlink(n: Node<T>): void {
    if (n.prev) n.prev.next = n.next;
    else if (this.head === n) this.head = n.next;
    if (n.next) n.next.prev = n.prev;
    else if (this.tail === n) this.tail = n.prev;
    n.prev = n.next = undefined;
  }
}
