/**
 * Laid-out messages kept between frames (message-layout.ts fills it): a message scrolled back
 * into view, or drawn again unchanged, is not laid out anew.
 */
import { ByteLru } from "../render/byte-cache.js";
import type { RenderContext } from "../render/markdown.js";
import type { Line } from "./message-layout.js";

export interface CacheEntry {
  ctx: RenderContext;
  sig: string;
  lines: Line[];
}

/** Laid-out messages kept, by their estimated size. */
const CACHE_BYTES = 4 * 1024 * 1024;

/**
 * The screen's laid-out messages, by account (the render context's names say whose) and message
 * id; an entry serves only the same context and everything the lines show unchanged.
 */
export class LayoutCache {
  private readonly entries: ByteLru<string, CacheEntry>;
  /** Message bodies laid out anew (not taken from the cache). */
  bodyRenders = 0;

  constructor(bytes = CACHE_BYTES) {
    this.entries = new ByteLru<string, CacheEntry>(bytes);
  }

  get(ctx: RenderContext, id: number): CacheEntry | undefined {
    return this.entries.get(`${ctx.names ?? ""}\u0000${id}`);
  }

  set(ctx: RenderContext, id: number, entry: CacheEntry, bytes: number): void {
    this.entries.set(`${ctx.names ?? ""}\u0000${id}`, entry, bytes);
  }

  clear(): void {
    this.entries.clear();
  }
}
