/**
 * Queries of the report schedule sweep: the reports that are due and have no analysis queued or running, and
 * the compare-and-set on `next_run_at` by which one process claims a due report.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../store/schema.js";
import type { Store } from "../store/store.js";

export class ScheduleStore {
  private readonly db: Kysely<Database>;

  constructor(store: Store) {
    this.db = store.db;
  }

  /** Up to `limit` scheduled reports due by `now` with no analysis pending, the longest due first. */
  due(now: string, limit: number) {
    return this.db
      .selectFrom("reports")
      .select(["id", "user_id", "next_run_at"])
      .where("next_run_at", "is not", null)
      .where("next_run_at", "<=", now)
      .where("schedule", "!=", "off")
      .where("pending_analyses", "=", 0)
      .orderBy("next_run_at")
      .orderBy("id")
      .limit(limit)
      .execute();
  }

  /** Moves a report's next run from what it was to `to`; false when another process did first. */
  async claim(id: number, from: string | null, to: string): Promise<boolean> {
    const claimed = await this.db
      .updateTable("reports")
      .set({ next_run_at: to })
      .where("id", "=", id)
      .where(sql.ref("next_run_at"), "=", from)
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }
}
