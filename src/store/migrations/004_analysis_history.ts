/**
 * Migration 004: every analysis kept. The `analyses` table holds one row per analysis, and each existing
 * report's analysis becomes its first row; reports say which analysis they show and how many they have.
 */
import type { Kysely, Migration } from "kysely";
import { packResults } from "../analysis-document.js";
import type { Dialect } from "../store.js";

export function analysisHistory(dialect: Dialect): Migration {
  const pg = dialect === "postgres";
  return {
    async up(db: Kysely<unknown>) {
      // PostgreSQL runs each migration in a transaction already (transactional DDL); Kysely does not on
      // SQLite, so this one opens its own there: the move into history happens entirely or not at all.
      if (pg) await moveIntoHistory(db as Kysely<MigratingDatabase>, dialect);
      else
        await (db as Kysely<MigratingDatabase>).transaction().execute((trx) => moveIntoHistory(trx, dialect));
    },
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
async function moveIntoHistory(db: Kysely<MigratingDatabase>, dialect: Dialect): Promise<void> {
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
