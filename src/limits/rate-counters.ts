/**
 * What rate-limit counters do: fixed-window counts per bucket ("requests:17", "login-failures:10.0.0.1"),
 * shared by every instance of the service. `database-rate-counters.ts` keeps them in the service's database,
 * `redis-rate-counters.ts` in Redis, `batched-rate-counters.ts` batches a busy limit's writes in front of either;
 * `open-rate-counters.ts` picks the one the configuration asks for.
 */
export interface RateCounters {
  /**
   * Counts `by` hits (default 1) in the bucket's window that starts at `windowStart` (epoch seconds); returns the
   * new count.
   */
  increment(bucket: string, windowStart: number, windowSeconds: number, by?: number): Promise<number>;
  /** The bucket's count in that window; 0 when there is none. */
  count(bucket: string, windowStart: number): Promise<number>;
  /** Forgets the windows of buckets named `<prefix>…` that started before `before` (epoch seconds). */
  sweep(prefix: string, before: number): Promise<void>;
  /** Resolves when the counters can be reached; rejects otherwise (for /healthz). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
