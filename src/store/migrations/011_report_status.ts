/**
 * Migration 011: reports that are analysed in the background. A report gains the state of its latest analysis
 * job (`status`, and `error_reason`/`error_message` when it failed), how many analysis jobs are queued or
 * running for it (`pending_analyses`), the `mode` its next analysis uses, its `schedule` and `next_run_at`. The columns that describe the latest complete analysis (result, score, summary,
 * categories, results, generated_at) become nullable: a report stored asynchronously exists before its first
 * analysis completes. History rows gain `request_id`, the id of the request (job) that made them, unique, so a job
 * that runs twice after a crash stores its analysis once.
 *
 * SQLite cannot drop NOT NULL in place, so the reports table is rebuilt the way SQLite documents it (new table,
 * copy, drop, rename; foreign keys off meanwhile), keeping its indexes, triggers and AUTOINCREMENT counter.
 */
import { type Kysely, type Migration, sql } from "kysely";
import type { Dialect } from "../store.js";

/** The columns of the latest complete analysis, nullable from now on. */
const analysisColumns = ["result", "score", "summary", "categories", "results", "generated_at"] as const;

export function reportStatus(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (dialect === "postgres") {
        for (const column of analysisColumns) {
          await sql`alter table reports alter column ${sql.ref(column)} drop not null`.execute(db);
        }
        await nullsFirstListIndexes(db);
        await addColumns(db);
        return;
      }
      // Foreign keys cannot be switched inside a transaction, and with them on, dropping the old table would
      // delete every report's history through its ON DELETE CASCADE.
      await sql`pragma foreign_keys = off`.execute(db);
      try {
        await db.transaction().execute(async (trx) => {
          await rebuildReportsWithNullableAnalysis(trx);
          await addColumns(trx);
        });
      } finally {
        await sql`pragma foreign_keys = on`.execute(db);
      }
    },
  };
}

async function addColumns(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("reports")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("complete"))
    .execute();
  await db.schema.alterTable("reports").addColumn("error_reason", "text").execute();
  await db.schema.alterTable("reports").addColumn("error_message", "text").execute();
  await db.schema
    .alterTable("reports")
    .addColumn("mode", "text", (c) => c.notNull().defaultTo("raw"))
    .execute();
  await db.schema
    .alterTable("reports")
    .addColumn("schedule", "text", (c) => c.notNull().defaultTo("off"))
    .execute();
  await db.schema.alterTable("reports").addColumn("next_run_at", "text").execute();
  await db.schema
    .alterTable("reports")
    .addColumn("pending_analyses", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // The scheduler looks for due reports across all users: only scheduled reports are in this index.
  await db.schema
    .createIndex("reports_next_run_at")
    .on("reports")
    .columns(["next_run_at", "id"])
    .where(sql.ref("next_run_at"), "is not", null)
    .execute();
  await db.schema.alterTable("analyses").addColumn("request_id", "text").execute();
  await db.schema.createIndex("analyses_request_id").on("analyses").column("request_id").unique().execute();
}

/**
 * A report without a complete analysis has no score or time yet. Lists sort those first in ascending order and
 * last in descending order on both databases (SQLite's rule for NULL); PostgreSQL's indexes on the two sort keys
 * are rebuilt with NULLS FIRST so its lists stay index scans in either direction.
 */
async function nullsFirstListIndexes(db: Kysely<unknown>): Promise<void> {
  for (const sort of ["generated_at", "score"]) {
    for (const filters of [[], ["project"], ["result"], ["project", "result"]]) {
      const name = ["reports_user", ...filters, sort].join("_");
      const columns = ["user_id", ...filters].map((column) => `"${column}"`).join(", ");
      await sql.raw(`drop index ${name}`).execute(db);
      await sql.raw(`create index ${name} on reports (${columns}, "${sort}" nulls first, "id")`).execute(db);
    }
  }
}

/** SQLite's documented procedure for changing a column's constraints: the same table, the NOT NULLs dropped. */
async function rebuildReportsWithNullableAnalysis(trx: Kysely<unknown>): Promise<void> {
  const table = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'table' and name = 'reports'`.execute(trx);
  const dependents = await sql<{ sql: string }>`
    select sql from sqlite_master
    where tbl_name = 'reports' and type in ('index', 'trigger') and sql is not null`.execute(trx);
  const sequence = await sql<{ seq: number }>`
    select seq from sqlite_sequence where name = 'reports'`.execute(trx);
  let ddl = table.rows[0]?.sql;
  if (!ddl) throw new Error("the reports table is missing");
  for (const column of analysisColumns) {
    const notNull = new RegExp(`("${column}" \\w+) not null`, "i");
    if (!notNull.test(ddl)) throw new Error(`reports.${column} is not the NOT NULL column this expects`);
    ddl = ddl.replace(notNull, "$1");
  }
  await sql.raw(ddl.replace(/^create table "reports"/i, 'create table "reports_rebuilt"')).execute(trx);
  await sql`insert into reports_rebuilt select * from reports`.execute(trx);
  await sql`drop table reports`.execute(trx);
  await sql`alter table reports_rebuilt rename to reports`.execute(trx);
  for (const { sql: statement } of dependents.rows) await sql.raw(statement).execute(trx);
  // Ids are never reused: the counter continues where the old table's stopped, not at its largest id.
  const seq = sequence.rows[0]?.seq;
  if (seq !== undefined)
    await sql`update sqlite_sequence set seq = ${seq} where name = 'reports'`.execute(trx);
  const broken = await sql`pragma foreign_key_check`.execute(trx);
  if (broken.rows.length > 0) throw new Error("the rebuilt reports table breaks a foreign key");
}
