/**
 * The schema, as ordered migrations run at start-up (Kysely's Migrator: recorded in kysely_migration and
 * guarded by its lock, so two instances starting together do not race). One set for both dialects; the few
 * branches are where SQL truly differs: identity columns, byte-order collation, and the substring-search
 * index (FTS5 trigram on SQLite, pg_trgm on PostgreSQL).
 */
import { type Kysely, type Migration, Migrator, sql } from "kysely";
import { packResults } from "./analysis-document.js";
import type { Dialect, Store } from "./database.js";
import { reportsVersion } from "./migrations/010_reports_version.js";
import { reportStatus } from "./migrations/011_report_status.js";
import { webhooks } from "./migrations/012_webhooks.js";
import { screenshots } from "./migrations/013_screenshots.js";
import { crawls } from "./migrations/014_crawls.js";
import { crawlBounds } from "./migrations/015_crawl_bounds.js";
import { jobFairness } from "./migrations/016_job_fairness.js";
import { reportChanges } from "./migrations/017_report_changes.js";

/** The list sort keys, each paired with the filters that can precede it in an index. */
const sortColumns = ["id", "generated_at", "url", "score"] as const;

function migrations(dialect: Dialect): Record<string, Migration> {
  const pg = dialect === "postgres";
  // Byte-order comparison in both dialects, so sorting by URL or project gives the same order everywhere.
  const bytewise = pg ? sql`collate "C"` : sql``;
  return {
    "001_initial": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("users")
          .addColumn("id", "integer", (c) =>
            pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
          )
          .addColumn("email", "text", (c) => c.notNull().unique())
          .addColumn("password_hash", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();

        await db.schema
          .createTable("api_keys")
          .addColumn("id", "integer", (c) =>
            pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
          )
          .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
          .addColumn("digest", "text", (c) => c.notNull().unique())
          .addColumn("prefix", "text", (c) => c.notNull())
          .addColumn("last_four", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("revoked_at", "text")
          .execute();
        await db.schema.createIndex("api_keys_user").on("api_keys").columns(["user_id"]).execute();

        await db.schema
          .createTable("reports")
          .addColumn("id", "integer", (c) =>
            pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
          )
          .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
          .addColumn("url", "text", (c) => c.notNull().modifyEnd(bytewise))
          .addColumn("final_url", "text", (c) => c.notNull())
          .addColumn("project", "text", (c) => c.notNull().modifyEnd(bytewise))
          .addColumn("result", "text", (c) => c.notNull())
          .addColumn("score", "integer", (c) => c.notNull())
          .addColumn("privacy", "integer", (c) => c.notNull())
          .addColumn("password_hash", "text")
          .addColumn("summary", "text", (c) => c.notNull())
          .addColumn("categories", "text", (c) => c.notNull())
          .addColumn("results", "text", (c) => c.notNull())
          .addColumn("generated_at", "text", (c) => c.notNull())
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        // Every list is scoped to a user, optionally filtered by project and/or result, sorted by one key with
        // id as the tie-breaker: one index per (filters, sort key) so each page is an index range scan.
        for (const sort of sortColumns) {
          const tail = sort === "id" ? ["id"] : [sort, "id"];
          await db.schema
            .createIndex(`reports_user_${sort}`)
            .on("reports")
            .columns(["user_id", ...tail])
            .execute();
          await db.schema
            .createIndex(`reports_user_project_${sort}`)
            .on("reports")
            .columns(["user_id", "project", ...tail])
            .execute();
          await db.schema
            .createIndex(`reports_user_result_${sort}`)
            .on("reports")
            .columns(["user_id", "result", ...tail])
            .execute();
          await db.schema
            .createIndex(`reports_user_project_result_${sort}`)
            .on("reports")
            .columns(["user_id", "project", "result", ...tail])
            .execute();
        }

        if (pg) {
          // In public, which every connection's search_path ends with: created in the first schema of the path,
          // it would vanish with that schema and be invisible from the others sharing the database.
          await sql`create extension if not exists pg_trgm with schema public`.execute(db);
          await sql`create index reports_url_trigram on reports using gin (url gin_trgm_ops)`.execute(db);
        } else {
          // An external-content FTS5 table over reports.url with the trigram tokenizer: substring search
          // without scanning, kept in step by triggers.
          await sql`create virtual table reports_url_search using fts5(url, content='reports', content_rowid='id', tokenize='trigram case_sensitive 0')`.execute(
            db,
          );
          await sql`create trigger reports_url_search_insert after insert on reports begin
            insert into reports_url_search(rowid, url) values (new.id, new.url); end`.execute(db);
          await sql`create trigger reports_url_search_delete after delete on reports begin
            insert into reports_url_search(reports_url_search, rowid, url) values ('delete', old.id, old.url); end`.execute(
            db,
          );
          await sql`create trigger reports_url_search_update after update of url on reports begin
            insert into reports_url_search(reports_url_search, rowid, url) values ('delete', old.id, old.url);
            insert into reports_url_search(rowid, url) values (new.id, new.url); end`.execute(db);
        }

        await db.schema
          .createTable("rate_limits")
          .addColumn("bucket", "text", (c) => c.notNull())
          .addColumn("window_start", "integer", (c) => c.notNull())
          .addColumn("count", "integer", (c) => c.notNull())
          .addPrimaryKeyConstraint("rate_limits_pk", ["bucket", "window_start"])
          .execute();
      },
    },
    "002_web_sessions": {
      async up(db: Kysely<unknown>) {
        // Browser sessions: the cookie holds a random token, the table only its SHA-256 digest.
        await db.schema
          .createTable("sessions")
          .addColumn("digest", "text", (c) => c.primaryKey())
          .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
          .addColumn("flash", "text")
          .addColumn("created_at", "text", (c) => c.notNull())
          .addColumn("expires_at", "integer", (c) => c.notNull())
          .execute();
        await db.schema.createIndex("sessions_user").on("sessions").columns(["user_id"]).execute();
        // Secrets every instance must share (the key that signs cookies), made on first start.
        await db.schema
          .createTable("secrets")
          .addColumn("name", "text", (c) => c.primaryKey())
          .addColumn("value", "text", (c) => c.notNull())
          .execute();
      },
    },
    "003_url_in_list_indexes": {
      async up(db: Kysely<unknown>) {
        // SQLite matches a common search needle with LIKE while walking a list index (see ReportStore's
        // urlContains); with the URL in every list index that walk never reads the table's wide rows.
        // PostgreSQL's planner has the pg_trgm index for that and keeps its indexes as they are.
        if (pg) return;
        for (const sort of sortColumns) {
          if (sort === "url") continue;
          const tail = sort === "id" ? ["id"] : [sort, "id"];
          for (const filters of [[], ["project"], ["result"], ["project", "result"]]) {
            const name = ["reports_user", ...filters, sort].join("_");
            await db.schema.dropIndex(name).execute();
            await db.schema
              .createIndex(name)
              .on("reports")
              .columns(["user_id", ...filters, ...tail, "url"])
              .execute();
          }
        }
      },
    },
    "004_analysis_history": {
      async up(db: Kysely<unknown>) {
        // PostgreSQL runs each migration in a transaction already (transactional DDL); Kysely does not on
        // SQLite, so this one opens its own there: the move into history happens entirely or not at all.
        if (pg) await analysisHistory(db as Kysely<MigratingDatabase>, dialect);
        else
          await (db as Kysely<MigratingDatabase>)
            .transaction()
            .execute((trx) => analysisHistory(trx, dialect));
      },
    },
    "005_jobs": {
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
    },
    "010_reports_version": reportsVersion(dialect),
    "011_report_status": reportStatus(dialect),
    "012_webhooks": webhooks(dialect),
    "013_screenshots": screenshots(dialect),
    "014_crawls": crawls(dialect),
    "015_crawl_bounds": crawlBounds(),
    "016_job_fairness": jobFairness(),
    "017_report_changes": reportChanges(dialect),
  };
}

/** The reports table as migration 004 reads it. */
interface MigratingDatabase {
  reports: {
    id: number;
    user_id: number;
    url: string;
    final_url: string;
    result: string;
    score: number;
    summary: string;
    categories: string;
    results: string;
    generated_at: string;
    analysis_id: number | null;
    analyses: number;
  };
  analyses: Record<string, unknown>;
}

/**
 * Every analysis becomes its own row in `analyses`; a report keeps a copy of its latest complete analysis (the
 * JSON text responses splice in as it is) and says which analysis that is, how many it has, and how its score
 * moved. Each existing report's analysis becomes its first (trigger `create`, mode `raw`).
 */
async function analysisHistory(db: Kysely<MigratingDatabase>, dialect: Dialect): Promise<void> {
  const pg = dialect === "postgres";
  await db.schema
    .createTable("analyses")
    .addColumn("id", "integer", (c) =>
      pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    )
    .addColumn("report_id", "integer", (c) => c.notNull().references("reports.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("trigger", "text", (c) => c.notNull())
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("final_url", "text")
    .addColumn("result", "text")
    .addColumn("score", "integer")
    .addColumn("summary", "text")
    .addColumn("categories", "text")
    // The check results, brotli-compressed JSON (see analysis-document.ts): a fifth of the text's size.
    .addColumn("results", pg ? "bytea" : "blob")
    .addColumn("error_reason", "text")
    .addColumn("error_message", "text")
    .addColumn("generated_at", "text", (c) => c.notNull())
    .execute();
  // A report's history is read newest first (or oldest first) by id; the user index serves account deletion.
  await db.schema.createIndex("analyses_report_id").on("analyses").columns(["report_id", "id"]).execute();
  await db.schema.createIndex("analyses_user").on("analyses").columns(["user_id"]).execute();

  await db.schema.alterTable("reports").addColumn("analysis_id", "integer").execute();
  await db.schema
    .alterTable("reports")
    .addColumn("analyses", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("reports").addColumn("score_change", "integer").execute();

  // In batches by id, so a large table never sits in memory at once; the results are compressed here
  // because neither database can do it in SQL.
  const batch = 500;
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("reports")
      .select([
        "id",
        "user_id",
        "url",
        "final_url",
        "result",
        "score",
        "summary",
        "categories",
        "results",
        "generated_at",
      ])
      .where("id", ">", after)
      .orderBy("id")
      .limit(batch)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const inserted = await db
        .insertInto("analyses")
        .values({
          report_id: row.id,
          user_id: row.user_id,
          status: "complete",
          trigger: "create",
          mode: "raw",
          url: row.url,
          final_url: row.final_url,
          result: row.result,
          score: row.score,
          summary: row.summary,
          categories: row.categories,
          results: packResults(row.results),
          generated_at: row.generated_at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .updateTable("reports")
        .set({ analysis_id: inserted.id as number, analyses: 1 })
        .where("id", "=", row.id)
        .execute();
    }
    after = rows[rows.length - 1]?.id ?? after;
  }
}

/** The migrations by name, for tests that build a database as an earlier version left it. */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return migrations(dialect);
}

export async function migrate(store: Store): Promise<void> {
  const all = migrations(store.dialect);
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => all },
    // Kysely looks for its own tables in every schema unless told which: a database holding several schemas
    // (tests run one per suite, at once) would find another schema's lock table and skip creating its own.
    ...(store.dialect === "postgres" ? { migrationTableSchema: await currentSchema(store) } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`database migration ${failed} failed: ${(error as Error).message ?? String(error)}`);
  }
}

async function currentSchema(store: Store): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error("database migration: no current schema (check the search_path)");
  return schema;
}
