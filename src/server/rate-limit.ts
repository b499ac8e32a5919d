// A per-user token bucket: `requests` tokens refilled evenly over `windowMs`.
// An empty bucket answers 429 RATE_LIMIT_HIT with `retry-after` (seconds) in
// the body and a Retry-After header, like the public service.

import { ApiError } from "./errors.js";

export interface RateLimitOptions {
  /** Bucket size: requests allowed in a burst. */
  requests: number;
  /** Time to refill an empty bucket completely. */
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { requests: 2000, windowMs: 60_000 };

export class RateLimiter {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();

  constructor(
    private readonly opts: RateLimitOptions,
    private readonly clock: () => number,
  ) {}

  /** Takes one token for the user, or throws the rate-limit error. */
  take(userId: number): void {
    const now = this.clock();
    const rate = this.opts.requests / this.opts.windowMs; // tokens per ms
    const b = this.buckets.get(userId) ?? { tokens: this.opts.requests, at: now };
    b.tokens = Math.min(this.opts.requests, b.tokens + (now - b.at) * rate);
    b.at = now;
    this.buckets.set(userId, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return;
    }
    const retryAfter = (1 - b.tokens) / rate / 1000;
    throw new ApiError(429, "RATE_LIMIT_HIT", "API usage exceeded rate limit", { "retry-after": retryAfter }, {
      "Retry-After": String(Math.max(1, Math.ceil(retryAfter))),
    });
  }
}
