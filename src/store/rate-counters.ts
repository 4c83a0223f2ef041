/**
 * Where rate-limit counters live: fixed-window counts per bucket ("requests:17", "login-failures:10.0.0.1"),
 * shared by every instance of the service. In the database by default (one upsert per hit, ended windows swept),
 * in Redis when `REDIS_URL` is set (one INCR per hit, ended windows expire on their own).
 */
import { sql } from "kysely";
import type { Store } from "./database.js";

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

/** Counters in the `rate_limits` table of the service's own database. */
export class DatabaseRateCounters implements RateCounters {
  constructor(private readonly store: Store) {}

  async increment(bucket: string, windowStart: number, _windowSeconds: number, by = 1): Promise<number> {
    const row = await this.store.db
      .insertInto("rate_limits")
      .values({ bucket, window_start: windowStart, count: by })
      .onConflict((conflict) =>
        conflict.columns(["bucket", "window_start"]).doUpdateSet({ count: sql`rate_limits.count + ${by}` }),
      )
      .returning("count")
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async count(bucket: string, windowStart: number): Promise<number> {
    const row = await this.store.db
      .selectFrom("rate_limits")
      .select("count")
      .where("bucket", "=", bucket)
      .where("window_start", "=", windowStart)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async sweep(prefix: string, before: number): Promise<void> {
    await this.store.db
      .deleteFrom("rate_limits")
      .where("bucket", "like", `${prefix}%`)
      .where("window_start", "<", before)
      .execute();
  }

  async ping(): Promise<void> {
    await this.store.db.selectFrom("rate_limits").select("bucket").limit(1).execute();
  }

  /** The store belongs to the caller, who closes it. */
  async close(): Promise<void> {}
}

/** The counters the configuration asks for: Redis when `redisUrl` is set (connected and checked), else the database. */
export async function openRateCounters(
  store: Store,
  settings: { redisUrl: string | null; redisKeyPrefix: string },
): Promise<RateCounters> {
  if (settings.redisUrl === null) return new DatabaseRateCounters(store);
  const { RedisRateCounters } = await import("./redis-rate-counters.js");
  const counters = new RedisRateCounters(settings.redisUrl, `${settings.redisKeyPrefix}rate:`);
  try {
    await counters.connect();
  } catch (error) {
    await counters.close();
    throw new Error(`cannot reach Redis at REDIS_URL: ${(error as Error).message}`);
  }
  return counters;
}
