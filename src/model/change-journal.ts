/**
 * A journal of what changed, for views that keep an index of their own over
 * the store (the jump finder over people, channels and conversations): they
 * read what changed since their last look instead of walking everything.
 *
 * Positions are absolute. The journal keeps at most `cap` entries: past that
 * it starts over, and a reader left behind is told to rebuild (`since`
 * answers undefined), so the journal never grows with the session.
 */
export class ChangeJournal<T> {
  private entries: T[] = [];
  /** Absolute position of entries[0]. */
  private base = 0;

  constructor(private readonly cap = 8192) {}

  note(entry: T): void {
    if (this.entries.length >= this.cap) {
      this.base += this.entries.length;
      this.entries = [];
    }
    this.entries.push(entry);
  }

  /** Everything changed: every reader rebuilds at its next look. */
  reset(): void {
    this.base += this.entries.length + 1;
    this.entries = [];
  }

  /** The position after the last entry: where a reader that is up to date stands. */
  get position(): number {
    return this.base + this.entries.length;
  }

  /**
   * Entries noted since `position` (oldest first, repeats included), or
   * undefined when some of them were dropped: the reader must rebuild.
   */
  since(position: number): readonly T[] | undefined {
    if (position < this.base) return undefined;
    return this.entries.slice(position - this.base);
  }
}
