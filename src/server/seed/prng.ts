// Deterministic helpers for seeds: a small seeded PRNG (mulberry32) and
// API keys derived from a fixed salt.

import { createHash } from "node:crypto";

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from empty list");
    return items[Math.floor(this.next() * items.length)]!;
  }
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A 32-character alphanumeric key, the same for the same salt and email. */
export function deriveApiKey(salt: string, email: string): string {
  let out = "";
  let counter = 0;
  while (out.length < 32) {
    const digest = createHash("sha256").update(`${salt}:${email.toLowerCase()}:${counter++}`).digest();
    for (const byte of digest) {
      if (byte < 248) out += BASE62[byte % 62]; // 248 = 4 * 62: unbiased
      if (out.length === 32) break;
    }
  }
  return out;
}
