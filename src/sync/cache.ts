/**
 * The local cache of the last run's state, kept for one account: read at
 * start to draw at once (and to read offline), written in the background
 * from the live store, throttled, and once more at exit.
 *
 * While the machine's store is the cached one, the status line says so; the
 * register's store replaces it whole (the narrows the cached store held are
 * fetched again around the view's place first), so nothing the server has
 * changed meanwhile (reads, deletions, edits, moves) stays on screen.
 */
import type { Narrow } from "../model/narrow.js";
import type { Store } from "../model/store.js";
import { realClock, type Clock, type TimerHandle } from "./clock.js";
import { loadCache, writeCache, type CacheLoad } from "./cache-file.js";
import { registerBase, takeSnapshot, type CacheData, type CacheLimits } from "./cache-snapshot.js";
import type { AccountRef } from "./persist.js";
import type { UpdateMachine } from "./update-machine.js";

export interface CacheKeeperOptions {
  dir: string;
  account: AccountRef;
  clock?: Clock;
  /** At most one write per this long while live. Default 30 s. */
  intervalMs?: number;
  /** The first write after a fresh store arrives. Default 5 s. */
  firstWriteMs?: number;
  limits?: CacheLimits;
}

export interface CacheStats {
  writes: number;
  /** Milliseconds on the main thread (snapshot, check, JSON) and in all (with compression and the file) of the last write. */
  lastSnapshotMs: number;
  lastWriteMs: number;
  lastBytes: number;
  lastError?: string;
}

export class CacheKeeper {
  /** The store built from the cache, while it is the one shown. */
  private cached: Store | undefined;
  /** The narrow open when the cache was written: the view the start opens. */
  readonly startNarrow: Narrow | undefined;
  /** Said once in the status line: why the cache was not used. */
  readonly note: string | undefined;
  private view: Narrow | undefined;
  private base: Record<string, unknown>;
  private timer: TimerHandle | undefined;
  private dirty = false;
  private lastWriteAt = -Infinity;
  private writing: Promise<void> | undefined;
  private readonly offs: Array<() => void> = [];
  private storeOff: (() => void) | undefined;
  private disposed = false;
  readonly stats: CacheStats = { writes: 0, lastSnapshotMs: 0, lastWriteMs: 0, lastBytes: 0 };
  private readonly clock: Clock;

  private constructor(
    private readonly machine: UpdateMachine,
    private readonly opts: CacheKeeperOptions,
    loaded: { data?: CacheData; store?: Store; note?: string },
  ) {
    this.clock = opts.clock ?? realClock;
    this.note = loaded.note;
    this.base = registerBase(loaded.data?.register);
    this.startNarrow = loaded.data?.view;
    this.view = this.startNarrow;
    if (loaded.store && loaded.data && !machine.store) {
      this.cached = loaded.store;
      machine.store = loaded.store;
      machine.maxMessageId = Math.max(machine.maxMessageId, loaded.data.maxMessageId);
    }
    this.offs.push(
      machine.onStore((store, info) => {
        this.cached = undefined;
        this.base = registerBase(info.register as Record<string, unknown>);
        this.watch(store);
        this.schedule(opts.firstWriteMs ?? 5_000);
      }),
    );
  }

  /**
   * Reads the account's cache; when usable, its store becomes the machine's
   * until the register answers. Call before `machine.start()`.
   */
  static async open(machine: UpdateMachine, opts: CacheKeeperOptions, reading?: Promise<CacheLoad>): Promise<CacheKeeper> {
    const loaded = await (reading ?? CacheKeeper.read(opts));
    if (loaded.kind === "loaded") return new CacheKeeper(machine, opts, { data: loaded.data, store: loaded.store });
    const note = loaded.kind === "rejected" ? `The local cache was not used: ${loaded.reason}; it will be rewritten.` : undefined;
    return new CacheKeeper(machine, opts, { note });
  }

  /** Reads the account's cache, for an `open` to come (the start reads it while other files load). */
  static read(opts: CacheKeeperOptions): Promise<CacheLoad> {
    return loadCache(opts.dir, opts.account);
  }

  /** Whether `store` is the one read from the cache (the screen says it may be out of date). */
  isCached(store: Store | undefined): boolean {
    return store !== undefined && store === this.cached;
  }

  /** The narrow on screen (undefined for the Inbox and other views): the next start opens it. */
  noteView(narrow: Narrow | undefined): void {
    if (narrow?.kind === "search" || narrow === this.view) return;
    this.view = narrow;
    if (this.machine.store && !this.isCached(this.machine.store)) this.schedule(this.opts.intervalMs ?? 30_000);
  }

  private watch(store: Store): void {
    this.storeOff?.();
    this.storeOff = store.subscribe(() => this.schedule(this.opts.intervalMs ?? 30_000));
  }

  /** Arms one write, no sooner than the interval after the last one; changes meanwhile join it. */
  private schedule(delayMs: number): void {
    this.dirty = true;
    if (this.timer || this.disposed) return;
    const interval = this.opts.intervalMs ?? 30_000;
    const at = Math.max(this.clock.now() + delayMs, this.lastWriteAt + interval);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.write();
    }, at - this.clock.now());
  }

  /**
   * Writes the live store now (nothing while the cached one is shown: it holds nothing new; nor
   * before the user list is in, as the cache keeps the names its screens show).
   */
  write(): Promise<void> {
    if (this.writing) return this.writing;
    const store = this.machine.store;
    if (!store || this.isCached(store) || !this.dirty || !store.people.complete) return Promise.resolve();
    this.dirty = false;
    this.lastWriteAt = this.clock.now();
    this.writing = (async () => {
      const t0 = performance.now();
      try {
        const data = takeSnapshot(store, {
          site: this.opts.account.site,
          email: this.opts.account.email,
          base: this.base,
          maxMessageId: this.machine.maxMessageId,
          now: this.clock.now(),
          view: this.view,
          limits: this.opts.limits,
        });
        // The check and the JSON happen on this thread too, before the write's first wait.
        const written = writeCache(this.opts.dir, this.opts.account, data);
        this.stats.lastSnapshotMs = performance.now() - t0;
        this.stats.lastBytes = await written;
        this.stats.writes++;
        this.stats.lastError = undefined;
      } catch (err) {
        this.stats.lastError = (err as Error).message;
      } finally {
        this.stats.lastWriteMs = performance.now() - t0;
        this.writing = undefined;
      }
    })();
    return this.writing;
  }

  /** Stops the timers; writes what changed since the last write. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.timer?.cancel();
    this.timer = undefined;
    for (const off of this.offs.splice(0)) off();
    this.storeOff?.();
    await this.writing;
    await this.write();
  }
}
