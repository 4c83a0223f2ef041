/**
 * Migration 022: a report's check results are stored once. Until now the report row kept its latest complete
 * analysis's results as JSON text beside the same results, packed, on that analysis's history row; the report
 * now reads them through `analysis_id` (report-store.ts), and its copy goes. Before it does, any report whose
 * copy has nowhere else to live gets it there, so no report loses what it shows: one whose shown analysis has no
 * packed results gets its copy packed onto it, and one with results but no shown analysis (none should have:
 * migration 004 gave each report one) gets them as a new analysis of its history, which it then shows.
 */
import { type Kysely, type Migration, sql } from "kysely";
import { packResults } from "../analysis-document.js";
import type { Dialect } from "../store.js";

/** The tables as this migration reads them. */
interface MigratingDatabase {
  reports: {
    id: number;
    user_id: number;
    analysis_id: number | null;
    analyses: number;
    url: string;
    final_url: string;
    result: string | null;
    score: number | null;
    summary: string | null;
    categories: string | null;
    results: string | null;
    generated_at: string | null;
    updated_at: string;
    mode: string;
  };
  analyses: Record<string, unknown> & { id: number; results: Buffer | null };
}

export function resultsOnce(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // PostgreSQL runs each migration in a transaction already; on SQLite this one opens its own.
      if (dialect === "postgres") await moveResults(db as Kysely<MigratingDatabase>);
      else await (db as Kysely<MigratingDatabase>).transaction().execute((trx) => moveResults(trx));
    },
  };
}

async function moveResults(db: Kysely<MigratingDatabase>): Promise<void> {
  // In batches by id, so a large table never sits in memory at once.
  const batch = 500;
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("reports")
      .innerJoin("analyses", "analyses.id", "reports.analysis_id")
      .select(["reports.id as id", "reports.analysis_id as analysis_id", "reports.results as results"])
      .where("reports.id", ">", after)
      .where("analyses.results", "is", null)
      .where("reports.results", "is not", null)
      .orderBy("reports.id")
      .limit(batch)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      await db
        .updateTable("analyses")
        .set({ results: packResults(row.results as string) })
        .where("id", "=", row.analysis_id as number)
        .execute();
    }
    after = rows[rows.length - 1]?.id ?? after;
  }
  after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("reports")
      .selectAll()
      .where("id", ">", after)
      .where("results", "is not", null)
      .where(({ or, eb, not, exists, selectFrom }) =>
        or([
          eb("analysis_id", "is", null),
          not(
            exists(
              selectFrom("analyses as shown")
                .select("shown.id")
                .whereRef("shown.id", "=", "reports.analysis_id"),
            ),
          ),
        ]),
      )
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
          mode: row.mode,
          url: row.url,
          final_url: row.final_url,
          result: row.result,
          score: row.score,
          summary: row.summary,
          categories: row.categories,
          results: packResults(row.results as string),
          generated_at: row.generated_at ?? row.updated_at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .updateTable("reports")
        .set({ analysis_id: inserted.id, analyses: sql<number>`analyses + 1` })
        .where("id", "=", row.id)
        .execute();
    }
    after = rows[rows.length - 1]?.id ?? after;
  }
  await sql`alter table reports drop column results`.execute(db);
}
