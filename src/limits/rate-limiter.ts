/**
 * Fixed-window rate limits. The counters live outside the process (the database, or Redis when configured:
 * see `open-rate-counters.ts`), so several instances behind a load balancer share them. Windows are a minute
 * unless said otherwise; ended windows are swept periodically.
 */
import type { RateCounters } from "./rate-counters.js";

export interface RateVerdict {
  windowSeconds: number;
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  retryAfterSeconds: number;
}

export class RateLimiter {
  /**
   * `name` prefixes this limiter's buckets ("requests", "login", …), so sweeping one limiter's ended windows
   * leaves the others' alone.
   */
  constructor(
    private readonly counters: RateCounters,
    readonly name: string,
    readonly limit: number,
    readonly windowSeconds = 60,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Counts one hit for the key ("17", an address, …) in the current window; says whether it is within the limit. */
  async hit(key: string): Promise<RateVerdict> {
    const window = this.currentWindow();
    const count = await this.counters.increment(`${this.name}:${key}`, window.start, this.windowSeconds);
    return this.verdict(count, window);
  }

  /** Whether the key is already at its limit in the current window, without counting a hit. */
  async exhausted(key: string): Promise<RateVerdict | null> {
    const window = this.currentWindow();
    const count = await this.counters.count(`${this.name}:${key}`, window.start);
    // At the limit, the next hit would be refused.
    return count < this.limit ? null : { ...this.verdict(count, window), allowed: false };
  }

  /** Deletes windows that have ended. */
  async sweep(): Promise<void> {
    const nowSeconds = Math.floor(this.now() / 1000);
    await this.counters.sweep(`${this.name}:`, nowSeconds - 2 * this.windowSeconds);
  }

  private currentWindow(): { start: number; resetSeconds: number } {
    const nowSeconds = Math.floor(this.now() / 1000);
    const start = nowSeconds - (nowSeconds % this.windowSeconds);
    return { start, resetSeconds: start + this.windowSeconds - nowSeconds };
  }

  /** The verdict once `count` hits are in the window. */
  private verdict(count: number, window: { resetSeconds: number }): RateVerdict {
    return {
      windowSeconds: this.windowSeconds,
      allowed: count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      resetSeconds: window.resetSeconds,
      retryAfterSeconds: Math.max(1, window.resetSeconds),
    };
  }
}
