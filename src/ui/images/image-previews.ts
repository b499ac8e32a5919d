/**
 * The image previews of one account: each image fetched once, lazily (when
 * a message showing it is laid out), decoded off the main thread one after
 * another (../../render/images/worker-host.ts) into at most the size drawn,
 * and kept in a cache bounded by bytes (least recently used out). What waits
 * or failed is a state the layout shows as a placeholder line — for an image
 * too large to preview, its size; listeners hear when one is ready.
 */
import { ImageTooLargeError } from "../../render/images/budget.js";
import type { ImageDecoderHost } from "../../render/images/worker-host.js";
import { fitSize, resize, type Pixels } from "../../render/images/pixels.js";

export type PreviewState =
  | { status: "loading" }
  | { status: "ready"; pixels: Pixels }
  | { status: "failed"; error: string; tooLarge?: TooLarge };

/** An image refused before decoding: its declared size and the file's. */
export interface TooLarge {
  width: number;
  height: number;
  bytes: number;
}

export type DecodeFn = (bytes: Uint8Array, maxWidth: number, maxHeight: number, signal: AbortSignal) => Promise<Pixels>;

export interface ImagePreviewOptions {
  /** Cache budget in bytes of decoded pixels (default 32 MB). */
  maxBytes?: number;
  /** Images are kept at most this many pixels on their long side (default 1024), asked at each decode. */
  maxSide?: number | (() => number);
  /** Fetches at once (default 2); decodes are one at a time whatever this is. */
  concurrency?: number;
  /** Decodes a file into at most the given size (default: the decoder thread). */
  decode?: DecodeFn;
}

interface Entry {
  state: PreviewState;
  bytes: number;
  /** Memoized renderings of the pixels (half-block lines and the like), by key. */
  renderings: Map<string, unknown>;
}

const FAILED_BYTES = 256;

export class ImagePreviews {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();
  private readonly queue: string[] = [];
  private running = 0;
  private total = 0;
  private closed = false;
  private readonly stop = new AbortController();
  readonly maxBytes: number;
  private readonly maxSide: () => number;
  private readonly concurrency: number;
  private readonly decode: DecodeFn;
  private host: Promise<ImageDecoderHost> | undefined;
  /** Increases whenever an image becomes ready or fails. */
  version = 0;
  readonly stats = { fetches: 0, decodes: 0, evictions: 0 };

  constructor(
    private readonly load: (path: string, signal: AbortSignal) => Promise<Uint8Array>,
    o: ImagePreviewOptions = {},
  ) {
    this.maxBytes = o.maxBytes ?? 32 * 1024 * 1024;
    const side = o.maxSide ?? 1024;
    this.maxSide = typeof side === "number" ? () => side : side;
    this.concurrency = o.concurrency ?? 2;
    this.decode = o.decode ?? ((bytes, w, h, signal) => this.decoder().then((d) => d.decode(bytes, w, h, signal)));
  }

  /** The decoder thread's host, made on the first image (its module too). */
  private decoder(): Promise<ImageDecoderHost> {
    this.host ??= import("../../render/images/worker-host.js").then((m) => new m.ImageDecoderHost());
    return this.host;
  }

  /** The state of an image, starting its fetch when it was never asked for (or was evicted). */
  get(path: string): PreviewState {
    const hit = this.entries.get(path);
    if (hit) {
      // Most recently used goes last.
      this.entries.delete(path);
      this.entries.set(path, hit);
      return hit.state;
    }
    const entry: Entry = { state: { status: "loading" }, bytes: 0, renderings: new Map() };
    this.entries.set(path, entry);
    this.queue.push(path);
    this.pump();
    return entry.state;
  }

  /** A rendering of a ready image, made once per key while the image stays cached. */
  rendering<T>(path: string, key: string, make: (pixels: Pixels) => T): T | undefined {
    const entry = this.entries.get(path);
    if (entry?.state.status !== "ready") return undefined;
    if (entry.renderings.has(key)) return entry.renderings.get(key) as T;
    const made = make(entry.state.pixels);
    if (made !== undefined) entry.renderings.set(key, made);
    return made;
  }

  /** Bytes held by the cache now. */
  get bytes(): number {
    return this.total;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.stop.abort();
    this.queue.length = 0;
    void this.host?.then((h) => h.close());
  }

  private pump(): void {
    while (!this.closed && this.running < this.concurrency && this.queue.length > 0) {
      const path = this.queue.shift()!;
      this.running++;
      void this.fetchOne(path).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async fetchOne(path: string): Promise<void> {
    let state: PreviewState;
    let bytes: Uint8Array | undefined;
    try {
      this.stats.fetches++;
      bytes = await this.load(path, this.stop.signal);
      // Decode on a turn of its own, after any pending key press was handled.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.closed) return;
      this.stats.decodes++;
      const side = this.maxSide();
      const decoded = await this.decode(bytes, side, side, this.stop.signal);
      const size = fitSize(decoded.width, decoded.height, side, side);
      state = { status: "ready", pixels: resize(decoded, size.width, size.height) };
    } catch (err) {
      const error = (err instanceof Error ? err.message : String(err)).split("\n")[0] ?? "failed";
      state = { status: "failed", error, ...tooLargeOf(err, bytes?.byteLength) };
    }
    if (this.closed) return;
    const entry = this.entries.get(path);
    if (!entry) return;
    entry.state = state;
    entry.bytes = state.status === "ready" ? state.pixels.data.byteLength : FAILED_BYTES;
    this.total += entry.bytes;
    this.evict(path);
    this.version++;
    for (const l of [...this.listeners]) l();
  }

  /** Drops the least recently used finished images until the cache fits its budget (never `keep`). */
  private evict(keep: string): void {
    for (const [path, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      if (path === keep || entry.state.status === "loading") continue;
      this.entries.delete(path);
      this.total -= entry.bytes;
      this.stats.evictions++;
    }
  }
}

/** The refusal's sizes, when `err` is the budget's refusal. */
function tooLargeOf(err: unknown, bytes: number | undefined): { tooLarge?: TooLarge } {
  return err instanceof ImageTooLargeError ? { tooLarge: { width: err.width, height: err.height, bytes: bytes ?? 0 } } : {};
}
