import type { LazyRecords } from "../api/schemas/lazy-records.js";

/**
 * Records by id from a register section that arrives unchecked (LazyRecords, from the api
 * layer: users, channels never subscribed to): each is taken in, checked, the first time it
 * is asked for, and all at once when the map is walked or counted. `checkSome` takes them in
 * a batch at a time meanwhile. To the rest of the model it is a Map like any other.
 */
export class LazyMap<T> extends Map<number, T> {
  private readonly dropped = new Set<number>();
  private drained = false;
  private source: LazyRecords<T> | undefined;
  private leftOut: readonly string[] = [];

  /** `keep` turns a checked record into the form the map holds (users: see user-record.ts). */
  constructor(
    source?: LazyRecords<T>,
    private readonly keep: (r: T) => T = (r) => r,
  ) {
    super();
    this.source = source;
  }

  override get(id: number): T | undefined {
    return super.get(id) ?? this.fromSource(id);
  }

  override has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  override delete(id: number): boolean {
    const had = this.has(id);
    this.forget(id);
    return had;
  }

  /** Drops a record without checking it first. */
  forget(id: number): void {
    this.dropped.add(id);
    super.delete(id);
  }

  override get size(): number {
    this.drain();
    return super.size;
  }

  override keys(): MapIterator<number> {
    this.drain();
    return super.keys();
  }

  override values(): MapIterator<T> {
    this.drain();
    return super.values();
  }

  override entries(): MapIterator<[number, T]> {
    this.drain();
    return super.entries();
  }

  override [Symbol.iterator](): MapIterator<[number, T]> {
    return this.entries();
  }

  override forEach(fn: (value: T, key: number, map: Map<number, T>) => void, thisArg?: unknown): void {
    this.drain();
    super.forEach(fn, thisArg);
  }

  /**
   * Starts over from a new source (the whole user list, fetched after the first frame): what
   * the map held goes, and the source's records are taken in as they are asked for.
   */
  replaceSource(source: LazyRecords<T>): void {
    super.clear();
    this.dropped.clear();
    this.drained = false;
    this.leftOut = [];
    this.source = source;
  }

  /** Takes in up to `count` records not checked yet; returns how many remain. */
  checkSome(count: number): number {
    if (!this.source || this.drained) return 0;
    const remaining = this.source.checkSome(count);
    if (remaining === 0) this.drain();
    return remaining;
  }

  /** What was wrong with the records left out. */
  get problems(): readonly string[] {
    return this.source?.problems ?? this.leftOut;
  }

  private fromSource(id: number): T | undefined {
    if (!this.source || this.drained || this.dropped.has(id)) return undefined;
    const checked = this.source.get(id);
    if (checked === undefined) return undefined;
    const r = this.keep(checked);
    super.set(id, r);
    return r;
  }

  private drain(): void {
    if (this.drained || !this.source) return;
    this.drained = true;
    for (const [id, r] of this.source.all()) if (!super.has(id) && !this.dropped.has(id)) super.set(id, this.keep(r));
    // Every record is in the map now: the source's own index can go.
    this.leftOut = this.source.problems;
    this.source = undefined;
  }
}
