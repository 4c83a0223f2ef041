/**
 * Migration 005: the embedded job queue's tables (jobs and their schedules).
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

export function jobs(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  return {
    async up(db: Kysely<unknown>) {
      // The embedded job queue (src/jobs/database-job-queue.ts). Times are epoch milliseconds (bigint: they
      // outgrow PostgreSQL's integer), compared with the clock of the process that claims.
      await db.schema
        .createTable("jobs")
        .addColumn("id", "integer", (c) =>
          pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
        )
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("key", "text")
        .addColumn("state", "text", (c) => c.notNull())
        .addColumn("run_at", "bigint", (c) => c.notNull())
        .addColumn("attempts_made", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("max_attempts", "integer", (c) => c.notNull())
        .addColumn("backoff_ms", "integer", (c) => c.notNull())
        .addColumn("backoff_max_ms", "integer", (c) => c.notNull())
        .addColumn("owner", "text")
        .addColumn("locked_until", "bigint")
        .addColumn("cancel_requested", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("last_error", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("finished_at", "text")
        .execute();
      // Claiming walks waiting jobs by due time; running ones by lease end (to take over a dead worker's).
      await db.schema
        .createIndex("jobs_state_run_at")
        .on("jobs")
        .columns(["state", "run_at", "id"])
        .execute();
      // At most one unfinished job per key: what makes a second enqueue with the key a no-op.
      await db.schema
        .createIndex("jobs_unfinished_key")
        .on("jobs")
        .column("key")
        .unique()
        .where(sql.ref("state"), "in", ["waiting", "running"])
        .execute();
      await db.schema
        .createTable("job_schedules")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("every_ms", "bigint", (c) => c.notNull())
        .addColumn("next_run_at", "bigint", (c) => c.notNull())
        .execute();
    },
  };
}
