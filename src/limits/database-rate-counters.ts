/**
 * Rate-limit counters in the `rate_limits` table of the service's own database (the default): one upsert per hit,
 * ended windows swept.
 */
import { sql } from "kysely";
import type { Store } from "../store/store.js";
import type { RateCounters } from "./rate-counters.js";

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
