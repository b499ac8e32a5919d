/**
 * Finding the first message of a narrow on or after a moment, as requests
 * for the sync layer to make (pure: `next()` says what to ask, `answer()`
 * takes the reply).
 *
 * A server that knows `anchor=date` (FEATURE_LEVELS.anchorDate) answers in
 * one request, with a window of messages around the one found. Older
 * servers are searched: message ids grow with time, so the newest message
 * says whether any is late enough, and then small fetches (`anchor=<id>`,
 * 20 messages after it) close in on the first one — by interpolating the
 * time between the two ids known on either side, alternating with halving
 * (so a lopsided history costs at most twice a binary search). The number
 * of requests is capped; at the cap the best message found so far is used.
 * A server that claims the level but refuses the anchor gets the search too.
 */
import type { NarrowTerm } from "../api/schemas/common.js";
import { hasFeature } from "./features.js";

export interface DateJumpRequest {
  anchor: number | "newest" | "oldest" | "date";
  anchor_date?: string;
  include_anchor: boolean;
  num_before: number;
  num_after: number;
  narrow: NarrowTerm[];
}

export interface DateJumpAnswer {
  /** The server's anchor (for `anchor=date`: the id found, or a huge number when none is late enough). */
  anchor?: number;
  messages: ReadonlyArray<{ id: number; timestamp: number }>;
  found_oldest: boolean;
  found_newest: boolean;
}

export interface DateJumpOutcome {
  /** The first message on or after the moment; undefined when there is none (open at the newest). */
  messageId: number | undefined;
  /** With `anchor=date`: the window the server sent around it, to show as it is. */
  window?: DateJumpAnswer;
  via: "anchor_date" | "search";
  requests: number;
  /** False when the search stopped at its request limit (the message found is close, maybe not the first). */
  exact: boolean;
}

export interface DateJumpOptions {
  narrow: NarrowTerm[];
  /** The moment, ms. */
  at: number;
  featureLevel: number;
  /** The window asked for with `anchor=date` (default 50 before, 100 after). */
  window?: { before: number; after: number };
  /** Messages per search fetch (default 20). */
  probe?: number;
  /** At most this many requests (default 40). */
  maxRequests?: number;
}

/** `anchor_date` as the spec reads it: ISO 8601 with an explicit UTC offset. */
export function anchorDateParam(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

type Phase = "date" | "newest" | "search" | "done";

export class DateJump {
  private phase: Phase;
  private readonly atSecs: number;
  private requests = 0;
  private outcome: DateJumpOutcome | undefined;
  // The search: `lo` the newest id known to be too early (0: none yet), `hi` the earliest message known late enough;
  // no message between `upper` (exclusive) and `hi` exists.
  private lo = 0;
  private loTs: number | undefined;
  private hi: { id: number; timestamp: number } | undefined;
  private upper = 0;
  /** The id the outstanding search request starts at (0: the oldest). */
  private probeFrom = 0;

  constructor(private readonly o: DateJumpOptions) {
    this.atSecs = Math.ceil(o.at / 1000);
    this.phase = hasFeature(o.featureLevel, "anchorDate") ? "date" : "newest";
  }

  /** The request to make now; undefined once the outcome is known. */
  next(): DateJumpRequest | undefined {
    const narrow = this.o.narrow;
    switch (this.phase) {
      case "date": {
        const w = this.o.window ?? { before: 50, after: 100 };
        return { anchor: "date", anchor_date: anchorDateParam(this.o.at), include_anchor: true, num_before: w.before, num_after: w.after, narrow };
      }
      case "newest":
        return { anchor: "newest", include_anchor: true, num_before: 1, num_after: 0, narrow };
      case "search":
        return { anchor: this.probeFrom === 0 ? "oldest" : this.probeFrom, include_anchor: true, num_before: 0, num_after: this.o.probe ?? 20, narrow };
      case "done":
        return undefined;
    }
  }

  /** The reply to the request `next()` gave. */
  answer(r: DateJumpAnswer): void {
    this.requests++;
    switch (this.phase) {
      case "date": {
        const anchor = r.anchor ?? Number.POSITIVE_INFINITY;
        const found = r.messages.find((m) => m.id >= anchor);
        this.finish(found?.id, true, r);
        return;
      }
      case "newest": {
        const newest = r.messages[r.messages.length - 1];
        if (!newest || newest.timestamp < this.atSecs) return this.finish(undefined, true);
        this.hi = newest;
        this.upper = newest.id - 1;
        this.phase = "search";
        this.probeFrom = 0;
        return;
      }
      case "search":
        return this.searched(r);
      case "done":
        return;
    }
  }

  /** The server refused `anchor=date` (an older server than it claims): search instead. */
  refused(): void {
    if (this.phase === "date") this.phase = "newest";
  }

  result(): DateJumpOutcome | undefined {
    return this.outcome;
  }

  private searched(r: DateJumpAnswer): void {
    const hi = this.hi as { id: number; timestamp: number };
    let before: { id: number; timestamp: number } | undefined;
    for (const m of r.messages) {
      if (m.id < this.probeFrom) continue;
      if (m.timestamp >= this.atSecs) {
        // With a message just before it that is too early, this is the first late enough.
        if (before) return this.finish(m.id, true);
        this.hi = m;
        this.upper = this.probeFrom - 1;
        return this.step();
      }
      before = m;
      if (m.id >= hi.id) break;
    }
    if (before) {
      this.lo = before.id;
      this.loTs = before.timestamp;
    } else {
      // Nothing from here on before `hi`: the gap is empty.
      this.upper = this.probeFrom - 1;
    }
    this.step();
  }

  /** Chooses where to look next, or finishes when nothing is left between the bounds. */
  private step(): void {
    const hi = this.hi as { id: number; timestamp: number };
    if (this.upper <= this.lo) return this.finish(hi.id, true);
    if (this.requests >= (this.o.maxRequests ?? 40)) return this.finish(hi.id, false);
    const from = this.lo + 1;
    const to = this.upper;
    let p = Math.floor((from + to) / 2);
    if (this.requests % 2 === 0 && this.loTs !== undefined && hi.timestamp > this.loTs) {
      const share = Math.min(1, Math.max(0, (this.atSecs - this.loTs) / (hi.timestamp - this.loTs)));
      p = from + Math.floor((to - from) * share);
    }
    this.probeFrom = Math.min(to, Math.max(from, p));
  }

  private finish(messageId: number | undefined, exact: boolean, window?: DateJumpAnswer): void {
    this.phase = "done";
    this.outcome = { messageId, via: window ? "anchor_date" : "search", requests: this.requests, exact, ...(window ? { window } : {}) };
  }
}
