/** The best few of many entries, for ranked lists (the jump finder). */

/** An entry by its index, with the two facts of its match that ranking reads first. */
export interface Ranked {
  index: number;
  cls: number;
  quality: number;
}

/**
 * The best `limit` entries seen, kept in a binary heap whose root is the
 * worst of them: an entry that does not beat the root costs one comparison.
 */
export class TopList {
  private readonly heap: Ranked[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: Ranked, b: Ranked) => number,
  ) {}

  /** Reused to test an entry against the root before anything is allocated for it. */
  private readonly probe: Ranked = { index: 0, cls: 0, quality: 0 };

  offer(index: number, cls: number, quality: number): void {
    if (this.limit <= 0) return;
    const h = this.heap;
    if (h.length < this.limit) {
      h.push({ index, cls, quality });
      this.up(h.length - 1);
      return;
    }
    const p = this.probe;
    p.index = index;
    p.cls = cls;
    p.quality = quality;
    if (this.compare(p, h[0] as Ranked) > 0) {
      h[0] = { index, cls, quality };
      this.down(0);
    }
  }

  /** Best first. */
  sorted(): Ranked[] {
    return [...this.heap].sort((a, b) => this.compare(b, a));
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(h[i] as Ranked, h[parent] as Ranked) >= 0) break;
      [h[i], h[parent]] = [h[parent] as Ranked, h[i] as Ranked];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.compare(h[l] as Ranked, h[worst] as Ranked) < 0) worst = l;
      if (r < h.length && this.compare(h[r] as Ranked, h[worst] as Ranked) < 0) worst = r;
      if (worst === i) return;
      [h[i], h[worst]] = [h[worst] as Ranked, h[i] as Ranked];
      i = worst;
    }
  }
}
